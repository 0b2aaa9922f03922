package interp

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// Running the int tier (sbir patch S9).

// intStackChunk is the registers a stack starts with, and the least it
// grows by: a window per call level, a few registers each.
const intStackChunk = 1024

// intRun is the state of one call into the int tier from the
// interpreter: its stack of registers and how to see an interrupt.
type intRun struct {
	stack []int64 // the current chunk; a call takes a window at sp
	sp    int
	first []int64 // the chunk the run starts with
	spare []int64 // a chunk given back, for the next growth
	stop  *uint64 // the interpreter's run id
	id    uint64  // the run id the call started in
	anc   *frame  // the frame a literal closes over, or the caller's (its root holds the globals)
	// recv is the struct a method's receiver points to, or is, while a
	// method runs (sbir patch S17): a pointer the garbage collector sees.
	recv unsafe.Pointer
}

// Panic values of the int tier, recovered by intFunc.call.
type intSignal uint8

const (
	intStopped intSignal = iota + 1 // the run was interrupted
	intStale                        // a callee was declared again
)

// checkStop panics intStopped when the run was interrupted, as runFrame
// stops at its next node.
func (t *intRun) checkStop() {
	if atomic.LoadUint64(t.stop) != t.id {
		panic(intStopped)
	}
}

// intCall returns a call of callee, compiled from decl, with args.
//
// The callee's size is read at every call, not when the call is
// compiled: a recursive call is compiled before the rest of the callee's
// body, whose locals add registers (s := f(n-1); t := s + n), and a
// window of the size known then was too small for them: every call
// panicked on its index and ran again in the interpreter.
func intCall(callee *intFunc, decl *node, args []intExpr) intExpr {
	if len(args) == 1 {
		a0 := args[0]
		return func(r []int64, t *intRun) int64 {
			checkCallee(decl, t)
			base := t.sp
			end := base + callee.size
			if end > len(t.stack) {
				return t.callGrown(callee, args, r)
			}
			w := t.stack[base:end:end]
			clear(w)
			t.sp = end
			w[1] = a0(r, t)
			callee.body(w, t)
			t.sp = base
			return w[0]
		}
	}
	return func(r []int64, t *intRun) int64 {
		checkCallee(decl, t)
		base := t.sp
		end := base + callee.size
		if end > len(t.stack) {
			return t.callGrown(callee, args, r)
		}
		w := t.stack[base:end:end]
		clear(w)
		t.sp = end
		for i, a := range args {
			w[1+i] = a(r, t)
		}
		callee.body(w, t)
		t.sp = base
		return w[0]
	}
}

// checkCallee panics when decl was declared again since the call was
// compiled, or the run was interrupted.
func checkCallee(decl *node, t *intRun) {
	if decl.latest != nil && decl.latest.cur != decl && decl.latest.cur != nil {
		panic(intStale)
	}
	t.checkStop()
}

// callGrown is a call whose window does not fit in the current chunk: it
// runs in a new one, and the chunk is given back when it returns.
func (t *intRun) callGrown(callee *intFunc, args []intExpr, r []int64) int64 {
	old, oldSP := t.stack, t.sp
	chunk := t.spare
	t.spare = nil
	if len(chunk) < callee.size {
		chunk = make([]int64, max(intStackChunk, 2*len(old), callee.size))
	}
	w := chunk[:callee.size:callee.size]
	clear(w)
	// The arguments first, in the caller's chunk: they may call too.
	for i, a := range args {
		w[1+i] = a(r, t)
	}
	t.stack, t.sp = chunk, callee.size
	callee.body(w, t)
	res := w[0]
	t.stack, t.sp, t.spare = old, oldSP, chunk
	return res
}

// call runs fn from the interpreted frame f, its arguments given by
// values; anc is the frame a function literal closes over (any frame of
// the run, for a declared function). The register stack is f's (taken
// while the call runs). It reports false when the call must run in the
// interpreter instead: it panicked (the interpreter raises the panic
// again, with its position), or a function it calls was declared again.
func (fn *intFunc) call(f, anc *frame, values []func(*frame) reflect.Value) (res int64, ok bool) {
	if fn.method != nil {
		return 0, false // a method value: its receiver is not at hand here
	}
	return fn.callWith(f, anc, nil, values)
}

// callWith is call, with recv the struct of a method's receiver.
func (fn *intFunc) callWith(f, anc *frame, recv unsafe.Pointer, values []func(*frame) reflect.Value) (res int64, ok bool) {
	t := f.ints
	if t == nil {
		t = &intRun{}
	}
	f.ints = nil
	w := t.start(fn, anc, f.runid())
	t.recv = recv
	for i, v := range values {
		if fn.params[i] {
			w[1+i] = b2i(v(f).Bool())
		} else {
			w[1+i] = intOf(v(f)) // sbir patch S17: inlined for an int
		}
	}
	ok = t.run(fn, w)
	res = w[0]
	t.end()
	f.ints = t
	return res, ok
}

