package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// hubUsers are the local system users the JupyterHub test creates.
var hubUsers = []string{"sbir-e2e-alice", "sbir-e2e-bob"}

// hubAPI calls JupyterHub's REST API with the test service's token.
type hubAPI struct {
	base, token string
}

func (h hubAPI) do(method, path string) (int, string, error) {
	req, err := http.NewRequest(method, h.base+path, nil)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "token "+h.token)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(body), nil
}

// serverReady reports whether the user's default server is running.
func (h hubAPI) serverReady(t *testing.T, name string) (ready, exists bool) {
	t.Helper()
	code, body, err := h.do("GET", "/hub/api/users/"+name)
	if err != nil || code != 200 {
		t.Fatalf("GET /hub/api/users/%s: %d %v %s", name, code, err, body)
	}
	var u struct {
		Servers map[string]struct {
			Ready bool `json:"ready"`
		} `json:"servers"`
	}
	json.Unmarshal([]byte(body), &u)
	s, ok := u.Servers[""]
	return s.Ready, ok
}

// processUID returns the real uid of a process.
func processUID(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" {
			uid, _ := strconv.Atoi(f[1])
			return uid
		}
	}
	return -1
}

// ensureUser creates a local user with a home directory (useradd), and
// removes it when the test ends if the test created it.
func ensureUser(t *testing.T, name string) *user.User {
	t.Helper()
	if u, err := user.Lookup(name); err == nil {
		return u
	}
	if out, err := exec.Command("useradd", "--create-home", "--shell", "/bin/bash", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v\n%s", name, err, out)
	}
	t.Cleanup(func() { exec.Command("userdel", "--remove", name).Run() })
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestE2EJupyterHub runs JupyterHub on loopback with two local users
// (DummyAuthenticator, LocalProcessSpawner, configurable-http-proxy from
// npm): both run the sbir kernel at once, as their own uids; neither sees
// the other's variables or files; both map the one Arrow cache, which they
// cannot change. Then jupyterhub-idle-culler culls a server while its cell
// runs: no kernel or worker process is left and the cache is intact.
func TestE2EJupyterHub(t *testing.T) {
	node := requireNode(t, false, "configurable-http-proxy")
	_ = node
	j := newVenvJupyterEnv(t, "jupyterhub", "jupyterhub_idle_culler", "websocket")
	if os.Geteuid() != 0 {
		requireClient(t, "the JupyterHub test creates local users and spawns their servers: it must run as root (CI does)", "passwd")
	}
	logVersions(t, j, "jupyterhub", "jupyterhub-idle-culler", "jupyter_server")
	h := &hubRig{j: j, users: map[string]*user.User{}, kernels: map[string]string{}}
	for _, name := range hubUsers {
		h.users[name] = ensureUser(t, name)
	}
	prefix := h.shareKernel(t)
	port, configPath := h.writeConfig(t, prefix)
	hubCmd := j.command(t.Context(), filepath.Join(filepath.Dir(j.pythonExe), "jupyterhub"), "-f", configPath)
	hubCmd.Dir = j.root
	hub := startServer(t, "jupyterhub", hubCmd)
	h.base = fmt.Sprintf("http://127.0.0.1:%d", port)
	hub.waitOK(t, h.base+"/hub/health", 120*time.Second)
	h.api = hubAPI{base: h.base, token: h.token}
	defer func() {
		if t.Failed() {
			t.Logf("JupyterHub's log:\n%s", lastLines(hub.output(), 60))
		}
	}()
	h.startUserServers(t)
	h.startKernels(t)
	if t.Failed() {
		t.FailNow()
	}

	t.Run("each kernel runs as its user", h.kernelsRunAsTheirUsers)
	t.Run("neither sees the other's variables", h.variablesApart)
	t.Run("neither sees the other's files", h.filesApart)
	t.Run("both map the one cache, read-only", h.oneCacheReadOnly)
	t.Run("a server culled while a cell runs", h.culledMidCell)

	if !hub.stop(60 * time.Second) {
		t.Errorf("JupyterHub did not exit within 60 s of SIGTERM")
	}
}

// hubRig is what TestE2EJupyterHub's parts share: the hub's users, its
// API, the shared data cache and its digest before any kernel ran, and
// each user's kernel.
type hubRig struct {
	j                  *jupyterEnv
	users              map[string]*user.User
	cache              string
	before             map[string]string // cacheDigest of cache
	base               string            // the hub's URL
	token, cullerToken string
	api                hubAPI
	kernels            map[string]string // kernel ID by user name
}

// userURL is the URL of name's server, through the hub.
func (h *hubRig) userURL(name string) string { return h.base + "/user/" + name }

// shareKernel installs what the users share, readable by everyone and
// writable by no one but root: the kernel binary, its kernelspec (under
// the prefix it returns) and the data cache, converted already.
func (h *hubRig) shareKernel(t *testing.T) (prefix string) {
	j := h.j
	for d := j.root; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	prefix = filepath.Join(j.root, "shared")
	j.install("--prefix", prefix)
	h.cache = filepath.Join(j.root, "shared-cache")
	if err := os.MkdirAll(h.cache, 0o755); err != nil {
		t.Fatal(err)
	}
	prep := exec.Command(j.bin, "run", "-c", "award_data.Count()")
	prep.Env = append(os.Environ(), "SBIR_CACHE_DIR="+h.cache)
	if out, err := prep.CombinedOutput(); err != nil {
		t.Fatalf("preparing the shared cache: %v\n%s", err, out)
	}
	filepath.Walk(h.cache, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			os.Chmod(p, 0o644)
		}
		return nil
	})
	h.before = cacheDigest(t, h.cache)
	return prefix
}

