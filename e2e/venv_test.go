package e2e

// Harness for the tests that use Jupyter from PyPI and npm (issue 16): a
// virtualenv and a node_modules directory that .ci/setup.d/10-jupyter-pypi.sh
// installs outside the clone, plus loopback servers (JupyterLab, Kernel
// Gateway, JupyterHub) started and stopped by the tests.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

const setupScript = ".ci/setup.d/10-jupyter-pypi.sh"

// ciCacheDir is where the setup script keeps the virtualenv and node
// modules: $SBIR_CI_CACHE, else /var/cache/sbir-kernel-ci for root (the
// JupyterHub test's users must reach it), else the user's cache directory.
func ciCacheDir() string {
	if d := os.Getenv("SBIR_CI_CACHE"); d != "" {
		return d
	}
	if os.Geteuid() == 0 {
		return "/var/cache/sbir-kernel-ci"
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "sbir-kernel-ci")
}

// venvDir is the PyPI virtualenv: $SBIR_E2E_VENV, else the setup script's default.
func venvDir() string {
	if d := os.Getenv("SBIR_E2E_VENV"); d != "" {
		return d
	}
	return filepath.Join(ciCacheDir(), "venv")
}

// nodeModulesDir holds playwright-core and configurable-http-proxy.
func nodeModulesDir() string {
	if d := os.Getenv("SBIR_E2E_NODE_MODULES"); d != "" {
		return d
	}
	return filepath.Join(ciCacheDir(), "node", "node_modules")
}

// requirePyPI fails the test unless the virtualenv exists and imports
// every module; it returns the venv's python.
func requirePyPI(t *testing.T, modules ...string) string {
	t.Helper()
	py := filepath.Join(venvDir(), "bin", "python")
	missing := func(what string) {
		t.Helper()
		t.Fatalf("SBIR_E2E=1 makes this test mandatory, but %s (create it with: bash %s, or point SBIR_E2E_VENV at a virtualenv holding the PyPI Jupyter stack)", what, setupScript)
	}
	if _, err := os.Stat(py); err != nil {
		missing("the PyPI virtualenv " + venvDir() + " does not exist")
	}
	for _, mod := range modules {
		if out, err := exec.Command(py, "-c", "import "+mod).CombinedOutput(); err != nil {
			missing(fmt.Sprintf("%s cannot import %s: %s", py, mod, lastLines(string(out), 1)))
		}
	}
	return py
}

// requireNode returns node's path after checking that the npm packages are
// installed, and that Debian's chromium exists when browser is true.
func requireNode(t *testing.T, browser bool, packages ...string) string {
	t.Helper()
	fail := func(what string) {
		t.Helper()
		t.Fatalf("SBIR_E2E=1 makes this test mandatory, but %s (install with: bash %s)", what, setupScript)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		fail("node is not on PATH")
	}
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(nodeModulesDir(), p, "package.json")); err != nil {
			fail(fmt.Sprintf("the npm package %s is not in %s", p, nodeModulesDir()))
		}
	}
	if browser {
		if _, err := os.Stat(chromiumPath); err != nil {
			fail(chromiumPath + " does not exist (Debian package chromium)")
		}
	}
	return node
}

const chromiumPath = "/usr/bin/chromium"

// newVenvJupyterEnv is newJupyterEnv with the PyPI virtualenv active: its
// python runs the client scripts and its bin directory leads PATH, so
// `jupyter` is JupyterLab 4's and jupyter_client 8's.
func newVenvJupyterEnv(t *testing.T, modules ...string) *jupyterEnv {
	t.Helper()
	py := requirePyPI(t, modules...)
	j := newJupyterEnv(t)
	j.pythonExe = py
	bin := filepath.Dir(py)
	j.setenv("PATH", bin+string(os.PathListSeparator)+j.getenv("PATH"))
	j.setenv("VIRTUAL_ENV", filepath.Dir(bin))
	return j
}

