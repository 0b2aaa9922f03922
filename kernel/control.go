package kernel

import "time"

// handleShutdown answers shutdown_request (on control, or its deprecated
// form on shell): it replies on the request's channel and on iopub, then
// the loop that dispatched it asks Serve to stop once idle is queued.
func (s *server) handleShutdown(r *request) error {
	var c struct {
		Restart bool `json:"restart"`
	}
	if err := decodeContent(r, &c); err != nil {
		return err
	}
	content := map[string]any{"status": "ok", "restart": c.Restart}
	s.reply(r, msgShutdownReply, content)
	s.pub.publish(msgShutdownReply, &r.msg.Header, content)
	s.pendingShutdown.Store(&Shutdown{Restart: c.Restart, Reason: msgShutdownRequest})
	return nil
}

// handleInterrupt cancels the running cell's context. Ending a cell stuck
// in compiled code is the evaluator's business; the kernel only signals,
// then waits (at most Config.InterruptWait) for the cell's error to be
// published so that the reply and its idle come after it, as clients such
// as jupyter console assume.
func (s *server) handleInterrupt(r *request) error {
	if done := s.interrupt(); done != nil {
		wait := s.cfg.InterruptWait
		if wait <= 0 {
			wait = defaultInterruptWait
		}
		t := time.NewTimer(wait)
		select {
		case <-done:
		case <-t.C:
			s.log.Warn("interrupted cell did not end in time; replying anyway", "waited", wait)
		case <-s.ctx.Done():
		}
		t.Stop()
	}
	s.reply(r, msgInterruptReply, map[string]string{"status": "ok"})
	return nil
}

// defaultInterruptWait covers the sandbox's default kill grace (2 s) plus
// the start of a fresh worker.
const defaultInterruptWait = 2500 * time.Millisecond
