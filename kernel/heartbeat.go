package kernel

// heartbeatLoop echoes every heartbeat message unchanged, so clients
// can tell the process is alive even while a cell runs.
func (s *server) heartbeatLoop() {
	for {
		frames, err := s.t.heartbeat.Recv()
		if err != nil {
			return
		}
		if err := s.t.heartbeat.Send(frames); err != nil && s.ctx.Err() == nil {
			s.log.Warn("heartbeat echo failed", "err", err)
		}
	}
}
