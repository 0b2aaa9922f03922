package kernel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// Regression tests for the kernel's side of issue 13, each with the input
// the review used.

// TestTwentyThousandDisplaysStillIdle: 20,000 display.Markdown calls used
// to fill the iopub queue, which then dropped status: idle, and every
// client hung. Now output waits for the subscribers and status is never
// dropped.
func TestTwentyThousandDisplaysStillIdle(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	const n = 25_000
	id := c.execute(fmt.Sprintf("displays %d", n), nil)
	displays := 0
	timeout := time.After(6 * waitTime)
	for done := false; !done; {
		select {
		case m := <-c.iopubC:
			if m.ParentHeader == nil || m.ParentHeader.MsgID != id {
				continue
			}
			switch m.Header.MsgType {
			case "display_data":
				displays++
			case "status":
				done = content(t, m)["execution_state"] == "idle"
			}
		case <-timeout:
			t.Fatalf("no idle after %d displays", displays)
		}
	}
	if displays != n {
		t.Errorf("got %d display_data before idle, want %d", displays, n)
	}
	if rep := content(t, c.reply(c.shellC, id)); rep["status"] != "ok" {
		t.Errorf("reply %v", rep)
	}
}

// TestCapturedExecuteRequestNeverRunsAgain replays a captured signed
// execute_request after 16,385 newer messages (the guard used to remember
// 16,384 signatures).
func TestCapturedExecuteRequestNeverRunsAgain(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	captured := c.encode(c.message("execute_request", map[string]any{"code": "print secret", "silent": false}))
	c.sendFrames(c.shell, captured)
	stopDrain := make(chan struct{})
	drained := make(chan struct{})
	go func() { // keep iopub moving: busy/idle for every message
		defer close(drained)
		for {
			select {
			case <-c.iopubC:
			case <-stopDrain:
				return
			}
		}
	}()
	for range 16_385 {
		c.sendFrames(c.shell, c.encode(c.message("comm_msg", map[string]any{"comm_id": "x", "data": map[string]any{}})))
	}
	c.sendFrames(c.shell, captured)
	// The kernel handles shell messages in order: once this is answered,
	// the replay has been handled.
	c.reply(c.shellC, c.send(c.shell, "kernel_info_request", map[string]any{}))
	close(stopDrain)
	<-drained
	k.ev.mu.Lock()
	defer k.ev.mu.Unlock()
	if n := strings.Count(strings.Join(k.ev.executed, "\n"), "print secret"); n != 1 {
		t.Errorf("the captured cell ran %d times, want once", n)
	}
}

// TestRefusedCellsLeaveNoHistory sends twenty 10 MiB cells: each is refused
// before the evaluator sees it, none is kept, and history_request stays
// small.
func TestRefusedCellsLeaveNoHistory(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	big := "print " + strings.Repeat("x", 10<<20)
	for i := range 20 {
		id := c.execute(big, nil)
		rep := content(t, c.reply(c.shellC, id))
		if rep["status"] != "error" || rep["ename"] != ErrorCodeTooLarge {
			t.Fatalf("cell %d: reply %v %v", i, rep["status"], rep["ename"])
		}
		for _, m := range c.untilIdle(id) {
			if m.Header.MsgType == "execute_input" && len(m.Content) > 2*DefaultMaxCodeBytes {
				t.Fatalf("execute_input echoed %d bytes of a refused cell", len(m.Content))
			}
		}
	}
	c.reply(c.shellC, c.execute("print small", nil))
	rep, _ := c.roundTrip(c.shell, c.shellC, "history_request", map[string]any{"hist_access_type": "tail", "n": 1000, "output": true, "raw": true})
	if len(rep.Content) > 1<<10 {
		t.Errorf("history_reply is %d bytes after refused cells", len(rep.Content))
	}
	var h struct {
		History [][]any `json:"history"`
	}
	json.Unmarshal(rep.Content, &h)
	if len(h.History) != 1 {
		t.Errorf("history holds %d cells, want only the accepted one: %.200s", len(h.History), rep.Content)
	}
	k.ev.mu.Lock()
	defer k.ev.mu.Unlock()
	for _, code := range k.ev.executed {
		if len(code) > DefaultMaxCodeBytes {
			t.Fatalf("the evaluator saw a cell of %d bytes", len(code))
		}
	}
}

// TestUserExpressionsShareOneDeadline: several expressions that never end
// (the review's `for {}`) used to run their full timeout each. Once the
// first has used up the shared deadline, the others must fail without
// running: the evaluator sees the cell and one expression.
func TestUserExpressionsShareOneDeadline(t *testing.T) {
	ev := &scriptEvaluator{}
	k := startKernel(t, Config{Evaluator: ev, UserExpressionsTimeout: 300 * time.Millisecond})
	c := k.client
	exprs := map[string]any{"a": "block", "b": "block", "c": "block", "d": "value 1"}
	id := c.execute("value 0", map[string]any{"user_expressions": exprs})
	rep := content(t, c.reply(c.shellC, id))
	ev.mu.Lock()
	executed := slices.Clone(ev.executed)
	ev.mu.Unlock()
	if want := []string{"value 0", "block"}; !slices.Equal(executed, want) {
		t.Errorf("the evaluator ran %q, want %q: the expressions after the first did not share its deadline", executed, want)
	}
	ue := rep["user_expressions"].(map[string]any)
	for _, name := range []string{"a", "b", "c", "d"} {
		if e := ue[name].(map[string]any); e["status"] != "error" || e["ename"] != ErrorTimeout {
			t.Errorf("%s = %v, want a Timeout", name, e)
		}
	}
}