// getenv returns a variable of the clients' environment.
func (j *jupyterEnv) getenv(name string) string {
	for i := len(j.env) - 1; i >= 0; i-- {
		if k, v, _ := strings.Cut(j.env[i], "="); k == name {
			return v
		}
	}
	return ""
}

// setenv sets a variable of the clients' environment, replacing any value.
func (j *jupyterEnv) setenv(name, value string) {
	env := j.env[:0]
	for _, kv := range j.env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			env = append(env, kv)
		}
	}
	j.env = append(env, name+"="+value)
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// server is a long-running client process (JupyterLab, a gateway, a hub)
// whose output is kept for failure messages.
type server struct {
	name string
	cmd  *exec.Cmd
	mu   sync.Mutex
	log  strings.Builder
	done chan struct{}
}

// startServer starts cmd in its own process group; t.Cleanup stops it
// (SIGTERM, then SIGKILL to the group after 10 s).
func startServer(t *testing.T, name string, cmd *exec.Cmd) *server {
	t.Helper()
	s := &server{name: name, cmd: cmd, done: make(chan struct{})}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			s.mu.Lock()
			s.log.WriteString(sc.Text())
			s.log.WriteByte('\n')
			s.mu.Unlock()
		}
	}()
	go func() {
		cmd.Wait()
		pw.Close()
		close(s.done)
	}()
	t.Cleanup(func() { s.stop(10 * time.Second) })
	return s
}

// stop sends SIGTERM to the server and waits for it, then kills its
// process group. It reports whether the server exited within grace
// (scaled by SBIR_TEST_SLOW).
func (s *server) stop(grace time.Duration) bool {
	grace = testenv.Scale(grace)
	select {
	case <-s.done:
		return true
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		return true
	case <-time.After(grace):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
		return false
	}
}

// output is everything the server printed so far.
func (s *server) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// waitHTTP polls url until it answers with a status below 500, the server
// exits, or the timeout passes.
func (s *server) waitHTTP(t *testing.T, url string, timeout time.Duration) {
	t.Helper()
	s.waitStatus(t, url, timeout, func(code int) bool { return code < 500 })
}

// waitOK is waitHTTP for a 200 answer (a proxy in front of a server that is
// still starting answers 404 or 503 first).
func (s *server) waitOK(t *testing.T, url string, timeout time.Duration) {
	t.Helper()
	s.waitStatus(t, url, timeout, func(code int) bool { return code == http.StatusOK })
}

// startLimit is how long a server gets to start answering: the test's
// own deadline, less a minute to report and clean up, or quiet when the
// test has none (scaled by SBIR_TEST_SLOW). A Python server's start is
// seconds on a quiet machine and over a minute under a load of 30 on two
// cores (the kernel gateway missed a fixed 60 s); a server that exits is
// reported at once, so waiting longer costs only a hung start's time.
func startLimit(t *testing.T, quiet time.Duration) time.Duration {
	d, ok := t.Deadline()
	if !ok {
		return testenv.Scale(quiet)
	}
	return max(time.Until(d)-time.Minute, testenv.Scale(quiet))
}

func (s *server) waitStatus(t *testing.T, url string, timeout time.Duration, ok func(int) bool) {
	t.Helper()
	timeout = startLimit(t, timeout)
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			t.Fatalf("%s exited before answering %s:\n%s", s.name, url, lastLines(s.output(), 40))
		default:
		}
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
			if ok(resp.StatusCode) {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s did not answer %s within %v:\n%s", s.name, url, timeout, lastLines(s.output(), 40))
}

// runJSONScript runs a client script from testdata/scripts with the
// environment's python and returns its last stdout line (a JSON report).
func (j *jupyterEnv) runJSONScript(t *testing.T, timeout time.Duration, script string, args ...string) (report string, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(timeout))
	defer cancel()
	stdout, stderr, err := j.python(ctx, script, args...)
	return lastLines(stdout, 1), stderr, err
}

// readFileIfExists is os.ReadFile that treats a missing file as nil, nil.
func readFileIfExists(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	return data, err
}
