package symbols

import (
	"context"
	"reflect"
	"time"
)

// The context package watches a parent it did not make on a goroutine of
// its own (propagateCancel) and calls the parent's Err and Value methods
// there. A Context declared in a cell would run cell code on that
// goroutine, which the sandbox neither sees nor stops when the cell ends.
// The constructors that take a parent therefore accept only contexts the
// context package made; as every one of them checks, the ancestors of such
// a context are the package's too.

// contextParents replaces the members of "context" that take a parent.
var contextParents = map[string]reflect.Value{
	"WithCancel": reflect.ValueOf(func(parent context.Context) (context.Context, context.CancelFunc) {
		checkParent("WithCancel", parent)
		return context.WithCancel(parent)
	}),
	"WithCancelCause": reflect.ValueOf(func(parent context.Context) (context.Context, context.CancelCauseFunc) {
		checkParent("WithCancelCause", parent)
		return context.WithCancelCause(parent)
	}),
	"WithDeadline": reflect.ValueOf(func(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
		checkParent("WithDeadline", parent)
		return context.WithDeadline(parent, d)
	}),
	"WithDeadlineCause": reflect.ValueOf(func(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
		checkParent("WithDeadlineCause", parent)
		return context.WithDeadlineCause(parent, d, cause)
	}),
	"WithTimeout": reflect.ValueOf(func(parent context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
		checkParent("WithTimeout", parent)
		return context.WithTimeout(parent, timeout)
	}),
	"WithTimeoutCause": reflect.ValueOf(func(parent context.Context, timeout time.Duration, cause error) (context.Context, context.CancelFunc) {
		checkParent("WithTimeoutCause", parent)
		return context.WithTimeoutCause(parent, timeout, cause)
	}),
	"WithValue": reflect.ValueOf(func(parent context.Context, key, val any) context.Context {
		checkParent("WithValue", parent)
		return context.WithValue(parent, key, val)
	}),
	"WithoutCancel": reflect.ValueOf(func(parent context.Context) context.Context {
		checkParent("WithoutCancel", parent)
		return context.WithoutCancel(parent)
	}),
}

// checkParent panics, as the context package does for a nil parent, when
// parent is not a context the context package made.
func checkParent(fn string, parent context.Context) {
	if parent == nil {
		return // the context package panics with its own message
	}
	t := reflect.TypeOf(parent)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() != "context" {
		panic("context." + fn + ": the parent is a Context declared in the cell; in this sandbox a parent must come from the context package (context.Background(), context.WithCancel(...), ...), because the package would call the cell's methods on a goroutine the cell does not control")
	}
}
