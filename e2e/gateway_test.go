package e2e

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// cellResult is one cell's outcome as server_client.py reports it.
type cellResult struct {
	Status string                     `json:"status"`
	Stdout string                     `json:"stdout"`
	Stderr string                     `json:"stderr"`
	Data   map[string]json.RawMessage `json:"data"`
	Error  string                     `json:"error"`
}

// runReport is server_client.py's report for notebook and cells.
type runReport struct {
	KernelID       string       `json:"kernel_id"`
	Implementation string       `json:"implementation"`
	ReadySeconds   float64      `json:"ready_seconds"`
	Results        []cellResult `json:"results"`
	HTTPError      int          `json:"http_error"`
	Body           string       `json:"body"`
}

// serverClient runs testdata/scripts/server_client.py against a Jupyter
// Server and decodes its report into v.
func (j *jupyterEnv) serverClient(t *testing.T, v any, base, token string, args ...string) error {
	t.Helper()
	report, stderr, err := j.runJSONScript(t, 3*time.Minute, "server_client.py", append([]string{base, token}, args...)...)
	if jerr := json.Unmarshal([]byte(report), v); jerr != nil {
		t.Fatalf("server_client.py %s (%v) printed no report: %v\n%s\nstderr:\n%s", strings.Join(args, " "), err, jerr, report, lastLines(stderr, 30))
	}
	return err
}

// hangingClient starts server_client.py hang: a kernel running an endless
// cell, with the client still connected. It returns the client and the
// kernel's id.
func (j *jupyterEnv) hangingClient(t *testing.T, base, token, kernel string) (*exec.Cmd, string) {
	t.Helper()
	script, _ := filepath.Abs(filepath.Join("testdata", "scripts", "server_client.py"))
	cmd := j.command(context.Background(), j.pythonExe, script, base, token, "hang", "--kernel", kernel)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	var v struct {
		KernelID string `json:"kernel_id"`
	}
	if err != nil || json.Unmarshal([]byte(line), &v) != nil || v.KernelID == "" {
		t.Fatalf("the hanging client did not start its cell (%v, %q):\n%s", err, line, lastLines(stderr.String(), 20))
	}
	go io.Copy(io.Discard, stdout)
	return cmd, v.KernelID
}

