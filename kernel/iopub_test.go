package kernel

import (
	"testing"
	"time"
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

func TestPublisherNeverBlocks(t *testing.T) {
	sock := &blockedSocket{memSocket: *newMemSocket(), release: make(chan struct{})}
	p := newPublisher(sock, Codec{}, "s", testLogger(t))
	done := make(chan struct{})
	go func() {
		for range publishQueueLen * 2 {
			p.status("busy", nil)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitTime):
		t.Fatal("publish blocked on a stalled socket")
	}
	p.mu.Lock()
	dropped := p.dropped
	p.mu.Unlock()
	if dropped < publishQueueLen-1 {
		t.Errorf("dropped %d messages, want about %d", dropped, publishQueueLen)
	}
	close(sock.release)
	p.close(time.Second)
	if n := len(sock.out); n < publishQueueLen-1 || n > publishQueueLen+1 {
		t.Errorf("sent %d messages after release, want the %d queued", n, publishQueueLen)
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
	time.Sleep(3 * streamFlushInterval)
	if len(sock.out) != 0 {
		t.Error("output after the cell finished was published")
	}
}