// TestOneInterruptStopsAllUserExpressions: an interrupt used to stop only
// the expression running.
func TestOneInterruptStopsAllUserExpressions(t *testing.T) {
	started := make(chan string, 8)
	k := startKernel(t, Config{Evaluator: &scriptEvaluator{started: started}, UserExpressionsTimeout: time.Minute})
	c := k.client
	id := c.execute("value 0", map[string]any{"user_expressions": map[string]any{"a": "block", "b": "block", "c": "block"}})
	<-started // the cell
	<-started // the first expression
	c.reply(c.controlC, c.send(c.control, "interrupt_request", map[string]any{}))
	// Each "block" waits an hour unless interrupted: the reply comes
	// only if the one interrupt ended them all.
	rep := content(t, c.reply(c.shellC, id))
	ue := rep["user_expressions"].(map[string]any)
	for _, name := range []string{"a", "b", "c"} {
		if e := ue[name].(map[string]any); e["ename"] != ErrorInterrupted {
			t.Errorf("%s = %v, want Interrupted", name, e)
		}
	}
	if len(started) != 0 {
		t.Errorf("%d more expressions started after the interrupt", len(started))
	}
}

// TestRequestsUnderTheCodeCap: is_complete, complete and inspect reach the
// evaluator's cell preparation, so code over the cap is refused before it.
func TestRequestsUnderTheCodeCap(t *testing.T) {
	ev := &scriptEvaluator{}
	k := startKernel(t, Config{Evaluator: ev})
	c := k.client
	// The review's input (100,007 bytes) is within the default cap and
	// reaches the evaluator; twice as much does not.
	within := "x := 0\n" + strings.Repeat("x\n", 50000)
	over := "x := 0\n" + strings.Repeat("x\n", 100000)
	rep, _ := c.roundTrip(c.shell, c.shellC, "is_complete_request", map[string]any{"code": within})
	if content(t, rep)["status"] != "complete" || ev.requests.Load() != 1 {
		t.Fatalf("is_complete within the cap: %v, evaluator calls %d", content(t, rep), ev.requests.Load())
	}
	for _, tt := range []struct {
		msgType string
		body    map[string]any
		want    map[string]any
	}{
		{"is_complete_request", map[string]any{"code": over}, map[string]any{"status": "invalid"}},
		{"complete_request", map[string]any{"code": over, "cursor_pos": 3}, map[string]any{"status": "error", "ename": ErrorCodeTooLarge}},
		{"inspect_request", map[string]any{"code": over, "cursor_pos": 3, "detail_level": 0}, map[string]any{"status": "error", "ename": ErrorCodeTooLarge}},
	} {
		rep, io := c.roundTrip(c.shell, c.shellC, tt.msgType, tt.body)
		got := content(t, rep)
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v (%v)", tt.msgType, k, got[k], v, got["evalue"])
			}
		}
		if len(io) != 2 {
			t.Errorf("%s: iopub %v", tt.msgType, types(io))
		}
	}
	if n := ev.requests.Load(); n != 1 {
		t.Errorf("the evaluator was called %d times for over-cap code", n-1)
	}
}

// TestLateSubscriberGetsLastStatus: an iopub subscriber that the kernel
// disconnected for stalling (Config.IOPubStallTimeout) misses what was sent
// until it reconnects. Measured with bench/flood.py, a client that paused
// 5 s during a flood of displays never got its idle and hung. A
// subscriber that connects after the cell ended must get its idle.
func TestLateSubscriberGetsLastStatus(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.execute("displays 100", nil)
	if rep := content(t, c.reply(c.shellC, id)); rep["status"] != "ok" {
		t.Fatalf("reply %v", rep)
	}
	for idle := false; !idle; { // the connected client's idle
		select {
		case m := <-c.iopubC:
			idle = m.Header.MsgType == "status" && m.ParentHeader != nil && m.ParentHeader.MsgID == id &&
				content(t, m)["execution_state"] == "idle"
		case <-time.After(waitTime):
			t.Fatal("no idle on the connected client")
		}
	}

	late := zmq4.NewSub(c.ctx)
	defer late.Close()
	if err := late.Dial(k.conn.endpoint(k.conn.IOPubPort)); err != nil {
		t.Fatal(err)
	}
	if err := late.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	got := make(chan zmq4.Msg, 1)
	go func() {
		m, err := late.Recv()
		if err == nil {
			got <- m
		}
	}()
	select {
	case m := <-got:
		f := m.Frames
		if len(f) < 7 || string(f[0]) != "status" || !strings.Contains(string(f[4]), id) || !strings.Contains(string(f[6]), `"idle"`) {
			t.Fatalf("a late subscriber's first message is %q, want the cell's idle status", f)
		}
	case <-time.After(waitTime):
		t.Fatal("a subscriber that connected after the cell ended got nothing: it would wait for idle forever")
	}
}
