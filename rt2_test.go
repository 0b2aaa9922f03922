package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

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
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle keep-alive connection: read %v, want EOF (closed by the server)", err)
	}
}
