package kernel

import (
	"context"
	"os"
	"sync"
	"syscall"
)

// readLoop decodes the messages arriving on sock and queues them on q,
// holding at most what budget allows (nil: no bound but q's length); the
// reader of q releases each message's wireSize.
func (s *server) readLoop(name string, sock socket, q chan<- *Message, budget *byteBudget) {
	for {
		m, ok := s.recv(name, sock)
		if !ok {
			return
		}
		if budget != nil && !budget.acquire(m.wireSize) {
			return
		}
		select {
		case q <- m:
		case <-s.ctx.Done():
			return
		}
	}
}

// byteBudget bounds the bytes held by a queue: acquire waits until the
// bytes fit, or the queue is empty (so that one message larger than the
// budget still passes, alone).
type byteBudget struct {
	mu     sync.Mutex
	cond   *sync.Cond
	used   int
	max    int
	closed bool
}

func newByteBudget(max int) *byteBudget {
	b := &byteBudget{max: max}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire takes n bytes; it reports false once the budget is closed.
func (b *byteBudget) acquire(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.closed && b.used > 0 && b.used+n > b.max {
		b.cond.Wait()
	}
	if b.closed {
		return false
	}
	b.used += n
	return true
}

func (b *byteBudget) release(n int) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// close wakes and fails every acquire, now and later.
func (b *byteBudget) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

// recv returns the next valid message on sock, logging and skipping bad
// ones; ok is false once the socket is closed. The connection of a valid
// message is trusted from then on (trustingSocket).
func (s *server) recv(name string, sock socket) (m *Message, ok bool) {
	ts, _ := sock.(trustingSocket)
	for {
		var (
			frames [][]byte
			trust  func()
			err    error
		)
		if ts != nil {
			frames, trust, err = ts.RecvTrust()
		} else {
			frames, err = sock.Recv()
		}
		if err != nil {
			if !s.keepReceiving(name, err) {
				return nil, false
			}
			continue
		}
		m, err := s.codec.Decode(frames)
		if err == nil && len(s.codec.Key) > 0 {
			err = s.replay.check(signatureOf(frames), m.Header.Date)
		}
		if err != nil {
			s.peers.warn(eventBadMessage, name, err, "frames", len(frames))
			continue
		}
		if trust != nil {
			trust() // its peer has the key
		}
		return m, true
	}
}

func (s *server) shellLoop() {
	for {
		var m *Message
		select {
		case <-s.ctx.Done():
			return
		case m = <-s.shellQ:
			s.shellBytes.release(m.wireSize)
		}
		if s.stopping.Load() {
			return
		}
		r := &request{sock: s.t.shell, channel: "shell", msg: m}
		if s.abortN > 0 {
			s.abortN--
			if m.Header.MsgType == msgExecuteRequest {
				s.abort(r)
				continue
			}
		}
		s.dispatch(r)
		if sd := s.pendingShutdown.Load(); sd != nil {
			s.requestStop(*sd)
			return
		}
	}
}

func (s *server) controlLoop() {
	for {
		m, ok := s.recv("control", s.t.control)
		if !ok {
			return
		}
		s.dispatch(&request{sock: s.t.control, channel: "control", msg: m})
		if sd := s.pendingShutdown.Load(); sd != nil {
			s.requestStop(*sd)
			return
		}
	}
}

func (s *server) signalLoop(ctx context.Context, sigs <-chan os.Signal) {
	for {
		select {
		case <-ctx.Done():
			return
		case sig, ok := <-sigs:
			if !ok {
				return
			}
			switch sig {
			case os.Interrupt:
				s.log.Info("SIGINT: interrupting the running cell")
				s.interrupt()
			case syscall.SIGTERM:
				s.requestStop(Shutdown{Reason: "SIGTERM"})
			default:
				s.log.Debug("ignoring signal", "signal", sig)
			}
		}
	}
}
