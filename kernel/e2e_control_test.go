package kernel

import (
	"encoding/hex"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

func TestInterruptRunningCell(t *testing.T) {
	started := make(chan string, 8)
	ev := &scriptEvaluator{started: started}
	sigs := make(chan os.Signal, 1)
	k := startKernel(t, Config{Evaluator: ev, Signals: sigs})
	c := k.client
	for _, how := range []string{"interrupt_request", "SIGINT"} {
		t.Run(how, func(t *testing.T) {
			id := c.execute("block", nil)
			<-started
			// Control answers while the cell runs.
			info, io := c.roundTrip(c.control, c.controlC, "kernel_info_request", map[string]any{})
			if info.Header.MsgType != "kernel_info_reply" || !slices.Equal(types(io), []string{"status:busy", "status:idle"}) {
				t.Errorf("control while running: %s %v", info.Header.MsgType, types(io))
			}
			if how == "SIGINT" {
				sigs <- os.Interrupt
			} else {
				intID := c.send(c.control, "interrupt_request", map[string]any{})
				rep := c.reply(c.controlC, intID)
				if rep.Header.MsgType != "interrupt_reply" || content(t, rep)["status"] != "ok" {
					t.Errorf("interrupt reply = %s %v", rep.Header.MsgType, content(t, rep))
				}
				io := c.untilIdles(id, intID)
				if !slices.Equal(types(io[intID]), []string{"status:busy", "status:idle"}) {
					t.Errorf("interrupt iopub = %v", types(io[intID]))
				}
			}
			rc := content(t, c.reply(c.shellC, id))
			if rc["status"] != "error" || rc["ename"] != "Interrupted" {
				t.Errorf("interrupted cell reply = %v", rc)
			}
			if how == "SIGINT" {
				c.untilIdle(id)
			}
		})
	}
}

// TestInterruptReplyAfterCellError pins the order jupyter console relies on:
// the interrupted cell's error is on iopub before the interrupt's idle, even
// when the evaluator takes a while to stop the cell.
func TestInterruptReplyAfterCellError(t *testing.T) {
	started := make(chan string, 1)
	k := startKernel(t, Config{Evaluator: &scriptEvaluator{started: started}})
	c := k.client
	execID := c.execute("slowstop", nil)
	<-started
	intID := c.send(c.control, "interrupt_request", map[string]any{})
	var seen []string
	timeout := time.After(waitTime)
	for {
		select {
		case m := <-c.iopubC:
			if m.ParentHeader == nil {
				continue
			}
			switch m.ParentHeader.MsgID {
			case execID:
				seen = append(seen, "cell:"+m.Header.MsgType)
			case intID:
				if m.Header.MsgType == "status" && content(t, m)["execution_state"] == "idle" {
					if !slices.Contains(seen, "cell:error") {
						t.Fatalf("interrupt idle came before the cell's error; cell messages so far: %v", seen)
					}
					c.reply(c.controlC, intID)
					return
				}
			}
		case <-timeout:
			t.Fatalf("no idle for the interrupt; cell messages: %v", seen)
		}
	}
}

func TestShutdown(t *testing.T) {
	tests := []struct {
		name    string
		restart bool
		shell   bool // deprecated shell form
		signal  bool // SIGTERM instead of a request
		running bool // a cell is running when the request arrives
	}{
		{name: "shutdown", restart: false},
		{name: "restart", restart: true},
		{name: "shell form", restart: true, shell: true},
		{name: "while running", running: true},
		{name: "SIGTERM", signal: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan string, 1)
			ev := &scriptEvaluator{started: started}
			sigs := make(chan os.Signal, 1)
			k := startKernel(t, Config{Evaluator: ev, Signals: sigs})
			c := k.client
			var runID string
			if tt.running {
				runID = c.execute("block", nil)
				<-started
			}
			begin := time.Now()
			switch {
			case tt.signal:
				sigs <- syscall.SIGTERM
			default:
				s, ch := c.control, c.controlC
				if tt.shell {
					s, ch = c.shell, c.shellC
				}
				id := c.send(s, "shutdown_request", map[string]any{"restart": tt.restart})
				rep := c.reply(ch, id)
				if rc := content(t, rep); rep.Header.MsgType != "shutdown_reply" || rc["restart"] != tt.restart || rc["status"] != "ok" {
					t.Errorf("reply = %s %v", rep.Header.MsgType, rc)
				}
				io := c.untilIdle(id)
				if got := types(io); !slices.Equal(got, []string{"status:busy", "shutdown_reply", "status:idle"}) {
					t.Errorf("iopub = %v", got)
				}
			}
			if !k.wait(waitTime) {
				t.Fatalf("Serve did not return within %v", waitTime)
			}
			t.Logf("Serve returned %v after the request", time.Since(begin))
			want := Shutdown{Restart: tt.restart, Reason: "shutdown_request"}
			if tt.signal {
				want = Shutdown{Reason: "SIGTERM"}
			}
			if k.result != want || k.err != nil {
				t.Errorf("Serve = %+v, %v; want %+v", k.result, k.err, want)
			}
			if !ev.closed.Load() {
				t.Error("evaluator not closed")
			}
			if tt.running {
				if rc := content(t, c.reply(c.shellC, runID)); rc["ename"] != "Interrupted" {
					t.Errorf("running cell reply = %v", rc)
				}
			}
		})
	}
}