// writeConfig writes the hub's configuration: local users spawned with
// the shared kernelspec and cache, the test's and the idle culler's
// services. It returns the hub's port and the configuration's path.
func (h *hubRig) writeConfig(t *testing.T, prefix string) (port int, configPath string) {
	j := h.j
	port = freePort(t)
	hubPort, proxyPort := freePort(t), freePort(t)
	h.token = fmt.Sprintf("e2e-%d", time.Now().UnixNano())
	h.cullerToken = h.token + "-culler"
	venvBin := filepath.Dir(j.pythonExe)
	config := fmt.Sprintf(`
c.JupyterHub.bind_url = "http://127.0.0.1:%d"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:%d"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%d"
c.ConfigurableHTTPProxy.command = [%q]
c.ConfigurableHTTPProxy.auth_token = %q
c.JupyterHub.db_url = "sqlite:///%s"
c.JupyterHub.cookie_secret_file = %q
c.JupyterHub.pid_file = %q
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = "e2e-password"
c.Authenticator.allowed_users = set(%s)
c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
c.Spawner.cmd = [%q]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {"SBIR_CACHE_DIR": %q, "JUPYTER_PATH": %q}
c.JupyterHub.services = [{"name": "e2e", "api_token": %q}, {"name": "idle-culler", "api_token": %q}]
c.JupyterHub.load_roles = [
    {"name": "e2e", "services": ["e2e"], "scopes": ["admin:users", "admin:servers", "access:servers", "list:users", "read:users"]},
    {"name": "idle-culler", "services": ["idle-culler"], "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]},
]
`, port, hubPort, proxyPort, filepath.Join(nodeModulesDir(), ".bin", "configurable-http-proxy"), h.token+"-proxy",
		filepath.Join(j.root, "hub.sqlite"), filepath.Join(j.root, "hub-cookie-secret"), filepath.Join(j.root, "hub.pid"),
		pyList(hubUsers), filepath.Join(venvBin, "jupyterhub-singleuser"), h.cache, filepath.Join(prefix, "share", "jupyter"), h.token, h.cullerToken)
	configPath = filepath.Join(j.root, "jupyterhub_config.py")
	if err := os.WriteFile(configPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return port, configPath
}

// startUserServers creates the users in the hub, starts their servers,
// and waits until they are ready.
func (h *hubRig) startUserServers(t *testing.T) {
	for _, name := range hubUsers {
		if code, body, err := h.api.do("POST", "/hub/api/users/"+name); err != nil || (code != 201 && code != 409) {
			t.Fatalf("creating hub user %s: %d %v %s", name, code, err, body)
		}
		if code, body, err := h.api.do("POST", "/hub/api/users/"+name+"/server"); err != nil || (code != 201 && code != 202) {
			t.Fatalf("starting %s's server: %d %v %s", name, code, err, body)
		}
	}
	deadline := time.Now().Add(testenv.Scale(2 * time.Minute))
	for _, name := range hubUsers {
		for {
			if ready, _ := h.api.serverReady(t, name); ready {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s's server did not become ready within 2 minutes", name)
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
}

// startKernels starts a kernel for each user at once, each keeping a
// variable of its own (secret).
func (h *hubRig) startKernels(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, name := range hubUsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var rep runReport
			cells := cellsJSON(fmt.Sprintf("secret := %q", "only "+name), "award_data.Count()")
			err := h.j.serverClient(t, &rep, h.userURL(name), h.token, "cells", cells, "--keep")
			mu.Lock()
			defer mu.Unlock()
			if err != nil || len(rep.Results) != 2 || rep.Results[1].Status != "ok" {
				t.Errorf("%s's kernel: %v %+v", name, err, rep)
				return
			}
			h.kernels[name] = rep.KernelID
			t.Logf("%s: kernel ready %.3f s after POST through the hub; award_data.Count() = %s", name, rep.ReadySeconds, rep.Results[1].Data["text/plain"])
		}()
	}
	wg.Wait()
}

// kernelsRunAsTheirUsers: each kernel runs as its user.
func (h *hubRig) kernelsRunAsTheirUsers(t *testing.T) {
	procs := h.j.kernelProcesses()
	byUID := map[int]int{}
	for pid := range procs {
		byUID[processUID(pid)]++
	}
	for _, name := range hubUsers {
		uid, _ := strconv.Atoi(h.users[name].Uid)
		if byUID[uid] == 0 {
			t.Errorf("no kernel process runs as %s (uid %d): processes by uid %v", name, uid, byUID)
		}
	}
}

// variablesApart: neither user's kernel sees the other's variables.
func (h *hubRig) variablesApart(t *testing.T) {
	for i, name := range hubUsers {
		other := hubUsers[1-i]
		var rep runReport
		h.j.serverClient(t, &rep, h.userURL(name), h.token, "cells", `["secret"]`, "--keep", "--kernel-id", h.kernels[name])
		got := string(rep.Results[0].Data["text/plain"])
		if !strings.Contains(got, "only "+name) || strings.Contains(got, other) {
			t.Errorf("%s's secret is %s (error %q)", name, got, rep.Results[0].Error)
		}
	}
}

// filesApart: neither user's server nor kernel reads the other's files.
func (h *hubRig) filesApart(t *testing.T) {
	alice, bob := hubUsers[0], hubUsers[1]
	home := h.users[alice].HomeDir
	if err := os.WriteFile(filepath.Join(home, "private.txt"), []byte("alice's notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(h.users[alice].Uid)
	gid, _ := strconv.Atoi(h.users[alice].Gid)
	os.Chown(filepath.Join(home, "private.txt"), uid, gid)
	// Through bob's server: its contents API is rooted in bob's home.
	code, body, _ := h.api.do("GET", "/user/"+bob+"/api/contents/..%2F"+alice+"%2Fprivate.txt")
	if code == 200 || strings.Contains(body, "alice's notes") {
		t.Errorf("bob's server served alice's file: %d %s", code, body)
	}
	// Through bob's kernel: a cell has no file access at all.
	var rep runReport
	h.j.serverClient(t, &rep, h.userURL(bob), h.token, "cells", cellsJSON(fmt.Sprintf("data, err := os.ReadFile(%q)\nfmt.Println(string(data), err)", filepath.Join(home, "private.txt"))), "--keep", "--kernel-id", h.kernels[bob])
	if r := rep.Results[0]; r.Status == "ok" && strings.Contains(r.Stdout, "alice's notes") {
		t.Errorf("bob's cell read alice's file: %+v", r)
	} else {
		t.Logf("bob's cell reading alice's file: %s%s", r.Error, r.Stdout)
	}
}

// oneCacheReadOnly: the kernels map the one shared cache, and do not change it.
func (h *hubRig) oneCacheReadOnly(t *testing.T) {
	mapped := map[int]bool{}
	for pid := range h.j.kernelProcesses() {
		maps, _ := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
		if strings.Contains(string(maps), h.cache) {
			mapped[processUID(pid)] = true
		}
	}
	if len(mapped) < 1 {
		t.Errorf("no worker maps a file of the shared cache %s", h.cache)
	}
	t.Logf("uids of processes mapping the shared cache: %v", mapped)
	if after := cacheDigest(t, h.cache); !sameDigest(h.before, after) {
		t.Errorf("the shared cache changed: before %v, after %v", h.before, after)
	}
}

// culledMidCell: a server the idle culler stops while a cell runs takes
// its kernel and worker with it, and the cache is unchanged.
func (h *hubRig) culledMidCell(t *testing.T) {
	alice := hubUsers[0]
	uid, _ := strconv.Atoi(h.users[alice].Uid)
	client, _ := h.j.hangingClient(t, h.userURL(alice), h.token, "sbir")
	_ = client
	culler := h.j.command(t.Context(), h.j.pythonExe, "-m", "jupyterhub_idle_culler",
		"--url="+h.base+"/hub/api", "--timeout=5", "--cull-every=2")
	culler.Env = append(culler.Env, "JUPYTERHUB_API_TOKEN="+h.cullerToken)
	c := startServer(t, "jupyterhub-idle-culler", culler)
	deadline := time.Now().Add(testenv.Scale(90 * time.Second))
	for {
		if _, exists := h.api.serverReady(t, alice); !exists {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the culler did not cull %s's server within 90 s:\n%s", alice, lastLines(c.output(), 20))
		}
		time.Sleep(500 * time.Millisecond)
	}
	c.stop(5 * time.Second)
	t.Logf("culler: %s", strings.TrimSpace(lastLines(c.output(), 3)))
	left, ok := h.j.waitProcesses(15*time.Second, func(int) bool {
		for pid := range h.j.kernelProcesses() {
			if processUID(pid) == uid {
				return false
			}
		}
		return true
	})
	if !ok {
		t.Errorf("%s's server was culled, but kernel or worker processes of hers remain: %v", alice, left)
	}
	// What her browser gets now: the hub's answer for a stopped server.
	code, body, _ := h.api.do("GET", "/user/"+alice+"/api/kernels")
	t.Logf("after culling, GET /user/%s/api/kernels: HTTP %d %s", alice, code, firstLine(strings.TrimSpace(stripTags(body))))
	if code == 200 {
		t.Errorf("the culled server still answers")
	}
	if after := cacheDigest(t, h.cache); !sameDigest(h.before, after) {
		t.Errorf("the shared cache changed: before %v, after %v", h.before, after)
	}
}

// cellsJSON is the JSON list of cells server_client.py takes.
func cellsJSON(cells ...string) string {
	b, _ := json.Marshal(cells)
	return string(b)
}

// pyList renders strings as a Python list literal.
func pyList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// stripTags drops HTML tags, to log an error page's text.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
