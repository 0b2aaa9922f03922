package e2e

// End-to-end tests of `sbir-kernel mcp` with the official MCP SDK clients:
// TypeScript (@modelcontextprotocol/sdk, npm) and Python (mcp, PyPI), over
// stdio and streamable HTTP, plus raw protocol abuse. The clients come from
// .ci/setup.d/30-mcp.sh ($SBIR_MCP_NODE_MODULES, $SBIR_MCP_VENV).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// mcpServerFlags are the limits the client scenarios expect: a short time
// limit (2 s, scaled by SBIR_TEST_SLOW) that a cell sleeping an hour
// reaches while the quick calls of the scenario fit in it.
var mcpServerFlags = []string{"--cell-timeout", testenv.Scale(2 * time.Second).String(), "--kill-grace", testenv.Scale(time.Second).String(),
	"--max-output-bytes", "65536", "--max-sessions", "3", "--heap-limit", "512MiB"}

// mcpCacheDir is where 30-mcp.sh installs the clients by default.
func mcpCacheDir() string {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "sbir-kernel-ci", "mcp")
}

// mcpNodeClient returns node and a directory holding client.mjs next to the
// SDK's node_modules, or skips/fails when they are missing.
func mcpNodeClient(t *testing.T) (node, dir string) {
	t.Helper()
	node = requireCommand(t, "node", "nodejs npm")
	modules := os.Getenv("SBIR_MCP_NODE_MODULES")
	if modules == "" {
		modules = filepath.Join(mcpCacheDir(), "node", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(modules, "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		requireClient(t, "the TypeScript MCP SDK is not installed in "+modules+" (run: source .ci/setup.d/30-mcp.sh)", "nodejs npm")
	}
	dir = t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "mcp", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// ES modules resolve packages from the script's directory upwards.
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return node, dir
}

// mcpPythonClient returns the python of the virtualenv holding `mcp`.
func mcpPythonClient(t *testing.T) string {
	t.Helper()
	venv := os.Getenv("SBIR_MCP_VENV")
	if venv == "" {
		venv = filepath.Join(mcpCacheDir(), "venv")
	}
	py := filepath.Join(venv, "bin", "python")
	if err := exec.Command(py, "-c", "import mcp.client.streamable_http").Run(); err != nil {
		requireClient(t, "the Python MCP SDK is not installed in "+venv+" (run: source .ci/setup.d/30-mcp.sh)", "python3-venv")
	}
	return py
}

// mcpHTTPServer starts `sbir-kernel mcp --http 127.0.0.1:0` and returns
// its URL once it listens. It is stopped (SIGTERM) when the test ends.
func mcpHTTPServer(t *testing.T, j *jupyterEnv, args ...string) string {
	t.Helper()
	cmd := exec.Command(j.bin, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = j.env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(testenv.Scale(10 * time.Second)):
			cmd.Process.Kill()
			t.Errorf("the MCP HTTP server did not stop within %v of SIGINT", testenv.Scale(10*time.Second))
		}
	})
	urlRE := regexp.MustCompile(`on (http://\S+/mcp)`)
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var seen []string
	timeout := time.After(testenv.Scale(30 * time.Second))
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the MCP server exited before listening:\n%s", strings.Join(seen, "\n"))
			}
			seen = append(seen, l)
			if m := urlRE.FindStringSubmatch(l); m != nil {
				go func() {
					for l := range lines {
						t.Logf("server: %s", l)
					}
				}()
				return m[1]
			}
		case <-timeout:
			t.Fatalf("the MCP server did not listen within 30 s:\n%s", strings.Join(seen, "\n"))
		}
	}
}

// mcpRunClient runs one client scenario and fails with its output.
func mcpRunClient(t *testing.T, j *jupyterEnv, dir string, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(3*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = j.env
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok (") {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, lastLines(string(out), 40))
	}
	t.Logf("%s", strings.TrimSpace(lastLines(string(out), 1)))
}

// TestMCPClients runs the same scenario (list tools; define, reuse, fail,
// recover; frames; timeout; reset; two sessions in parallel; the session
// cap; an output flood; wrong arguments; unknown tool; data, docs and
// resources) with both official SDKs over both transports.
func TestMCPClients(t *testing.T) {
	j := newJupyterEnv(t)
	node, nodeDir := mcpNodeClient(t)
	py := mcpPythonClient(t)
	pyScript, err := filepath.Abs(filepath.Join("testdata", "mcp", "client.py"))
	if err != nil {
		t.Fatal(err)
	}
	const token = "e2e-token-3c5b"
	t.Run("typescript/stdio", func(t *testing.T) {
		mcpRunClient(t, j, nodeDir, node, append([]string{"client.mjs", "stdio", j.bin}, mcpServerFlags...)...)
	})
	t.Run("python/stdio", func(t *testing.T) {
		mcpRunClient(t, j, nodeDir, py, append([]string{pyScript, "stdio", j.bin}, mcpServerFlags...)...)
	})
	t.Run("typescript/http", func(t *testing.T) {
		url := mcpHTTPServer(t, j, append([]string{"--token", token}, mcpServerFlags...)...)
		mcpRunClient(t, j, nodeDir, node, "client.mjs", "http", url, token)
	})
	t.Run("python/http", func(t *testing.T) {
		url := mcpHTTPServer(t, j, append([]string{"--token", token}, mcpServerFlags...)...)
		mcpRunClient(t, j, nodeDir, py, pyScript, "http", url, token)
	})
}

// TestMCPHTTPAuth checks the bearer token: none, a wrong one, the right one.
func TestMCPHTTPAuth(t *testing.T) {
	j := newJupyterEnv(t)
	url := mcpHTTPServer(t, j, "--token", "right-token")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	for _, tc := range []struct {
		auth   string
		status int
	}{{"", 401}, {"Bearer wrong-token", 401}, {"Basic right-token", 401}, {"Bearer right-token", 200}} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("Authorization %q: status %d, want %d: %s", tc.auth, resp.StatusCode, tc.status, body)
		}
		if tc.status == 401 && (!strings.Contains(string(body), "bearer token") || resp.Header.Get("WWW-Authenticate") == "") {
			t.Errorf("Authorization %q: the refusal does not say what to send: %q", tc.auth, body)
		}
	}
}