func TestBadMessagesAreDroppedAndKernelKeepsServing(t *testing.T) {
	k := startKernel(t, Config{MaxFrameBytes: 4096})
	c := k.client
	good := func() [][]byte { return c.encode(c.message("kernel_info_request", map[string]any{})) }
	tests := []struct {
		name   string
		frames func() [][]byte
	}{
		// The first hex digit changed (overwriting it with a fixed "00"
		// left the signature valid once in 256 runs, and every later
		// subtest then read the previous one's reply).
		{"bad signature", func() [][]byte {
			f := good()
			sig := []byte(string(f[1]))
			if sig[0] == '0' {
				sig[0] = '1'
			} else {
				sig[0] = '0'
			}
			f[1] = sig
			return f
		}},
		{"signature not hex", func() [][]byte { f := good(); f[1] = []byte("zz"); return f }},
		{"unsigned", func() [][]byte { f := good(); f[1] = nil; return f }},
		{"no delimiter", func() [][]byte { return good()[1:] }},
		{"too few frames", func() [][]byte { return good()[:4] }},
		{"header not JSON", func() [][]byte {
			m := c.message("kernel_info_request", map[string]any{})
			f := Codec{}.mustEncode(t, m)
			f[2] = []byte("{not json")
			f[1] = []byte(hexSign(f))
			return f
		}},
		{"content not an object", func() [][]byte {
			m := c.message("kernel_info_request", map[string]any{})
			m.Content = []byte(`[1,2]`)
			return c.encode(m)
		}},
		{"oversized frame", func() [][]byte {
			return c.encode(c.message("execute_request", map[string]any{"code": string(make([]byte, 5000))}))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.sendFrames(c.shell, tt.frames())
			// The next good request is answered, and nothing else was.
			m := c.message("kernel_info_request", map[string]any{})
			c.sendFrames(c.shell, c.encode(m))
			select {
			case rep := <-c.shellC:
				if rep.ParentHeader == nil || rep.ParentHeader.MsgID != m.Header.MsgID {
					t.Errorf("got a reply to the bad message: %s %v", rep.Header.MsgType, content(t, rep))
				}
			case <-time.After(waitTime):
				t.Fatal("kernel stopped answering")
			}
		})
	}
	t.Run("replayed", func(t *testing.T) {
		f := good()
		c.sendFrames(c.shell, f)
		c.sendFrames(c.shell, f)
		m := c.message("kernel_info_request", map[string]any{})
		c.sendFrames(c.shell, c.encode(m))
		n := 0
		for {
			rep := <-c.shellC
			n++
			if rep.ParentHeader.MsgID == m.Header.MsgID {
				break
			}
		}
		if n != 2 {
			t.Errorf("got %d replies, want 2 (the replay must be dropped)", n)
		}
	})
}

