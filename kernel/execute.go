package kernel

import (
	"context"
	"fmt"
	"runtime/debug"
)

// executeRequest is the content of execute_request.
type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      bool              `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

// handleExecute runs one cell. The order on iopub is execute_input, the
// cell's streams and displays, then execute_result or exactly one error;
// busy and idle around them come from dispatch.
//
// The execution count increases only with store_history (which silent
// turns off); a silent cell publishes nothing on iopub.
func (s *server) handleExecute(r *request) error {
	var c executeRequest
	if err := decodeContent(r, &c); err != nil {
		return err
	}
	storeHistory := c.StoreHistory == nil || *c.StoreHistory
	if c.Silent {
		storeHistory = false
	}
	stopOnError := c.StopOnError == nil || *c.StopOnError
	parent := &r.msg.Header
	if storeHistory {
		s.count++
	}
	count := s.count
	if !c.Silent {
		s.pub.publish("execute_input", parent, executeInputContent{Code: c.Code, ExecutionCount: count})
	}

	// An interrupt_reply waits for this cell's error to be published:
	// jupyter console stops waiting for output at the first idle of its
	// session, so the interrupt's idle must not overtake the error.
	done := make(chan struct{})
	s.runMu.Lock()
	s.cellDone = done
	s.runMu.Unlock()
	defer func() {
		s.runMu.Lock()
		s.cellDone = nil
		s.runMu.Unlock()
		close(done)
	}()

	out := &cellOutput{s: s, parent: parent, req: r, silent: c.Silent, stdin: c.AllowStdin}
	res := s.run(c.Code, out)
	out.finish()

	if res.Err != nil {
		if !c.Silent {
			s.pub.publish("error", parent, newErrorContent("", res.Err))
		}
		if storeHistory {
			s.hist.add(count, c.Code, "", false)
		}
		s.reply(r, "execute_reply", executeErrorReplyContent{
			errorContent:    newErrorContent("error", res.Err),
			ExecutionCount:  count,
			UserExpressions: map[string]any{},
			Payload:         []any{},
		})
		if stopOnError {
			// Abort the execute requests already waiting, as ipykernel
			// does: a "Run All" must stop at the first failing cell.
			s.abortN = len(s.shellQ)
		}
		return nil
	}

	var text string
	hasValue := res.Value != nil
	if hasValue {
		data := mimeBundle(res.Value.Data)
		text, _ = data["text/plain"].(string)
		if !c.Silent {
			s.pub.publish("execute_result", parent, executeResultContent{
				ExecutionCount: count, Data: data, Metadata: nonNilMap(res.Value.Metadata),
			})
		}
	}
	if storeHistory {
		s.hist.add(count, c.Code, text, hasValue)
	}
	s.reply(r, "execute_reply", executeReplyContent{
		Status:          "ok",
		ExecutionCount:  count,
		UserExpressions: s.userExpressions(c.UserExpressions),
		Payload:         []any{},
	})
	return nil
}

// run calls the evaluator with a context the interrupt cancels, turning
// a panic into a cell error so a broken evaluator cannot kill the kernel.
func (s *server) run(code string, out Output) (res ExecuteResult) {
	ctx, cancel := context.WithCancel(s.ctx)
	s.runMu.Lock()
	s.cancelRun = cancel
	s.runMu.Unlock()
	defer func() {
		s.runMu.Lock()
		s.cancelRun = nil
		s.runMu.Unlock()
		cancel()
		if p := recover(); p != nil {
			s.log.Error("evaluator panicked", "panic", p, "stack", string(debug.Stack()))
			res = ExecuteResult{Err: &ExecError{
				Name:      "KernelError",
				Value:     fmt.Sprintf("the evaluator failed: %v", p),
				Traceback: []string{fmt.Sprintf("KernelError: the evaluator failed: %v", p)},
			}}
		}
	}()
	return s.ev.Execute(ctx, code, out)
}

// userExpressions evaluates the expressions of an execute_request after
// its cell succeeded. Each result is a MIME bundle with status "ok", or
// the error fields with status "error".
func (s *server) userExpressions(exprs map[string]string) map[string]any {
	out := make(map[string]any, len(exprs))
	for name, expr := range exprs {
		res := s.run(expr, discardOutput{})
		switch {
		case res.Err != nil:
			out[name] = newErrorContent("error", res.Err)
		case res.Value != nil:
			out[name] = map[string]any{"status": "ok", "data": mimeBundle(res.Value.Data), "metadata": nonNilMap(res.Value.Metadata)}
		default:
			out[name] = map[string]any{"status": "ok", "data": map[string]any{"text/plain": ""}, "metadata": map[string]any{}}
		}
	}
	return out
}

// abort answers an execute request queued behind a failed cell with
// status "aborted", between busy and idle, as ipykernel does.
func (s *server) abort(r *request) {
	parent := &r.msg.Header
	s.pub.status("busy", parent)
	defer s.pub.status("idle", parent)
	s.log.Info("aborting queued execute_request after an error", "msg_id", parent.MsgID)
	s.send(r.sock, r.msg.Identities, "execute_reply", parent, map[string]string{"status": "aborted"})
}