// mcpStdio is a raw JSON-RPC connection to `sbir-kernel mcp` over stdio.
type mcpStdio struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	errb  *strings.Builder
	lines chan string
}

func mcpStartStdio(t *testing.T, j *jupyterEnv, args ...string) *mcpStdio {
	t.Helper()
	cmd := exec.Command(j.bin, append([]string{"mcp"}, args...)...)
	cmd.Env = j.env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &mcpStdio{t: t, cmd: cmd, in: in, errb: &strings.Builder{}, lines: make(chan string, 16)}
	cmd.Stderr = s.errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.out = bufio.NewScanner(out)
	s.out.Buffer(nil, 16<<20)
	go func() {
		for s.out.Scan() {
			s.lines <- s.out.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return s
}

func (s *mcpStdio) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// recv returns the next message with an id (notifications are skipped).
func (s *mcpStdio) recv() map[string]any {
	s.t.Helper()
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the server closed stdout; stderr:\n%s", s.errb)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				s.t.Fatalf("the server wrote a line that is not JSON: %q", l)
			}
			if _, ok := m["id"]; ok {
				return m
			}
		case <-time.After(testenv.Scale(30 * time.Second)):
			s.t.Fatalf("no answer within %v; stderr:\n%s", testenv.Scale(30*time.Second), s.errb)
		}
	}
}

func (s *mcpStdio) initialize() {
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := s.recv(); m["result"] == nil {
		s.t.Fatalf("initialize: %v", m)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestMCPMalformed sends what no SDK would: broken JSON, a wrong JSON-RPC
// version, an unknown method, tools/call with arguments of the wrong shape.
// Each gets a JSON-RPC error or a tool error, and the server keeps serving.
func TestMCPMalformed(t *testing.T) {
	j := newJupyterEnv(t)
	s := mcpStartStdio(t, j)
	s.initialize()
	for _, tc := range []struct {
		send string
		want string // in the error, or "isError" for a tool error
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"`, "-32700"},
		{`this is not json`, "-32700"},
		{`{"jsonrpc":"1.0","id":6,"method":"tools/list"}`, "-32600"},
		{`{"id":7}`, "-32600"},
		{`{"jsonrpc":"2.0","id":2,"method":"no/such/method"}`, "-32601"},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_go","arguments":"not an object"}}`, "isError"},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_go","arguments":{"code":["x"]}}}`, "isError"},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, "nope"},
	} {
		s.send(tc.send)
		m := s.recv()
		text, _ := json.Marshal(m)
		switch {
		case tc.want == "isError":
			if r, _ := m["result"].(map[string]any); r == nil || r["isError"] != true {
				t.Errorf("%s: %s, want a tool error", tc.send, text)
			}
		case m["error"] == nil || !strings.Contains(string(text), strings.TrimPrefix(tc.want, "error")):
			t.Errorf("%s: %s, want a JSON-RPC error mentioning %q", tc.send, text, tc.want)
		}
	}
	s.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"run_go","arguments":{"code":"6 * 7"}}}`)
	m := s.recv()
	if text, _ := json.Marshal(m); !strings.Contains(string(text), `"value":"42"`) {
		t.Fatalf("after the bad input the server does not work: %s", text)
	}
}

// TestMCPDisconnectMidCall: a client that goes away while its code runs
// (stdin closed, as when the client process dies) must not leave the
// server or any sandbox worker running.
func TestMCPDisconnectMidCall(t *testing.T) {
	j := newJupyterEnv(t)
	s := mcpStartStdio(t, j, "--cell-timeout", "5m")
	s.initialize()
	for i, session := range []string{"one", "two"} {
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_go","arguments":{"code":"1","session":%q}}}`, 10+i, session))
		s.recv()
	}
	base := j.cpuTicks()
	s.send(`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"run_go","arguments":{"code":"time.Sleep(time.Hour)","session":"one"}}}`)
	s.send(`{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"run_go","arguments":{"code":"for {}","session":"two"}}}`)
	j.waitSpinning(t, base) // the calls run
	if n := len(j.kernelProcesses()); n < 3 {
		t.Fatalf("%d processes of the binary, want the server and two workers: %v", n, j.kernelProcesses())
	}
	start := time.Now()
	s.in.Close()
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the server exited with %v after its client left; stderr:\n%s", err, s.errb)
		}
	case <-time.After(testenv.Scale(15 * time.Second)):
		t.Fatalf("the server still runs %v after its client left; stderr:\n%s", testenv.Scale(15*time.Second), s.errb)
	}
	deadline := time.Now().Add(testenv.Scale(10 * time.Second))
	for len(j.kernelProcesses()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("orphaned processes after the client left: %v", j.kernelProcesses())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("server and workers gone %v after the client closed stdin", time.Since(start).Round(time.Millisecond))
}
