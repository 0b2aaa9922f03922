package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// TestMCPCommandUsage checks the flag combinations `mcp` refuses before it
// starts anything.
func TestMCPCommandUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--token", "x"}, "--token applies only with --http"},
		{[]string{"mcp", "--max-sessions", "0"}, "--max-sessions 0: give at least 1"},
		{[]string{"mcp", "extra"}, `unexpected argument "extra"`},
		{[]string{"mcp", "--max-memory", "lots"}, "invalid value"},
	} {
		_, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": t.TempDir()}, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// A memory cap below one session's heap budget cannot admit anyone.
	_, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": t.TempDir()}, "mcp", "--heap-limit", "512MiB", "--max-memory", "256MiB")
	if code != 2 || !strings.Contains(stderr, "below one session's heap budget") {
		t.Errorf("--max-memory below --heap-limit: status %d, stderr %q", code, stderr)
	}
}

func TestDefaultMaxMemory(t *testing.T) {
	if n := defaultMaxMemory(); n <= 0 || n%1024 != 0 {
		t.Fatalf("defaultMaxMemory() = %d, want 3/4 of MemTotal", n)
	}
}

func TestHTTPToken(t *testing.T) {
	for _, tc := range []struct {
		addr, given string
		generated   bool
	}{
		{"127.0.0.1:8765", "", false},
		{"localhost:8765", "", false},
		{"127.0.0.1:8765", "mine", false},
		{"0.0.0.0:8765", "mine", false},
		{"0.0.0.0:8765", "", true},
		{":8765", "", true},
		{"192.0.2.7:8765", "", true},
	} {
		tok, gen := httpToken(tc.addr, tc.given)
		switch {
		case gen != tc.generated:
			t.Errorf("%s %q: generated %v", tc.addr, tc.given, gen)
		case tc.given != "" && tok != tc.given:
			t.Errorf("%s: the given token was replaced", tc.addr)
		case gen && len(tok) < 40:
			t.Errorf("%s: generated token %q is too short", tc.addr, tok)
		case !gen && tc.given == "" && tok != "":
			t.Errorf("%s: loopback got a token", tc.addr)
		}
	}
	if a, _ := httpToken(":1", ""); a == func() string { b, _ := httpToken(":1", ""); return b }() {
		t.Error("two generated tokens are equal")
	}
}

// TestMCPHTTPKeepAliveExpires: a client that makes one request and keeps
// its connection open without another held it for ever (the server had a
// header timeout but no idle timeout), so enough of them exhausted the
// server's file descriptors. The server closes such a connection.
func TestMCPHTTPKeepAliveExpires(t *testing.T) {
	hs := newMCPHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	if hs.IdleTimeout <= 0 || hs.IdleTimeout > 5*time.Minute || hs.ReadHeaderTimeout <= 0 {
		t.Fatalf("idle timeout %s, header timeout %s: want both set, idle at most 5m", hs.IdleTimeout, hs.ReadHeaderTimeout)
	}
	// The same server, its idle timeout shortened, really closes an idle
	// keep-alive connection.
	hs.IdleTimeout = 200 * time.Millisecond
	ts := httptest.NewUnstartedServer(hs.Handler)
	ts.Config = hs
	ts.Start()
	defer ts.Close()
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "ok" {
		t.Fatalf("body %q", b)
	}
	c.SetReadDeadline(time.Now().Add(testenv.Scale(5 * time.Second)))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle keep-alive connection: read %v, want EOF (closed by the server)", err)
	}
}
