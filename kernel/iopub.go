package kernel

import (
	"encoding/json"
	"log/slog"
	"sync"
	"time"
)

// publishQueueLen bounds the messages waiting for the iopub socket. The
// shell and control loops never wait for iopub: when a subscriber stalls
// zmq4's single PUB sender and the queue fills, messages are dropped (and
// counted in the log), as libzmq's PUB does at its high-water mark.
const publishQueueLen = 4096

// publication is one iopub message waiting to be encoded and sent.
type publication struct {
	msgType string
	parent  *Header
	content any
	done    chan struct{} // closed once sent; only for flush markers
}

// publisher owns the iopub socket: one goroutine encodes and sends queued
// messages in order.
type publisher struct {
	sock    socket
	codec   Codec
	session string
	log     *slog.Logger

	q       chan publication
	stopped chan struct{}

	mu       sync.Mutex
	closed   bool
	dropped  int
	lastWarn time.Time
}

func newPublisher(sock socket, codec Codec, session string, log *slog.Logger) *publisher {
	p := &publisher{
		sock: sock, codec: codec, session: session, log: log,
		q:       make(chan publication, publishQueueLen),
		stopped: make(chan struct{}),
	}
	go p.run()
	return p
}

// publish queues a message without blocking.
func (p *publisher) publish(msgType string, parent *Header, content any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	select {
	case p.q <- publication{msgType: msgType, parent: parent, content: content}:
	default:
		p.dropped++
		if now := time.Now(); now.Sub(p.lastWarn) > time.Second {
			p.lastWarn = now
			p.log.Warn("iopub queue full: dropping messages (is a subscriber stalled?)",
				"msg_type", msgType, "dropped_total", p.dropped)
		}
	}
}

// status publishes a kernel status (starting, busy, idle).
func (p *publisher) status(state string, parent *Header) {
	p.publish("status", parent, map[string]string{"execution_state": state})
}

// drain waits until every message queued so far has been handed to the
// socket, or timeout passes. It is called only by close.
func (p *publisher) drain(timeout time.Duration) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return
	}
	// Only close, from Serve's goroutine, calls drain and closes q, so
	// the marker can be sent without holding mu (which would make
	// publishers wait).
	done := make(chan struct{})
	deadline := time.After(timeout)
	select {
	case p.q <- publication{done: done}:
	case <-deadline:
		return
	}
	select {
	case <-done:
	case <-deadline:
	}
}

// iopubLinger is how long close waits after the last message was handed
// to the socket: zmq4's PUB sends from its own queue, which it does not let
// us flush, and the last status and shutdown_reply must reach clients.
const iopubLinger = 100 * time.Millisecond

// close stops the publisher after draining what is queued (at most
// timeout) and lingering for the socket to send it: at most timeout +
// 150 ms in all.
func (p *publisher) close(timeout time.Duration) {
	p.drain(timeout)
	time.Sleep(iopubLinger)
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.q)
	}
	p.mu.Unlock()
	select {
	case <-p.stopped:
	case <-time.After(50 * time.Millisecond):
	}
}

func (p *publisher) run() {
	defer close(p.stopped)
	for pub := range p.q {
		if pub.done != nil {
			close(pub.done)
			continue
		}
		raw, err := json.Marshal(pub.content)
		if err != nil {
			p.log.Error("encode iopub content", "msg_type", pub.msgType, "err", err)
			continue
		}
		m := &Message{
			Identities:   [][]byte{[]byte(pub.msgType)},
			Header:       newHeader(pub.msgType, p.session),
			ParentHeader: pub.parent,
			Content:      raw,
		}
		frames, err := p.codec.Encode(m)
		if err != nil {
			p.log.Error("encode iopub message", "msg_type", pub.msgType, "err", err)
			continue
		}
		if err := p.sock.Send(frames); err != nil {
			p.log.Warn("send on iopub", "msg_type", pub.msgType, "err", err)
		}
	}
}