// waitProcesses waits until the number of kernel and worker processes of
// j.bin satisfies ok, at most timeout (scaled by SBIR_TEST_SLOW), and
// returns the last count.
func (j *jupyterEnv) waitProcesses(timeout time.Duration, ok func(n int) bool) (map[int]string, bool) {
	deadline := time.Now().Add(testenv.Scale(timeout))
	for {
		procs := j.kernelProcesses()
		if ok(len(procs)) {
			return procs, true
		}
		if time.Now().After(deadline) {
			return procs, false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// parentPID reads a process's parent from /proc.
func parentPID(pid int) int {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// descendsFrom reports whether pid has ancestor among its ancestors.
func descendsFrom(pid, ancestor int) bool {
	for p := pid; p > 1; p = parentPID(p) {
		if p == ancestor {
			return true
		}
	}
	return false
}

// cacheDigest hashes every file of the kernel's data cache, to show that
// killed kernels and servers leave it as it was.
func cacheDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || strings.HasSuffix(path, ".lock") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		rel, _ := filepath.Rel(dir, path)
		sums[rel] = hex.EncodeToString(sum[:8])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

func sameDigest(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func keys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// startGateway starts Jupyter Kernel Gateway on port with token.
func startGateway(t *testing.T, j *jupyterEnv, port int, token string) (*server, string) {
	t.Helper()
	cmd := j.command(context.Background(), filepath.Join(filepath.Dir(j.pythonExe), "jupyter"), "kernelgateway",
		"--KernelGatewayApp.ip=127.0.0.1", fmt.Sprintf("--KernelGatewayApp.port=%d", port),
		"--KernelGatewayApp.auth_token="+token, "--KernelGatewayApp.port_retries=0",
		// The gateway gives kernels only PATH from its own environment;
		// the kernel needs to know where the shared data cache is.
		"--KernelGatewayApp.env_process_whitelist=SBIR_CACHE_DIR")
	gw := startServer(t, "jupyter kernelgateway", cmd)
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	gw.waitHTTP(t, url+"/api", 60*time.Second)
	return gw, url
}

// TestE2EKernelGateway hosts sbir kernels on Jupyter Kernel Gateway (the
// protocol Enterprise Gateway speaks on Kubernetes) and runs a notebook on
// them through a jupyter_server started with --gateway-url, as JupyterLab
// does. Then the bad cases: a client that vanishes mid-cell, and the
// gateway restarting under a running cell: no kernel or worker process is
// left behind and the data cache is untouched.
func TestE2EKernelGateway(t *testing.T) {
	j := newVenvJupyterEnv(t, "kernel_gateway", "jupyter_server", "websocket")
	logVersions(t, j, "jupyter_kernel_gateway", "jupyter_server", "jupyter_client")
	j.install()
	j.install("--name", "sbir-short", "--display-name", "Go (SBIR, 3 s cells)", "--cell-timeout", "3s", "--kill-grace", "1s")
	cache := j.getenv("SBIR_CACHE_DIR")
	g, srv := startGatewayRig(t, j)
	defer func() {
		if t.Failed() {
			t.Logf("gateway log:\n%s\nserver log:\n%s", lastLines(g.gw.output(), 30), lastLines(srv.output(), 30))
		}
	}()

	t.Run("kernelspecs come from the gateway", func(t *testing.T) {
		var specs struct {
			Names        []string          `json:"names"`
			DisplayNames map[string]string `json:"display_names"`
		}
		j.serverClient(t, &specs, g.srvURL, g.srvToken, "kernelspecs")
		if specs.DisplayNames["sbir"] != "Go (SBIR awards)" {
			t.Errorf("the server lists %v, want sbir as \"Go (SBIR awards)\"", specs.DisplayNames)
		}
	})
	t.Run("a notebook runs on the gateway", g.notebookRuns)
	before := cacheDigest(t, cache)
	t.Run("the kernel runs under the gateway", g.kernelRunsUnder)
	t.Run("a client vanishes mid-cell", g.clientVanishes)
	t.Run("the gateway restarts under a running cell", g.gatewayRestarts)

	if after := cacheDigest(t, cache); !sameDigest(before, after) {
		t.Errorf("the data cache changed while kernels were killed: before %v, after %v", before, after)
	}
	if len(before) == 0 {
		t.Errorf("no files in the kernel's cache %s: the digest proves nothing", cache)
	}
	// jupyter_server shuts remote kernels down through the gateway on exit.
	g.gw.stop(20 * time.Second)
	if !srv.stop(20 * time.Second) {
		t.Logf("jupyter server did not exit within 20 s of SIGTERM (killed)")
	}
}

// gatewayRig is a kernel gateway and a Jupyter server that runs its
// kernels on it, for TestE2EKernelGateway's subtests.
type gatewayRig struct {
	j                *jupyterEnv
	gw               *server // replaced when a subtest restarts the gateway
	gwPort           int
	gwToken          string
	srvURL, srvToken string
}

// startGatewayRig starts a kernel gateway with j's kernels and a Jupyter
// server using it, and waits until the server answers.
func startGatewayRig(t *testing.T, j *jupyterEnv) (*gatewayRig, *server) {
	g := &gatewayRig{j: j, gwPort: freePort(t), gwToken: fmt.Sprintf("gw-%d", time.Now().UnixNano())}
	var gwURL string
	g.gw, gwURL = startGateway(t, j, g.gwPort, g.gwToken)

	srvPort := freePort(t)
	g.srvToken = fmt.Sprintf("srv-%d", time.Now().UnixNano())
	args := []string{"server", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", srvPort),
		"--IdentityProvider.token=" + g.srvToken, "--gateway-url=" + gwURL, "--GatewayClient.auth_token=" + g.gwToken,
		"--ServerApp.root_dir=" + j.root,
		// Fail fast while the gateway is down, rather than retry for minutes.
		"--GatewayClient.request_timeout=10", "--GatewayClient.connect_timeout=10", "--GatewayClient.gateway_retry_max=1"}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	srv := startServer(t, "jupyter server --gateway-url", j.command(context.Background(), filepath.Join(filepath.Dir(j.pythonExe), "jupyter"), args...))
	g.srvURL = fmt.Sprintf("http://127.0.0.1:%d", srvPort)
	srv.waitHTTP(t, g.srvURL+"/api/status?token="+g.srvToken, 60*time.Second)
	return g, srv
}

// notebookRuns: a notebook runs through the server on the gateway.
func (g *gatewayRig) notebookRuns(t *testing.T) {
	nbPath, _ := filepath.Abs(filepath.Join("testdata", "notebooks", "basics.ipynb"))
	var rep runReport
	if err := g.j.serverClient(t, &rep, g.srvURL, g.srvToken, "notebook", nbPath); err != nil {
		t.Fatalf("server_client.py notebook: %v (%+v)", err, rep)
	}
	if len(rep.Results) != 8 {
		t.Fatalf("%d cell results, want 8: %+v", len(rep.Results), rep)
	}
	// Results are per code cell: basics.ipynb's cell-1 is the first.
	if rep.Results[0].Stdout != "hello from Go\n" || !strings.Contains(string(rep.Results[7].Data["text/html"]), "<table") {
		t.Errorf("outputs: cell-1 printed %q; cell-8's bundle has MIME types %v", rep.Results[0].Stdout, keys(rep.Results[7].Data))
	}
	for i, r := range rep.Results {
		if r.Status != "ok" {
			t.Errorf("cell %d: %s %s", i, r.Status, r.Error)
		}
	}
	t.Logf("kernel %s (%s) ready %.3f s after POST /api/kernels through the gateway", rep.KernelID, rep.Implementation, rep.ReadySeconds)
}

// kernelRunsUnder: the kernel and its worker are the gateway's processes,
// and end when the kernel is deleted.
func (g *gatewayRig) kernelRunsUnder(t *testing.T) {
	var rep runReport
	g.j.serverClient(t, &rep, g.srvURL, g.srvToken, "cells", `["1"]`, "--keep")
	procs := g.j.kernelProcesses()
	under := 0
	for pid := range procs {
		if descendsFrom(pid, g.gw.cmd.Process.Pid) {
			under++
		}
	}
	if under < 2 || under != len(procs) {
		t.Errorf("%d of %d kernel and worker processes descend from the gateway (pid %d): %v", under, len(procs), g.gw.cmd.Process.Pid, procs)
	}
	var none struct{}
	g.j.serverClient(t, &none, g.srvURL, g.srvToken, "cells", `[]`, "--kernel-id", rep.KernelID)
	if left, ok := g.j.waitProcesses(10*time.Second, func(n int) bool { return n == 0 }); !ok {
		t.Errorf("after DELETE /api/kernels/%s, processes remain: %v", rep.KernelID, left)
	}
}

// clientVanishes: a kernel whose client was killed mid-cell finishes the
// cell and runs the next client's.
func (g *gatewayRig) clientVanishes(t *testing.T) {
	base := g.j.cpuTicks()
	client, kid := g.j.hangingClient(t, g.srvURL, g.srvToken, "sbir-short")
	g.j.waitSpinning(t, base) // the cell runs
	syscall.Kill(-client.Process.Pid, syscall.SIGKILL)
	client.Wait()
	// Kernels outlive their browser tab in Jupyter; the cell ends at the
	// kernel's time limit and a new client finds the kernel working.
	var rep runReport
	if err := g.j.serverClient(t, &rep, g.srvURL, g.srvToken, "cells", `["fmt.Println(\"still here\")"]`, "--kernel-id", kid); err != nil {
		t.Fatalf("reattaching to kernel %s: %v %+v", kid, err, rep)
	}
	if len(rep.Results) != 1 || rep.Results[0].Stdout != "still here\n" {
		t.Errorf("the kernel whose client vanished did not run the next cell: %+v", rep.Results)
	}
	if left, ok := g.j.waitProcesses(10*time.Second, func(n int) bool { return n == 0 }); !ok {
		t.Errorf("after its shutdown, processes of the abandoned kernel remain: %v", left)
	}
}

// gatewayRestarts: a gateway stopped under a running cell takes its
// kernel and worker with it, the server says the gateway is down, and a
// new gateway serves new kernels.
func (g *gatewayRig) gatewayRestarts(t *testing.T) {
	client, _ := g.j.hangingClient(t, g.srvURL, g.srvToken, "sbir")
	if procs, ok := g.j.waitProcesses(10*time.Second, func(n int) bool { return n >= 2 }); !ok {
		t.Fatalf("the hanging kernel is not running: %v", procs)
	}
	if !g.gw.stop(30 * time.Second) {
		t.Errorf("the gateway did not exit within 30 s of SIGTERM")
	}
	if left, ok := g.j.waitProcesses(10*time.Second, func(n int) bool { return n == 0 }); !ok {
		t.Errorf("the gateway is gone but its kernel and worker remain: %v", left)
	}
	// What a user sees while the gateway is down: starting a kernel
	// fails with the server's error naming the gateway.
	var down runReport
	err := g.j.serverClient(t, &down, g.srvURL, g.srvToken, "cells", `["1"]`)
	if err == nil || down.HTTPError == 0 || !strings.Contains(strings.ToLower(down.Body), "gateway") {
		t.Errorf("starting a kernel with the gateway down: %v %+v; want an HTTP error naming the gateway", err, down)
	}
	t.Logf("POST /api/kernels with the gateway down: HTTP %d %s", down.HTTPError, firstLine(down.Body))
	syscall.Kill(-client.Process.Pid, syscall.SIGKILL)
	client.Wait()

	g.gw, _ = startGateway(t, g.j, g.gwPort, g.gwToken)
	var rep runReport
	if err := g.j.serverClient(t, &rep, g.srvURL, g.srvToken, "cells", `["award_data.Count() > 0"]`); err != nil || len(rep.Results) != 1 || !strings.Contains(string(rep.Results[0].Data["text/plain"]), "true") {
		t.Errorf("after the gateway restarted, a new kernel: %v %+v", err, rep)
	}
}
