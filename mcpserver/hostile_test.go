package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

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

// TestStdioSurvivesBadIDsAndErrors: the stdio filter answers lines that
// are not JSON-RPC so that the SDK, which ends the connection (and the
// process, with every session) at a line it cannot decode, never sees
// them. Lines that are JSON-RPC in shape but not in types passed it: an
// id that is an object, an array or a boolean, or an "error" that is not
// an error object, ended the server; an id with a fraction or beyond 64
// bits was answered under another id. Each must get a JSON-RPC error
// naming the line, and the connection must carry on.
func TestStdioSurvivesBadIDsAndErrors(t *testing.T) {
	s, err := New(testOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatalf("server gone before %s: %v", line, err)
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %s: the server ended (%v)", line, <-done)
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer to %s is not JSON: %q", line, lines.Bytes())
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for i, bad := range []string{
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":99999999999999999999999,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"error":5}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":"x","message":"m"}}`,
		`[{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}]`,
	} {
		m := send(bad)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != float64(-32600) || !strings.Contains(fmt.Sprint(e["message"]), fmt.Sprintf("line %d:", 3+2*i)) {
			t.Errorf("%s: answer %v, want a -32600 error naming line %d", bad, m, 3+2*i)
		}
		if ping := send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`); ping["id"] != "p" || ping["result"] == nil {
			t.Fatalf("after %s, ping answered %v", bad, ping)
		}
	}
	inW.Close()
}

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
