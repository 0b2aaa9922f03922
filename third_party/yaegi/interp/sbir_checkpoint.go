package interp

import (
	"context"
	"runtime"
	"runtime/debug"
)

// sbir patch 54: a host that compiles several sources before running any
// of them (a notebook cell cut into parts, which must run nothing when one
// part does not compile) undoes what the compiled parts declared.

// A Checkpoint is the state of the main package's declarations at one
// moment: its symbols, and the methods of its types.
type Checkpoint struct {
	sym     map[string]*symbol
	methods map[*itype][]*node
}

// Checkpoint records the declarations of the main package, which
// Rollback restores.
func (interp *Interpreter) Checkpoint() *Checkpoint {
	interp.mutex.RLock()
	defer interp.mutex.RUnlock()
	c := &Checkpoint{methods: map[*itype][]*node{}}
	sc := interp.scopes[mainID]
	if sc == nil {
		return c
	}
	c.sym = make(map[string]*symbol, len(sc.sym))
	for k, s := range sc.sym {
		c.sym[k] = s
		if s.kind == typeSym && s.typ != nil {
			for t := s.typ; t != nil; t = t.val {
				c.methods[t] = t.method
				if t.ptr != nil {
					c.methods[t.ptr] = t.ptr.method // methods with a pointer receiver
				}
				if t.cat != linkedT {
					break
				}
			}
		}
	}
	return c
}

// Rollback undoes the declarations made since c by compilations whose
// programs were not executed: the main package's symbols are those of
// the checkpoint again, and its types have their methods back. Calling it
// after executing such a program leaves that program's code pointing to
// declarations that no longer exist.
func (interp *Interpreter) Rollback(c *Checkpoint) {
	interp.mutex.Lock()
	defer interp.mutex.Unlock()
	interp.redefs = nil
	sc := interp.scopes[mainID]
	if sc == nil || c.sym == nil {
		return
	}
	for k := range sc.sym {
		if _, ok := c.sym[k]; !ok {
			delete(sc.sym, k)
		}
	}
	for k, s := range c.sym {
		sc.sym[k] = s
	}
	for t, ms := range c.methods {
		t.method = ms
	}
}

// CompileWithContext compiles src as Compile does, for a program to run
// with ExecuteWithContext: its channel operations can be cancelled, as
// EvalWithContext compiles them (Compile generates code that cannot be,
// unless an earlier evaluation had a context), a panic inside the
// compiler is returned as a Panic, and it returns when ctx is done, the
// compilation going on in the background.
func (interp *Interpreter) CompileWithContext(ctx context.Context, src string) (*Program, error) {
	interp.mutex.Lock()
	interp.cancelChan = !interp.opt.fastChan
	interp.mutex.Unlock()

	type result struct {
		prog *Program
		err  error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				var pc [64]uintptr
				n := runtime.Callers(1, pc[:])
				r = result{err: Panic{Value: p, Callers: pc[:n], Stack: debug.Stack()}}
			}
			done <- r
		}()
		r.prog, r.err = interp.Compile(src)
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-done:
		return r.prog, r.err
	}
}
