package kernel

import (
	"errors"
	"net"
	"time"
)

// heartbeatLoop echoes every heartbeat message unchanged, so clients
// can tell the process is alive even while a cell runs. A malformed
// message from one peer is skipped: the loop ends only with the socket.
func (s *server) heartbeatLoop() {
	for {
		frames, err := s.t.heartbeat.Recv()
		if err != nil {
			if !s.keepReceiving("heartbeat", err) {
				return
			}
			continue
		}
		if err := s.t.heartbeat.Send(frames); err != nil && s.ctx.Err() == nil {
			s.peers.warn(eventEchoFailed, "heartbeat", err)
		}
	}
}

// keepReceiving reports whether a loop whose Recv failed with err goes on:
// false once the socket is closed or the kernel stops. Other errors come
// from one peer's bad message; they are logged (rate-limited: peers
// without the key can cause them at will), and the loop pauses briefly so
// that a stream of them cannot spin a core.
func (s *server) keepReceiving(socket string, err error) bool {
	if s.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
		return false
	}
	s.peers.warn(eventRecvError, socket, err)
	select {
	case <-s.ctx.Done():
		return false
	case <-time.After(time.Millisecond):
		return true
	}
}
