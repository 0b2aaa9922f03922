package kernel

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// blockedSocket never completes a send until released.
type blockedSocket struct {
	memSocket
	release chan struct{}
}

func (b *blockedSocket) Send(frames [][]byte) error {
	<-b.release
	return b.memSocket.Send(frames)
}

// TestStatusNeverDroppedOutputThrottled: on a stalled socket, status
// messages are queued without waiting and without limit, output waits once
// the queue holds publishQueueBytes, and everything is sent in order once
// the socket moves again.
func TestStatusNeverDroppedOutputThrottled(t *testing.T) {
	sock := &blockedSocket{memSocket: *newMemSocket(), release: make(chan struct{})}
	sock.out = make(chan [][]byte, 1<<16)
	p := newPublisher(sock, Codec{}, "s", testLogger(t))
	const statuses = 20000
	done := make(chan struct{})
	go func() {
		for range statuses {
			p.status("busy", nil)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitTime):
		t.Fatal("status waited on a stalled socket")
	}
	outputDone := make(chan struct{})
	big := strings.Repeat("x", 1<<20)
	go func() {
		for range 40 { // 40 MiB, over the 16 MiB queue
			p.publish("stream", nil, streamContent{Name: "stdout", Text: big})
		}
		close(outputDone)
	}()
	// The output must come to wait for room (nothing leaves the queue
	// while the socket is stalled), not finish.
	deadline := time.Now().Add(waitTime)
	for !goroutineWaitingIn("kernel.(*publisher).enqueueOutput") {
		select {
		case <-outputDone:
			t.Fatal("40 MiB of output queued on a stalled socket: the queue is unbounded")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the output neither waited for room nor finished within %v", waitTime)
		}
		time.Sleep(time.Millisecond)
	}
	p.mu.Lock()
	queued := p.qBytes
	p.mu.Unlock()
	if queued > publishQueueBytes+2<<20 {
		t.Errorf("queue holds %d bytes, limit %d", queued, publishQueueBytes)
	}
	p.status("idle", nil) // still does not wait
	close(sock.release)
	<-outputDone
	p.close(5 * time.Second)
	var busy, idle, streams int
	for len(sock.out) > 0 {
		m, err := Codec{}.Decode(<-sock.out)
		if err != nil {
			t.Fatal(err)
		}
		switch string(m.Content) {
		case `{"execution_state":"busy"}`:
			busy++
		case `{"execution_state":"idle"}`:
			idle++
		default:
			streams++
		}
	}
	if busy != statuses || idle != 1 || streams != 40 {
		t.Errorf("sent %d busy, %d idle, %d streams; want %d, 1, 40", busy, idle, streams, statuses)
	}
}

func TestStreamFlushedByTimer(t *testing.T) {
	sock := newMemSocket()
	s := &server{log: testLogger(t)}
	s.pub = newPublisher(sock, Codec{}, "s", s.log)
	o := &cellOutput{s: s, parent: &Header{MsgID: "p"}}
	o.Stream("stdout", "a")
	o.Stream("stdout", "b")
	select {
	case f := <-sock.out:
		m, err := Codec{}.Decode(f)
		if err != nil || string(m.Content) != `{"name":"stdout","text":"ab"}` {
			t.Errorf("stream = %s, %v", m.Content, err)
		}
	case <-time.After(waitTime):
		t.Fatal("pending output never flushed")
	}
	o.finish()
	o.Stream("stdout", "late")
	// Dropped at once: nothing pending and no timer that could publish it.
	o.mu.Lock()
	pending, timer := len(o.pending), o.timer != nil
	o.mu.Unlock()
	if len(sock.out) != 0 || pending != 0 || timer {
		t.Errorf("output after the cell finished: %d messages published, %d bytes pending, timer set %v", len(sock.out), pending, timer)
	}
}

// goroutineWaitingIn reports whether a goroutine of this process waits on
// a sync.Cond inside fn (a function name as stack traces print it, e.g.
// "kernel.(*publisher).enqueueOutput"): the event a test of a bound
// waits for, instead of sleeping and hoping the bound was reached.
func goroutineWaitingIn(fn string) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "sync.(*Cond).Wait") && strings.Contains(g, fn+"(") {
			return true
		}
	}
	return false
}

// TestLargeWriteSplitBetweenCharacters: a write over streamFlushBytes goes
// out in several messages, cut between characters, that add up to it.
func TestLargeWriteSplitBetweenCharacters(t *testing.T) {
	sock := newMemSocket()
	s := &server{log: testLogger(t)}
	s.pub = newPublisher(sock, Codec{}, "s", s.log)
	o := &cellOutput{s: s, parent: &Header{MsgID: "p"}}
	text := "a" + strings.Repeat("é🙂", 100_000) // 600,001 bytes, odd offsets
	o.Stream("stdout", text)
	o.Stream("stderr", "after")
	o.finish()
	s.pub.close(5 * time.Second)
	var got strings.Builder
	n := 0
	for len(sock.out) > 0 {
		m, err := Codec{}.Decode(<-sock.out)
		if err != nil {
			t.Fatal(err)
		}
		var c streamContent
		if err := json.Unmarshal(m.Content, &c); err != nil {
			t.Fatal(err)
		}
		if c.Name == "stderr" {
			if c.Text != "after" || got.String() != text {
				t.Fatalf("stderr %q after %d stdout bytes (want %d)", c.Text, got.Len(), len(text))
			}
			continue
		}
		if len(c.Text) > streamFlushBytes || strings.ContainsRune(c.Text, utf8.RuneError) {
			t.Errorf("message %d: %d bytes, valid UTF-8 %v", n, len(c.Text), !strings.ContainsRune(c.Text, utf8.RuneError))
		}
		got.WriteString(c.Text)
		n++
	}
	if n != 3 || got.String() != text {
		t.Errorf("%d stdout messages, %d bytes; want 3, %d", n, got.Len(), len(text))
	}
}
