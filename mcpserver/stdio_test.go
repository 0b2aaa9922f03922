package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestFilterLines(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":2,"method":`,
		``,
		`not json`,
		`{"jsonrpc":"1.0","id":3,"method":"ping"}`,
		`{"id":4}`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
		strings.Repeat("x", maxStdioLine+10),
		`{"jsonrpc":"2.0","id":6,"result":{}}`,
	}, "\n")
	var fwd, out bytes.Buffer
	if err := filterLines(strings.NewReader(in), &fwd, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(fwd.String(), "\n"); got != 3 || !strings.Contains(fwd.String(), `"id":6`) {
		t.Errorf("forwarded %d lines:\n%s", got, fwd.String())
	}
	var answers []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID    any
			Error struct {
				Code    int
				Message string
			}
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("answer is not JSON: %q", l)
		}
		answers = append(answers, strings.SplitN(m.Error.Message, ":", 2)[0]+" "+map[int]string{-32700: "parse", -32600: "invalid"}[m.Error.Code])
	}
	if got := strings.Join(answers, ", "); got != "line 2 parse, line 4 parse, line 5 invalid, line 6 invalid, line 8 parse" {
		t.Errorf("answers: %s", got)
	}
}

// FuzzFilterLines: whatever arrives, every forwarded line is valid JSON
// and every answer is a JSON-RPC error.
func FuzzFilterLines(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n{\n\"x\"")
	f.Add("[1,2]\n\"s\"\n{}\n")
	f.Fuzz(func(t *testing.T, in string) {
		var fwd, out bytes.Buffer
		filterLines(strings.NewReader(in), &fwd, &out)
		for _, l := range strings.Split(fwd.String(), "\n") {
			if strings.TrimSpace(l) != "" && !json.Valid([]byte(l)) {
				t.Fatalf("forwarded invalid JSON %q", l)
			}
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if l != "" && !strings.Contains(l, `"error"`) {
				t.Fatalf("answer %q", l)
			}
		}
	})
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