// start readies t for a call of fn whose frame would descend from anc,
// in the run id, and returns the call's registers, zeroed.
func (t *intRun) start(fn *intFunc, anc *frame, id uint64) []int64 {
	if len(t.first) < fn.size {
		t.first = make([]int64, max(intStackChunk, fn.size))
	}
	t.stack, t.sp = t.first, fn.size
	t.stop, t.id, t.anc = &fn.def.interp.id, id, anc
	w := t.first[:fn.size:fn.size]
	if fn.size <= 4 {
		// sbir patch S15: four stores, where clear called memclr. The
		// registers after the window are the calls' it makes, not yet
		// in use (intStackChunk is larger).
		r := t.first[:4]
		r[0], r[1], r[2], r[3] = 0, 0, 0, 0
		return w
	}
	clear(w)
	return w
}

// end forgets what start set but the stack.
func (t *intRun) end() {
	t.stack, t.sp, t.stop, t.anc, t.recv = nil, 0, nil, nil, nil
}

// intTier runs c's function in its int tier with n arguments, a0 and a1,
// as a typed callback's body (sbir patch S9c): compiled code such as
// sort.Slice calling an interpreted less. It reports false when the
// function has no int tier, or the call must run in the interpreter.
// A leaf runs with its arguments as values (sbir patch S14); any other
// function in a register stack from the interpreter's pool, since
// compiled code may call a callback from several goroutines at once.
func (c *callback) intTier(a0, a1 int64, n int) (int64, bool) {
	def := c.def
	if c.rcvr != nil || (def.kind != funcLit && def.kind != funcDecl) || def.debug != nil {
		return 0, false
	}
	if def.latest != nil {
		def = currentDecl(def)
	}
	fn := intFuncOf(def)
	if fn == nil || len(fn.params) != n || fn.method != nil || fn.void {
		return 0, false
	}
	id := c.anc.root.runid() // sbir patch 114: the latest evaluation's run
	if id != def.interp.runid() {
		return 0, true // interrupted: runFrame would return at once
	}
	if body := fn.leafBody(); body != nil {
		return runLeaf(fn, body, a0, a1, c.anc) // sbir patch S14
	}
	return c.intTierRegs(fn, a0, a1, n, id)
}

// run runs fn's body in w, recovering the tier's panics.
//
// A call that panicked runs again in the interpreter, and after a few
// such calls fn leaves the tier for good (panicked): the interpreter's
// run of a recursive fn calls fn again one level down, which ran in the
// tier to the same panic and again in the interpreter, and so on at
// every level: a panic 5,000 calls deep took 5,000 runs of the tier, 20
// times the interpreter's time (and quadratic in the depth).
func (t *intRun) run(fn *intFunc, w []int64) (ok bool) {
	if !fn.panics && !fn.loops {
		// sbir patch S15: nothing in fn panics (no call, no loop to
		// stop, no division, shift or index by a variable): no deferred
		// recover, which was a tenth of a call of a closure that adds.
		fn.body(w, t)
		return true
	}
	defer func() {
		if p := recover(); p != nil {
			switch p {
			case intStopped:
				ok = true // the caller's frame stops too, at its next node
			case intStale:
				forgetIntFunc(fn.def)
			default:
				panicked(fn.def)
			}
		}
	}()
	fn.body(w, t)
	return true
}

// setIntResult sets the destinations of a call's result, res, of fn.
func setIntResult(fn *intFunc, rvalues []func(*frame) reflect.Value, f *frame, res int64) {
	if len(rvalues) != 1 || rvalues[0] == nil {
		return
	}
	dst := rvalues[0](f)
	if p := addrOfType(dst, fn.resTyp); p != nil && dst.CanSet() {
		if fn.result {
			*(*bool)(p) = res != 0 // sbir patch S17
		} else {
			*(*int64)(p) = res // sbir patch S15
		}
		return
	}
	switch {
	case fn.result && dst.Kind() == reflect.Bool:
		dst.SetBool(res != 0)
	case !fn.result && (dst.Kind() == reflect.Int || dst.Kind() == reflect.Int64 || dst.Kind() == reflect.Int32):
		dst.SetInt(res)
	default:
		v := reflect.New(fn.rtype).Elem()
		if fn.result {
			v.SetBool(res != 0)
		} else {
			v.SetInt(res)
		}
		dst.Set(v)
	}
}
