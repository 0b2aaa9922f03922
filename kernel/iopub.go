package kernel

import (
	"encoding/json"
	"log/slog"
	"sync"
	"time"
)

// The iopub queue is bounded in bytes: a cell that outputs faster than the
// subscribers read waits (its Output calls block) rather than growing the
// kernel's memory. Status messages are the protocol, not output: they are
// never dropped and never wait, so a client always gets its idle.
const publishQueueBytes = 16 << 20

// publication is one iopub message waiting to be sent: its frames
// (encoded by the caller, so that the queue's size is known) or a flush
// marker.
type publication struct {
	frames  [][]byte
	size    int
	msgType string
	done    chan struct{} // closed once sent; only for flush markers
	content []byte        // a pooled content buffer, freed once written
}

// publisher owns the iopub socket: one goroutine sends queued messages in
// order.
type publisher struct {
	sock    socket
	codec   Codec
	session string
	log     *slog.Logger

	mu      sync.Mutex
	room    *sync.Cond // broadcast when the queue shrinks or closes
	ready   *sync.Cond // signalled when the queue grows or closes
	q       []publication
	qBytes  int
	closed  bool
	stopped chan struct{}

	contents contentPool
}

func newPublisher(sock socket, codec Codec, session string, log *slog.Logger) *publisher {
	p := &publisher{sock: sock, codec: codec, session: session, log: log, stopped: make(chan struct{})}
	p.room = sync.NewCond(&p.mu)
	p.ready = sync.NewCond(&p.mu)
	go p.run()
	return p
}

// publish encodes and queues a message of output (anything but status).
// While the queue holds publishQueueBytes or more it waits for room:
// output is throttled to what the subscribers take.
func (p *publisher) publish(msgType string, parent *Header, content any) {
	if pub, ok := p.encode(msgType, parent, content); ok {
		p.enqueueOutput(pub)
	}
}

// publishStream is publish for a stream message whose text is in a
// buffer the caller reuses once it returns (the text is encoded before).
// A large message's content is encoded into a buffer of p.contents.
func publishStream[S ~string | ~[]byte](p *publisher, parent *Header, name string, text S) {
	size := streamJSONSize(name, text)
	pooled := size >= minPooledContent
	var buf []byte
	if pooled {
		buf = p.contents.get(size)
	} else {
		buf = make([]byte, 0, size)
	}
	raw := appendStreamJSON(buf, name, text)
	pub, ok := p.encodeRaw(msgStream, parent, raw)
	if !ok {
		return
	}
	if pooled {
		pub.content = raw
	}
	p.enqueueOutput(pub)
}

// enqueueOutput queues an output message, waiting while the queue is full.
func (p *publisher) enqueueOutput(pub publication) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed && len(p.q) > 0 && p.qBytes+pub.size > publishQueueBytes {
		p.room.Wait()
	}
	p.enqueueLocked(pub)
}

// waitRoom waits while the queue holds limit bytes or more (or until the
// publisher closes). The loops that dispatch requests call it before a
// request's busy status: status messages themselves never wait, so
// without it a client flooding cheap requests while a subscriber reads
// slowly (but not slowly enough to be disconnected) grew the queue, two
// statuses per request, each repeating the request's header, without
// bound.
func (p *publisher) waitRoom(limit int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed && len(p.q) > 0 && p.qBytes >= limit {
		p.room.Wait()
	}
}

// status publishes a kernel status (starting, busy, idle). It never
// waits and is never dropped.
func (p *publisher) status(state string, parent *Header) {
	pub, ok := p.encode(msgStatus, parent, statusContent{State: state})
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.enqueueLocked(pub)
}

type statusContent struct {
	State string `json:"execution_state"`
}

func (p *publisher) encode(msgType string, parent *Header, content any) (publication, bool) {
	raw, err := json.Marshal(content)
	if err != nil {
		p.log.Error("encode iopub content", "msg_type", msgType, "err", err)
		return publication{}, false
	}
	return p.encodeRaw(msgType, parent, raw)
}

// encodeRaw signs and frames a message whose content is already JSON.
func (p *publisher) encodeRaw(msgType string, parent *Header, raw []byte) (publication, bool) {
	m := &Message{
		Identities:   [][]byte{[]byte(msgType)},
		Header:       newHeader(msgType, p.session),
		ParentHeader: parent,
		Content:      raw,
	}
	frames, err := p.codec.Encode(m)
	if err != nil {
		p.log.Error("encode iopub message", "msg_type", msgType, "err", err)
		return publication{}, false
	}
	size := 0
	for _, f := range frames {
		size += len(f)
	}
	return publication{frames: frames, size: size, msgType: msgType}, true
}

func (p *publisher) enqueueLocked(pub publication) {
	if p.closed {
		return
	}
	p.q = append(p.q, pub)
	p.qBytes += pub.size
	p.ready.Signal()
}

// drain waits until every message queued so far has been handed to the
// socket, or timeout passes.
func (p *publisher) drain(timeout time.Duration) {
	done := make(chan struct{})
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.enqueueLocked(publication{done: done})
	p.mu.Unlock()
	select {
	case <-done:
	case <-time.After(timeout):
	}
}

// iopubLinger is how long close waits after the last message was handed
// to the socket: zmq4's PUB sends from its own queue, which it does not let
// us flush, and the last status and shutdown_reply must reach clients.
const iopubLinger = 100 * time.Millisecond

// close stops the publisher after draining what is queued (at most
// timeout) and lingering for the socket to send it: at most timeout +
// 150 ms in all. Publishers waiting for room return at once.
func (p *publisher) close(timeout time.Duration) {
	p.drain(timeout)
	time.Sleep(iopubLinger)
	p.mu.Lock()
	p.closed = true
	p.room.Broadcast()
	p.ready.Signal()
	p.mu.Unlock()
	select {
	case <-p.stopped:
	case <-time.After(50 * time.Millisecond):
	}
}

// statusRetry is how long the sender waits before trying a status message
// again after the socket refused it (its send timeout expired while a
// stalled subscriber was being disconnected).
const statusRetry = 100 * time.Millisecond

func (p *publisher) run() {
	defer close(p.stopped)
	for {
		p.mu.Lock()
		for len(p.q) == 0 && !p.closed {
			p.ready.Wait()
		}
		if p.closed {
			p.mu.Unlock()
			return
		}
		pub := p.q[0]
		p.mu.Unlock()

		if pub.done != nil {
			close(pub.done)
		} else {
			p.send(pub)
		}

		p.mu.Lock()
		p.q[0] = publication{}
		p.q = p.q[1:]
		p.qBytes -= pub.size
		if len(p.q) == 0 {
			p.q = nil // let the backing array go
		}
		p.room.Broadcast()
		p.mu.Unlock()
	}
}

// send hands one message to the socket. Output that the socket refuses is
// logged and dropped; a status message is retried until it goes or the
// publisher closes.
func (p *publisher) send(pub publication) {
	if fs, ok := p.sock.(freeingSender); ok && pub.content != nil {
		// Output is not retried (below), so this is the only attempt.
		content := pub.content
		if err := fs.SendFreeing(pub.frames, func() { p.contents.put(content) }); err != nil {
			p.log.Warn("send on iopub", "msg_type", pub.msgType, "err", err)
		}
		return
	}
	for {
		err := p.sock.Send(pub.frames)
		if err == nil {
			return
		}
		p.log.Warn("send on iopub", "msg_type", pub.msgType, "err", err)
		if pub.msgType != msgStatus {
			return
		}
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if closed {
			return
		}
		time.Sleep(statusRetry)
	}
}
