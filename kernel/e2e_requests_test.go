package kernel

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

func TestCompleteInspectIsComplete(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	tests := []struct {
		name    string
		msgType string
		body    map[string]any
		want    map[string]any
	}{
		{"complete", "complete_request", map[string]any{"code": "fmt.Pr", "cursor_pos": 6},
			map[string]any{"status": "ok", "matches": []any{"Println", "Printf"}, "cursor_start": 4.0, "cursor_end": 6.0, "metadata": map[string]any{}}},
		// Cursor positions count code points: "é" is one.
		{"complete code points", "complete_request", map[string]any{"code": "é.Pr"},
			map[string]any{"status": "ok", "matches": []any{"Println", "Printf"}, "cursor_start": 2.0, "cursor_end": 4.0, "metadata": map[string]any{}}},
		{"complete nothing", "complete_request", map[string]any{"code": "none", "cursor_pos": 99},
			map[string]any{"status": "ok", "matches": []any{}, "cursor_start": 4.0, "cursor_end": 4.0, "metadata": map[string]any{}}},
		{"complete error", "complete_request", map[string]any{"code": "err", "cursor_pos": 3},
			map[string]any{"status": "error", "ename": "KernelError", "evalue": "complete: completion failed", "traceback": []any{}}},
		{"inspect found", "inspect_request", map[string]any{"code": "fmt.Println", "cursor_pos": 5, "detail_level": 1},
			map[string]any{"status": "ok", "found": true, "data": map[string]any{"text/plain": "func Println (cursor 5, detail 1)"}, "metadata": map[string]any{}}},
		{"inspect not found", "inspect_request", map[string]any{"code": "x", "cursor_pos": 1},
			map[string]any{"status": "ok", "found": false, "data": map[string]any{}, "metadata": map[string]any{}}},
		{"is_complete complete", "is_complete_request", map[string]any{"code": "x := 1"}, map[string]any{"status": "complete"}},
		{"is_complete incomplete", "is_complete_request", map[string]any{"code": "if x {"}, map[string]any{"status": "incomplete", "indent": "\t"}},
		{"is_complete invalid", "is_complete_request", map[string]any{"code": "f())"}, map[string]any{"status": "invalid"}},
		{"is_complete bad status", "is_complete_request", map[string]any{"code": "weird"}, map[string]any{"status": "unknown"}},
		{"comm_info", "comm_info_request", map[string]any{}, map[string]any{"status": "ok", "comms": map[string]any{}}},
		{"bad content", "complete_request", map[string]any{"code": 5},
			map[string]any{"status": "error", "ename": "KernelError", "traceback": []any{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, io := c.roundTrip(c.shell, c.shellC, tt.msgType, tt.body)
			if want := strings.Replace(tt.msgType, "_request", "_reply", 1); rep.Header.MsgType != want {
				t.Errorf("reply type %s, want %s", rep.Header.MsgType, want)
			}
			got := content(t, rep)
			if tt.name == "bad content" {
				delete(got, "evalue")
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("content = %v\nwant      %v", got, tt.want)
			}
			if !slices.Equal(types(io), []string{"status:busy", "status:idle"}) {
				t.Errorf("iopub = %v", types(io))
			}
		})
	}
}

func TestCommOpenIsClosed(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.send(c.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget", "data": map[string]any{}})
	io := c.untilIdle(id)
	if got := types(io); !slices.Equal(got, []string{"status:busy", "comm_close", "status:idle"}) {
		t.Fatalf("iopub = %v", got)
	}
	if cc := content(t, io[1]); cc["comm_id"] != "c1" {
		t.Errorf("comm_close = %v", cc)
	}
	id = c.send(c.shell, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{}})
	if got := types(c.untilIdle(id)); !slices.Equal(got, []string{"status:busy", "status:idle"}) {
		t.Errorf("comm_msg iopub = %v", got)
	}
}

func TestHistoryOverSockets(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	for _, code := range []string{"value 1", "print a", "value 1", "value 2"} {
		id := c.execute(code, nil)
		c.reply(c.shellC, id)
	}
	id := c.execute("value skipped", map[string]any{"store_history": false})
	c.reply(c.shellC, id)
	tests := []struct {
		name string
		body map[string]any
		want string
	}{
		{"tail", map[string]any{"hist_access_type": "tail", "n": 2, "output": false, "raw": true},
			`[[1,3,"value 1"],[1,4,"value 2"]]`},
		{"tail output", map[string]any{"hist_access_type": "tail", "n": 3, "output": true, "raw": true},
			`[[1,2,["print a",null]],[1,3,["value 1","1"]],[1,4,["value 2","2"]]]`},
		{"range", map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4, "raw": true},
			`[[1,2,"print a"],[1,3,"value 1"]]`},
		{"search", map[string]any{"hist_access_type": "search", "pattern": "value*", "raw": true},
			`[[1,1,"value 1"],[1,3,"value 1"],[1,4,"value 2"]]`},
		{"search unique", map[string]any{"hist_access_type": "search", "pattern": "val?e [0-9]", "unique": true, "raw": true},
			`[[1,3,"value 1"],[1,4,"value 2"]]`},
		{"search n", map[string]any{"hist_access_type": "search", "pattern": "*", "n": 1, "raw": true},
			`[[1,4,"value 2"]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, _ := c.roundTrip(c.shell, c.shellC, "history_request", tt.body)
			var got struct {
				Status  string          `json:"status"`
				History json.RawMessage `json:"history"`
			}
			json.Unmarshal(rep.Content, &got)
			if got.Status != "ok" || string(got.History) != tt.want {
				t.Errorf("history = %s %s\nwant %s", got.Status, got.History, tt.want)
			}
		})
	}
}

func TestStdin(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	t.Run("allowed", func(t *testing.T) {
		id := c.execute("input name?", map[string]any{"allow_stdin": true})
		var req *Message
		select {
		case req = <-c.stdinC:
		case <-time.After(waitTime):
			t.Fatal("no input_request")
		}
		if req.Header.MsgType != "input_request" || req.ParentHeader.MsgID != id {
			t.Fatalf("got %s with parent %v", req.Header.MsgType, req.ParentHeader)
		}
		if rc := content(t, req); rc["prompt"] != "name?" || rc["password"] != false {
			t.Errorf("input_request = %v", rc)
		}
		rep := c.message("input_reply", map[string]any{"value": "gopher"})
		rep.ParentHeader = &req.Header
		c.sendFrames(c.stdin, c.encode(rep))
		c.reply(c.shellC, id)
		var out string
		for _, m := range c.untilIdle(id) {
			if m.Header.MsgType == "stream" {
				out += content(t, m)["text"].(string)
			}
		}
		if out != "got gopher\n" {
			t.Errorf("stdout = %q", out)
		}
	})
	t.Run("not allowed", func(t *testing.T) {
		id := c.execute("input name?", map[string]any{"allow_stdin": false})
		rc := content(t, c.reply(c.shellC, id))
		if rc["ename"] != "InputError" || rc["evalue"] != ErrStdinNotAllowed.Error() {
			t.Errorf("reply = %v", rc)
		}
	})
}

func TestUserExpressions(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.execute("value 1", map[string]any{"user_expressions": map[string]any{"a": "value 7", "b": "fail E bad", "c": "print x"}})
	rc := content(t, c.reply(c.shellC, id))
	want := map[string]any{
		"a": map[string]any{"status": "ok", "data": map[string]any{"text/plain": "7"}, "metadata": map[string]any{}},
		"b": map[string]any{"status": "error", "ename": "E", "evalue": "bad", "traceback": []any{}},
		"c": map[string]any{"status": "ok", "data": map[string]any{"text/plain": ""}, "metadata": map[string]any{}},
	}
	if !reflect.DeepEqual(rc["user_expressions"], any(want)) {
		t.Errorf("user_expressions = %v", rc["user_expressions"])
	}
}

func TestStreamsAreBatched(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.execute("write 1000 ab\neprint e\nprint o\nbig 200000", nil)
	c.reply(c.shellC, id)
	var stdout, stderr strings.Builder
	n := 0
	for _, m := range c.untilIdle(id) {
		if m.Header.MsgType != "stream" {
			continue
		}
		n++
		mc := content(t, m)
		if mc["name"] == "stderr" {
			stderr.WriteString(mc["text"].(string))
		} else {
			stdout.WriteString(mc["text"].(string))
		}
	}
	wantOut := strings.Repeat("ab", 1000) + "o\n" + strings.Repeat("x", 200000)
	if stdout.String() != wantOut || stderr.String() != "e\n" {
		t.Errorf("stdout %d bytes, stderr %q; want %d bytes, %q", stdout.Len(), stderr.String(), len(wantOut), "e\n")
	}
	// 1000 writes, then a change of stream twice, then one big write.
	if n > 6 {
		t.Errorf("%d stream messages for 1003 writes; want them batched", n)
	}
}

// TestStreamBuffersReusedIntact: the content buffers of large stream
// messages are reused once zmq4 has written them (contentPool); every
// message must still arrive as it was sent. A buffer reused too early would
// mix the letters of two chunks.
func TestStreamBuffersReusedIntact(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	const n, w = 120, 300 << 10 // each write more than one 256 KiB message
	id := c.execute(fmt.Sprintf("chunks %d %d", n, w), nil)
	c.reply(c.shellC, id)
	var got strings.Builder
	for _, m := range c.untilIdle(id) {
		if m.Header.MsgType == "stream" {
			got.WriteString(content(t, m)["text"].(string))
		}
	}
	var want strings.Builder
	for i := range n {
		want.WriteString(chunk(i, w))
	}
	if got.String() != want.String() {
		g, wnt := got.String(), want.String()
		at := 0
		for at < min(len(g), len(wnt)) && g[at] == wnt[at] {
			at++
		}
		t.Fatalf("stdout differs at byte %d of %d (got %d bytes): a content buffer was reused before it was written", at, len(wnt), len(g))
	}
}

func TestSlowIOPubSubscriberDoesNotBlockShell(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	// A subscriber that never reads: zmq4's PUB sender stalls on it once
	// the TCP buffers fill.
	slow := zmq4.NewSub(c.ctx)
	defer slow.Close()
	if err := slow.Dial(k.conn.endpoint(k.conn.IOPubPort)); err != nil {
		t.Fatal(err)
	}
	slow.SetOption(zmq4.OptionSubscribe, "")
	// Stop the test client's own iopub reader from draining too.
	c.iopub.Close()
	for i := range 40 {
		id := c.execute("big 1000000", nil)
		done := make(chan *Message, 1)
		go func() { done <- c.reply(c.shellC, id) }()
		select {
		case rep := <-done:
			if content(t, rep)["status"] != "ok" {
				t.Fatalf("cell %d failed", i)
			}
		case <-time.After(waitTime):
			t.Fatalf("shell blocked at cell %d behind a stalled iopub subscriber", i)
		}
	}
	rep, _ := c.send(c.control, "kernel_info_request", map[string]any{}), 0
	c.reply(c.controlC, rep)
}
