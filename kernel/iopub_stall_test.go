package kernel

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// stallingSubscriber is an iopub subscriber whose reads the test starts
// when it likes: until then zmq4's SUB stops taking bytes once its queue
// is full, as a client that is not scheduled (a loaded machine) would.
type stallingSubscriber struct {
	c    *testClient
	sock zmq4.Socket
	msgs chan *Message
}

// subscribeStalling dials iopub and waits until the subscription has
// reached the kernel (a kernel_info's status arrives), then stops reading.
func subscribeStalling(t *testing.T, k *testKernel) *stallingSubscriber {
	t.Helper()
	c := k.client
	s := &stallingSubscriber{c: c, sock: zmq4.NewSub(c.ctx), msgs: make(chan *Message, 1<<16)}
	t.Cleanup(func() { s.sock.Close() })
	if err := s.sock.Dial(k.conn.endpoint(k.conn.IOPubPort)); err != nil {
		t.Fatal(err)
	}
	s.sock.SetOption(zmq4.OptionSubscribe, "")
	// One Recv, pending until the subscription has reached the kernel
	// and a status passes it; then nothing reads.
	got := make(chan bool, 1)
	go func() {
		msg, err := s.sock.Recv()
		got <- err == nil && len(msg.Frames) > 0
	}()
	deadline := time.Now().Add(waitTime)
	for time.Now().Before(deadline) {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		c.reply(c.shellC, id)
		c.untilIdle(id)
		select {
		case ok := <-got:
			if !ok {
				t.Fatal("the stalling subscriber's socket failed")
			}
			return s
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatal("the stalling subscriber never received a status")
	return nil
}

// resume starts reading: messages go to s.msgs.
func (s *stallingSubscriber) resume() { go s.c.read(s.sock, s.msgs) }

// stdoutUntilIdle returns the stdout text of cell id that s received, up
// to the cell's idle (at most waitTime after the last message).
func (s *stallingSubscriber) stdoutUntilIdle(t *testing.T, id string) string {
	t.Helper()
	var out strings.Builder
	for {
		select {
		case m := <-s.msgs:
			if m.ParentHeader == nil || m.ParentHeader.MsgID != id {
				continue
			}
			switch m.Header.MsgType {
			case "stream":
				out.WriteString(content(t, m)["text"].(string))
			case "status":
				if content(t, m)["execution_state"] == "idle" {
					return out.String()
				}
			}
		case <-time.After(waitTime):
			t.Fatalf("no idle for %s after %d bytes of stdout: the subscriber was disconnected", id, out.Len())
		}
	}
}

// TestStalledSubscriberDisconnectIsLogged: a subscriber that reads nothing
// for IOPubStallTimeout is disconnected, and the kernel logs it (it loses
// output: an operator wants to know), once per disconnect.
func TestStalledSubscriberDisconnectIsLogged(t *testing.T) {
	var logs lockedBuffer
	k := startKernel(t, Config{IOPubStallTimeout: 200 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	c := k.client
	subscribeStalling(t, k) // never resumed
	const msg = "disconnected an iopub subscriber that read nothing for the stall timeout"
	deadline := time.Now().Add(waitTime)
	for !strings.Contains(logs.String(), msg) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the log after a subscriber stalled:\n%s", msg, lastLogLines(logs.String(), 5))
		}
		id := c.execute("big 1000000", nil)
		c.reply(c.shellC, id)
		c.untilIdle(id)
	}
	k.cancel()
	if !k.wait(waitTime) {
		t.Fatal("Serve did not return")
	}
	out := logs.String()
	if n := strings.Count(out, msg); n != 1 {
		t.Errorf("one stalled subscriber logged %d times:\n%s", n, lastLogLines(out, 5))
	}
	if !strings.Contains(out, "stall_timeout=200ms") || !strings.Contains(out, "peer=127.0.0.1:") {
		t.Errorf("the disconnect's log line does not say which peer and which timeout:\n%s", lastLogLines(out, 5))
	}
}

// TestIOPubStallTimeoutIsConfigurable: with a generous IOPubStallTimeout,
// a subscriber that stops reading for longer than the default (a client
// the loaded machine did not schedule) stays connected and gets every
// byte once it reads again: no output is dropped while it may stall.
func TestIOPubStallTimeoutIsConfigurable(t *testing.T) {
	var logs lockedBuffer
	k := startKernel(t, Config{IOPubStallTimeout: testenv.Scale(time.Minute), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	c := k.client
	slow := subscribeStalling(t, k)
	// 40 MB of output in 200 messages: far more than the TCP buffers and
	// zmq4's queue (iopubHWM messages) hold, so the kernel's sender waits
	// on the stalled subscriber.
	const cells, size = 40, 1000000
	ids := make([]string, cells)
	for i := range ids {
		ids[i] = c.execute("big 1000000", nil)
	}
	// The stall under test: longer than the default stall timeout and
	// than sendTimeout (a send waiting that long for room in the socket's
	// queue was dropped).
	time.Sleep(max(DefaultIOPubStallTimeout, sendTimeout) + time.Second)
	slow.resume()
	for i, id := range ids {
		if got := slow.stdoutUntilIdle(t, id); len(got) != size {
			t.Fatalf("cell %d: the stalled subscriber got %d bytes of stdout, want %d", i, len(got), size)
		}
	}
	if strings.Contains(logs.String(), "disconnected an iopub subscriber") {
		t.Errorf("a subscriber was disconnected under a %v stall timeout:\n%s", testenv.Scale(time.Minute), lastLogLines(logs.String(), 5))
	}
}
