package worker

import (
	"context"
	"reflect"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/valuefmt"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/assist"
)

// assistSession gives completion and inspection (package assist) bounded
// access to the session's interpreter.
type assistSession struct{ s *session }

var _ assist.Session = assistSession{}

// valueTimeout bounds evaluating a name for completion or inspection.
const valueTimeout = time.Second

// Value evaluates a session variable's name, or a selector from one,
// bounded in time.
func (a assistSession) Value(expr string) (reflect.Value, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), valueTimeout)
	defer cancel()
	cellContext.Store(&ctx)
	v, err := a.s.in.EvalWithContext(ctx, expr)
	if err != nil || !v.IsValid() {
		return reflect.Value{}, false
	}
	return v, true
}

// Format renders v as a cell's value inside the formatting gate, bounded,
// its panics recovered.
func (a assistSession) Format(name string, v reflect.Value) (string, error) {
	var text string
	err := a.s.guarded(context.Background(), name, inspectTimeout, inspectSettle, func() { text = valuefmt.Plain(v.Interface()) })
	a.s.out.takeFrames()
	return text, err
}

// Replacing reports that a formatting call outlived its deadline: the
// worker is replaced after this request.
func (a assistSession) Replacing() bool { return a.s.abandoned.Load() }
