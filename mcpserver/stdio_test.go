package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// The stdio transport survives any line a client sends.

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
