package kernel

import (
	"context"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
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
	limit := s.cfg.maxCodeBytes()
	refused := codeTooLarge("the cell", len(c.Code), limit)
	// The cell can be interrupted from before its execute_input goes
	// out: a client that interrupts once it has seen execute_input (for
	// all it knows, the cell runs) must reach the cell, not an interrupt
	// that finds nothing running yet.
	ctx, stop := s.interruptible(s.ctx)
	if !c.Silent {
		code := c.Code
		if refused != nil {
			// Echo no more than the limit: a refused 10 MiB cell must not
			// cost 10 MiB on every subscriber.
			code = textcut.Prefix(code, limit) + fmt.Sprintf("\n… [cell of %d bytes refused; first %d shown]", len(c.Code), limit)
		}
		s.pub.publish(msgExecuteInput, parent, executeInputContent{Code: code, ExecutionCount: count})
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

	var res ExecuteResult
	if refused != nil {
		res.Err = refused
	} else {
		out := &cellOutput{s: s, parent: parent, req: r, silent: c.Silent, stdin: c.AllowStdin}
		res = s.execute(ctx, c.Code, out)
		out.finish()
	}
	stop()

	if res.Err != nil {
		if !c.Silent {
			s.pub.publish(msgError, parent, newErrorContent("", res.Err))
		}
		// A cell refused as too large is not kept: twenty 10 MiB cells
		// must not cost 200 MiB of history.
		if storeHistory && res.Err.Name != ErrorCodeTooLarge {
			s.hist.add(count, c.Code, "", false)
		}
		if stopOnError {
			// Abort the execute requests already waiting, as ipykernel
			// does: a "Run All" must stop at the first failing cell.
			// Counted before the reply goes out: a client that answers
			// the reply with a new request must not see it aborted.
			s.abortN = len(s.shellQ)
		}
		s.reply(r, msgExecuteReply, executeErrorReplyContent{
			errorContent:    newErrorContent("error", res.Err),
			ExecutionCount:  count,
			UserExpressions: map[string]any{},
			Payload:         []any{},
		})
		return nil
	}

	var text string
	hasValue := res.Value != nil
	if hasValue {
		data := mimeBundle(res.Value.Data)
		text, _ = data["text/plain"].(string)
		if !c.Silent {
			s.pub.publish(msgExecuteResult, parent, executeResultContent{
				ExecutionCount: count, Data: data, Metadata: nonNilMap(res.Value.Metadata),
			})
		}
	}
	if storeHistory {
		s.hist.add(count, c.Code, text, hasValue)
	}
	s.reply(r, msgExecuteReply, executeReplyContent{
		Status:          "ok",
		ExecutionCount:  count,
		UserExpressions: s.userExpressions(c.UserExpressions),
		Payload:         []any{},
	})
	return nil
}

// interruptible returns a context that an interrupt cancels, until cancel
// is called.
func (s *server) interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	s.runMu.Lock()
	s.cancelRun = cancel
	s.runMu.Unlock()
	return ctx, func() {
		s.runMu.Lock()
		s.cancelRun = nil
		s.runMu.Unlock()
		cancel()
	}
}

// execute calls Evaluator.Execute, turning a panic into a cell error.
func (s *server) execute(ctx context.Context, code string, out Output) (res ExecuteResult) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("evaluator panicked", "panic", p, "stack", string(debug.Stack()))
			v := fmt.Sprintf("the evaluator failed: %v", p)
			res = ExecuteResult{Err: newExecError(ErrorKernel, v)}
		}
	}()
	return s.ev.Execute(ctx, code, out)
}

// userExpressions evaluates the expressions of an execute_request after
// its cell succeeded. Each result is a MIME bundle with status "ok", or
// the error fields with status "error". They share one deadline
// (Config.UserExpressionsTimeout) and one interrupt: once either ends them,
// the rest fail without running. Their code together is bounded like a
// cell's, and there are at most maxUserExpressions of them.
func (s *server) userExpressions(exprs map[string]string) map[string]any {
	out := make(map[string]any, len(exprs))
	if len(exprs) == 0 {
		return out
	}
	names := slices.Sorted(maps.Keys(exprs))
	total := 0
	for _, name := range names {
		total += len(name) + len(exprs[name])
	}
	var refused *ExecError
	switch limit := s.cfg.maxCodeBytes(); {
	case len(names) > maxUserExpressions:
		v := fmt.Sprintf("%d user_expressions; the limit is %d", len(names), maxUserExpressions)
		refused = newExecError(ErrorCodeTooLarge, v)
	default:
		refused = codeTooLarge("user_expressions together", total, limit)
	}
	timeout := s.cfg.userExpressionsTimeout()
	deadline, cancelDeadline := context.WithTimeout(s.ctx, timeout)
	defer cancelDeadline()
	ctx, cancel := s.interruptible(deadline)
	defer cancel()
	for _, name := range names {
		var res ExecuteResult
		switch {
		case refused != nil:
			res.Err = refused
		case ctx.Err() != nil:
			res.Err = stoppedExpression(deadline.Err() != nil, timeout)
		default:
			res = s.execute(ctx, exprs[name], discardOutput{})
			if res.Err != nil && ctx.Err() != nil {
				res.Err = stoppedExpression(deadline.Err() != nil, timeout)
			}
		}
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

// stoppedExpression is the error of a user expression ended (or never
// started) by the shared deadline or an interrupt.
func stoppedExpression(timedOut bool, timeout time.Duration) *ExecError {
	name, v := ErrorInterrupted, "interrupted: user_expressions stopped"
	if timedOut {
		name, v = ErrorTimeout, fmt.Sprintf("user_expressions share a %v deadline; it passed", timeout)
	}
	return newExecError(name, v)
}

// abort answers an execute request queued behind a failed cell with
// status "aborted", between busy and idle, as ipykernel does.
func (s *server) abort(r *request) {
	parent := &r.msg.Header
	s.pub.status("busy", parent)
	defer s.pub.status("idle", parent)
	s.log.Info("aborting queued execute_request after an error", "msg_id", parent.MsgID)
	s.send(r.sock, r.msg.Identities, msgExecuteReply, parent, map[string]string{"status": "aborted"})
}
