package kernel

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
	s.reply(r, "shutdown_reply", content)
	s.pub.publish("shutdown_reply", &r.msg.Header, content)
	s.pendingShutdown.Store(&Shutdown{Restart: c.Restart, Reason: "shutdown_request"})
	return nil
}

// handleInterrupt cancels the running cell's context. Ending a cell stuck
// in compiled code is the evaluator's business; the kernel only signals.
func (s *server) handleInterrupt(r *request) error {
	s.interrupt()
	s.reply(r, "interrupt_reply", map[string]string{"status": "ok"})
	return nil
}