// mustEncode encodes m or fails the test.
func (c Codec) mustEncode(t testing.TB, m *Message) [][]byte {
	f, err := c.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// hexSign signs frames (delimiter at 0) with testKey.
func hexSign(f [][]byte) string {
	return hex.EncodeToString(Codec{Key: []byte(testKey)}.sign(f[2], f[3], f[4], f[5]))
}

func TestUnknownMessageType(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.send(c.shell, "frobnicate_request", map[string]any{})
	if got := types(c.untilIdle(id)); !slices.Equal(got, []string{"status:busy", "status:idle"}) {
		t.Errorf("iopub = %v", got)
	}
	rep, _ := c.roundTrip(c.shell, c.shellC, "kernel_info_request", map[string]any{})
	if rep.Header.MsgType != "kernel_info_reply" {
		t.Errorf("next reply = %s (an unknown type must get no reply)", rep.Header.MsgType)
	}
}

func TestWrongChannel(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	rep, io := c.roundTrip(c.control, c.controlC, "execute_request", map[string]any{"code": "value 1"})
	if rc := content(t, rep); rep.Header.MsgType != "execute_reply" || rc["status"] != "error" {
		t.Errorf("execute on control = %s %v", rep.Header.MsgType, rc)
	}
	if !slices.Equal(types(io), []string{"status:busy", "status:idle"}) {
		t.Errorf("iopub = %v", types(io))
	}
}

func TestRepliesGoToTheirSender(t *testing.T) {
	k := startKernel(t, Config{})
	a, b := k.client, k.connect()
	defer b.close()
	ida := a.execute("value a", nil)
	idb := b.execute("value b", nil)
	if rep := a.reply(a.shellC, ida); content(t, rep)["status"] != "ok" {
		t.Error("a's reply")
	}
	if rep := b.reply(b.shellC, idb); content(t, rep)["status"] != "ok" {
		t.Error("b's reply")
	}
	// The kernel answers shell requests in order, and each connection
	// delivers in order: a stray reply would arrive before the answer to
	// a later request of the same client.
	for _, c := range []*testClient{a, b} {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		select {
		case m := <-c.shellC:
			if m.ParentHeader == nil || m.ParentHeader.MsgID != id {
				t.Errorf("a client received a stray %s before its own reply", m.Header.MsgType)
			}
		case <-time.After(waitTime):
			t.Fatal("no kernel_info_reply")
		}
	}
}

func TestHeartbeatEchoes(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	for _, ping := range []string{"ping", "\x00binary\xff"} {
		if err := c.hb.Send(zmq4.NewMsgString(ping)); err != nil {
			t.Fatal(err)
		}
		got, err := c.hb.Recv()
		if err != nil || string(got.Bytes()) != ping {
			t.Errorf("heartbeat echoed %q, %v; want %q", got.Bytes(), err, ping)
		}
	}
}

// hangingCloser is an evaluator whose Close hangs until released, like a
// worker that will not die.
type hangingCloser struct {
	*scriptEvaluator
	release chan struct{}
}

func (h hangingCloser) Close() error { <-h.release; return nil }

// TestShutdownDoesNotWaitForAHangingClose: the kernel gives the
// evaluator's Close 500 ms (Config.CloseTimeout); Close here does not
// return until the test ends, so Serve returning at all shows it did not
// wait for Close, however slow the machine.
func TestShutdownDoesNotWaitForAHangingClose(t *testing.T) {
	release := make(chan struct{})
	k := startKernel(t, Config{Evaluator: hangingCloser{&scriptEvaluator{}, release}})
	t.Cleanup(func() { close(release) })
	c := k.client
	begin := time.Now()
	c.reply(c.controlC, c.send(c.control, "shutdown_request", map[string]any{"restart": false}))
	if !k.wait(waitTime) {
		t.Fatalf("Serve still running %v after shutdown_request: it waits for a Close that hangs", time.Since(begin))
	}
}
