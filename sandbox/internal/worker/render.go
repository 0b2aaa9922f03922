package worker

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/valuefmt"
)

// Formatting a value runs code the cell defined: String, Error, Err,
// HTML, Markdown and MIMEBundle methods may be interpreted, and may panic
// or never return. The worker therefore formats values only inside an
// interpreter evaluation (see callGate) so that yaegi's own stop
// mechanism applies, under a deadline, with every panic recovered.

// renderTimeout bounds formatting a cell's value; interpreted code still
// running then is stopped. renderSettle is how long compiled code it was
// in (a large chart's MIMEBundle, say) may take to return after that
// before the worker is declared stuck. Inspection has tighter bounds: its
// reply must reach the supervisor within its 5 s request timeout, Restart
// flag included.
const (
	renderTimeout  = 5 * time.Second
	renderSettle   = 10 * time.Second
	inspectTimeout = 2 * time.Second
	inspectSettle  = 2 * time.Second
)

// callGate runs compiled Go code (the formatting) inside an interpreter
// evaluation. yaegi stops interpreted code by bumping a run id that every
// interpreted step checks, and it does so only when the context of a
// running evaluation ends; a String method the formatting calls is
// interpreted code of that evaluation, so the deadline stops it there.
type callGate struct {
	prog *interp.Program        // "_sbir.Call()", compiled once
	fn   atomic.Pointer[func()] // what Call runs
}

// call is the _sbir.Call helper.
func (g *callGate) call() {
	if fn := g.fn.Load(); fn != nil {
		(*fn)()
	}
}

// renderError is why a value could not be formatted; the cell fails with
// it (wrapped in valueError, it names its own class).
type renderError struct {
	name string // ErrorName: Timeout, Interrupted or FormatError
	msg  string
}

func (e *renderError) Error() string     { return e.msg }
func (e *renderError) ErrorName() string { return e.name }

// errRenderStuck marks a formatting call that was still running compiled
// code after its deadline and the settle time: the interpreter is in use
// by an abandoned goroutine and the worker must be replaced.
var errRenderStuck = errors.New("formatting did not return")

// guarded runs fn inside an interpreter evaluation bounded by ctx and
// timeout, recovering its panics; settle is how long it may take to return
// once stopped. what names the value for errors.
func (s *session) guarded(ctx context.Context, what string, timeout, settle time.Duration, fn func()) error {
	inner, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan struct{})
	var panicked any
	run := func() {
		defer close(done)
		defer func() { panicked = recover() }()
		fn()
	}
	s.gate.fn.Store(&run)
	defer s.gate.fn.Store(nil)
	// The formatting's time.Sleep and stdin reads end with its deadline.
	prev := cellContext.Load()
	cellContext.Store(&inner)
	defer cellContext.Store(prev)
	_, err := s.in.ExecuteWithContext(inner, s.gate.prog)
	if err == nil {
		if panicked != nil {
			return &renderError{name: "FormatError", msg: fmt.Sprintf("formatting %s panicked: %v", what, oneLine(fmt.Sprint(panicked)))}
		}
		return nil
	}
	if inner.Err() == nil {
		// The gate itself failed (it never should): report, do not hide.
		return &renderError{name: "FormatError", msg: fmt.Sprintf("formatting %s failed: %v", what, err)}
	}
	// The deadline or an interrupt stopped the interpreted code; compiled
	// code it was in returns on its own, or never.
	select {
	case <-done:
	case <-time.After(settle):
		s.abandoned.Store(true)
		return fmt.Errorf("%w: %s was still being formatted %v after its %v deadline", errRenderStuck, what, settle, timeout)
	}
	if ctx.Err() != nil {
		return &renderError{name: "Interrupted", msg: "the cell was interrupted while its value was being formatted"}
	}
	return &renderError{name: "Timeout", msg: fmt.Sprintf("formatting %s did not finish within %v: a String, Error, HTML, Markdown or MIMEBundle method it calls runs too long; it was stopped and the session's variables are kept", what, timeout)}
}

// bundle checks a cell's values for a carried error and renders them,
// inside the formatting gate.
func (s *session) bundle(ctx context.Context, vals []any) (map[string]any, error) {
	var b map[string]any
	var cerr error
	err := s.guarded(ctx, "the cell's value", renderTimeout, renderSettle, func() {
		if cerr = carriedError(vals); cerr != nil {
			return
		}
		b = valuefmt.Bundle(vals)
	})
	s.out.takeFrames() // a recovered panic's trace is not the cell's
	if err != nil {
		if errors.Is(err, errRenderStuck) {
			return nil, valueError{&renderError{name: "Timeout", msg: err.Error()}}
		}
		return nil, valueError{err}
	}
	if cerr != nil {
		return nil, cerr
	}
	return b, nil
}
