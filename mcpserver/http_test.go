package mcpserver

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The HTTP transport bounds what a client can hold: connections, the time
// a request's body may take, and it refuses other origins.

// serveHTTP serves a new Server's HTTP handler, after change (if any) has
// adjusted the server; both close when the test ends.
func serveHTTP(t *testing.T, change func(*Server)) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(testOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if change != nil {
		change(s)
	}
	ts := httptest.NewServer(s.HTTPHandler())
	t.Cleanup(ts.Close)
	return s, ts
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func postInitialize(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(b)
}

// TestHTTPConnectionsCapped: every initialize over HTTP opens an MCP
// session (about 12 KiB in the server) that lives until it is deleted or
// idle for --idle-timeout (30 minutes). Without a cap, any client that can
// reach the port (on loopback: any local user, no token) grows the
// server's memory at will. Past the cap, a new connection is refused with
// a message that says why, and existing ones keep working.
func TestHTTPConnectionsCapped(t *testing.T) {
	s, ts := serveHTTP(t, nil)
	const limit = maxHTTPConnections
	refused := 0
	var last string
	for range limit + 50 {
		code, body := postInitialize(t, ts.Client(), ts.URL)
		switch code {
		case http.StatusOK:
		case http.StatusServiceUnavailable:
			refused++
			last = body
		default:
			t.Fatalf("initialize: status %d: %s", code, body)
		}
	}
	n := 0
	for range s.mcp.Sessions() {
		n++
	}
	if n > limit || refused != 50 {
		t.Fatalf("%d MCP sessions open after %d initializes (%d refused); want at most %d", n, limit+50, refused, limit)
	}
	if !strings.Contains(last, "too many MCP connections") {
		t.Errorf("refusal does not say why: %q", last)
	}
}

// TestHTTPSlowBodyCutOff: a client that sends a request's headers and
// then its body a byte at a time (or never) held a connection and a
// goroutine for ever: the server bounds only the time to read headers.
// Enough of them exhaust the process's file descriptors, which every new
// session's worker needs. The body must arrive within a deadline.
func TestHTTPSlowBodyCutOff(t *testing.T) {
	_, ts := serveHTTP(t, func(s *Server) { s.bodyTimeout = 300 * time.Millisecond })
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST / HTTP/1.1\r\nHost: " + ts.Listener.Addr().String() +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\""
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	wait := waitTime // the deadline and a wide margin
	conn.SetReadDeadline(time.Now().Add(wait))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		var ne net.Error
		if ok := asNetError(err, &ne); ok && ne.Timeout() {
			t.Fatalf("a request whose body never arrives still holds its connection after %s", wait)
		}
		t.Fatalf("no response to a request whose body never arrived: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), "body") {
		t.Errorf("status %d %q, want 408 saying the body did not arrive in time", resp.StatusCode, b)
	}
}

func asNetError(err error, target *net.Error) bool {
	ne, ok := err.(net.Error)
	if ok {
		*target = ne
	}
	return ok
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8765": true, "[::1]:80": true, "localhost:1": true, "127.1.2.3:9": true,
		"0.0.0.0:8765": false, ":8765": false, "10.0.0.5:80": false, "[::]:80": false, "example.com:80": false, "nonsense": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestHTTPCrossOrigin: a browser page on another origin cannot call the
// server; a client without browser headers can.
func TestHTTPCrossOrigin(t *testing.T) {
	_, ts := serveHTTP(t, nil)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		origin, site string
		want         int
	}{{"", "", 200}, {"https://evil.example", "cross-site", 403}} {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
			req.Header.Set("Sec-Fetch-Site", tc.site)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("origin %q: status %d, want %d", tc.origin, resp.StatusCode, tc.want)
		}
	}
}
