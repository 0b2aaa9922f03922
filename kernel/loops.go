package kernel

import (
	"context"
	"os"
	"syscall"
)

// readLoop decodes the messages arriving on sock and queues them on q.
func (s *server) readLoop(name string, sock socket, q chan<- *Message) {
	for {
		m, ok := s.recv(name, sock)
		if !ok {
			return
		}
		select {
		case q <- m:
		case <-s.ctx.Done():
			return
		}
	}
}

// recv returns the next valid message on sock, logging and skipping bad
// ones; ok is false once the socket is closed.
func (s *server) recv(name string, sock socket) (m *Message, ok bool) {
	for {
		frames, err := sock.Recv()
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
			s.log.Warn("dropping bad message", "socket", name, "frames", len(frames), "err", err)
			continue
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
		}
		if s.stopping.Load() {
			return
		}
		r := &request{sock: s.t.shell, channel: "shell", msg: m}
		if s.abortN > 0 {
			s.abortN--
			if m.Header.MsgType == "execute_request" {
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
