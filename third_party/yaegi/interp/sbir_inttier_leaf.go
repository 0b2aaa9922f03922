package interp

import "sync/atomic"

// sbir patch S14: a typed callback whose function is a leaf runs with
// its parameters as Go values, with no register stack.
//
// A leaf is a function of the int tier with at most two parameters whose
// body is ifs (without an init statement) and returns of expressions of
// its parameters, constants, fast slice reads (sbir_inttier_fast.go) and
// variables it captures or globals: no local variable, no assignment, no
// loop, no call. sort.Slice's and sort.Search's functions usually are.
// Such a function needs no register: its closures take the parameters as
// arguments, and a call needs nothing no other call may use at the same
// time, so it takes nothing from a pool (which, for the register stack,
// was a fifth of a call of sort.Slice's less after the reads were made
// fast). It has no loop and no call, so it ends soon and cannot be
// interrupted or call a function declared again; a panic (an index out of
// range, a division by zero) is recovered and the call runs again in the
// interpreter, as the tier's own (intRun.run).

// Closures of a leaf: its parameters, and the frame it closes over (the
// caller's for a declared function: its root holds the globals).
type (
	leafExpr func(p0, p1 int64, anc *frame) int64
	leafBool func(p0, p1 int64, anc *frame) bool
	// leafStmt reports the function's result and true when it returned.
	leafStmt func(p0, p1 int64, anc *frame) (int64, bool)
)

// leafCache is an intFunc's leaf form, compiled at the first call from a
// typed callback: nil until then, then a nil leafStmt when the function
// is not a leaf.
type leafCache struct {
	body atomic.Pointer[leafStmt]
}

// leafBody returns fn as a leaf, or nil: one atomic load once compiled.
func (fn *intFunc) leafBody() leafStmt {
	b := fn.leaf.body.Load()
	if b == nil {
		b = fn.compileLeafBody()
	}
	return *b
}

// compileLeafBody compiles fn as a leaf at its first call from a typed
// callback. Two goroutines may compile it at once: they compile the same
// closures, and one is kept.
func (fn *intFunc) compileLeafBody() *leafStmt {
	body := compileLeaf(fn)
	if fn.leaf.body.CompareAndSwap(nil, &body) && body != nil {
		fn.def.interp.intFast.leaves.Add(1)
	}
	return fn.leaf.body.Load()
}

// runLeaf runs body, fn's leaf form, with the arguments a0 and a1 in the
// frame anc. It reports false when the call panicked and must run in the
// interpreter instead, which raises the panic with its position.
func runLeaf(fn *intFunc, body leafStmt, a0, a1 int64, anc *frame) (res int64, ok bool) {
	defer func() {
		if recover() != nil {
			// A leaf neither loops nor calls: nothing in it raises
			// intStopped or intStale.
			panicked(fn.def)
			res, ok = 0, false
		}
	}()
	res, _ = body(a0, a1, anc)
	return res, true
}

// leafCompiler compiles a function of the int tier as a leaf.
type leafCompiler struct {
	intCompiler
	nparams int
}

// compileLeaf returns fn's body as a leaf, or nil when fn is not one.
func compileLeaf(fn *intFunc) (body leafStmt) {
	defer func() {
		if recover() != nil {
			body = nil // reflect, for a type the interpreter cannot make
		}
	}()
	def := fn.def
	if len(fn.params) > 2 || !sliceWordsOK || fn.method != nil || fn.void {
		return nil
	}
	// The tier's compiler maps the parameters to registers 1 and 2 (the
	// result's is 0); a leaf has no other.
	scratch := &intFunc{def: def, size: 1 + len(fn.params), params: fn.params, result: fn.result}
	c := &leafCompiler{
		intCompiler: intCompiler{funcs: map[*node]*intFunc{def: scratch}, fn: scratch, regs: map[int]int{}},
		nparams:     len(fn.params),
	}
	if !c.signatureSlots(def) {
		return nil
	}
	body, ok := c.stmt(def.child[3])
	if !ok {
		return nil
	}
	return body
}

// stmt compiles a statement of a leaf.
func (c *leafCompiler) stmt(n *node) (leafStmt, bool) {
	switch n.kind {
	case blockStmt:
		stmts := make([]leafStmt, 0, len(n.child))
		for _, s := range n.child {
			st, ok := c.stmt(s)
			if !ok {
				return nil, false
			}
			stmts = append(stmts, st)
		}
		if len(stmts) == 1 {
			return stmts[0], true
		}
		if len(stmts) == 2 {
			s0, s1 := stmts[0], stmts[1]
			return func(p0, p1 int64, anc *frame) (int64, bool) {
				if res, ret := s0(p0, p1, anc); ret {
					return res, true
				}
				return s1(p0, p1, anc)
			}, true
		}
		return func(p0, p1 int64, anc *frame) (int64, bool) {
			for _, s := range stmts {
				if res, ret := s(p0, p1, anc); ret {
					return res, true
				}
			}
			return 0, false
		}, true
	case ifStmt0, ifStmt1:
		return c.ifStmt(n)
	case returnStmt:
		if len(n.child) != 1 {
			return nil, false
		}
		if c.fn.result {
			if s := c.sliceCmp(n.child[0]); s != nil {
				return func(p0, p1 int64, anc *frame) (int64, bool) { return b2i(s.eval(p0, p1, anc)), true }, true
			}
			b, ok := c.boolExpr(n.child[0])
			if !ok {
				return nil, false
			}
			return func(p0, p1 int64, anc *frame) (int64, bool) { return b2i(b(p0, p1, anc)), true }, true
		}
		e, ok := c.intExpr(n.child[0])
		if !ok {
			return nil, false
		}
		return func(p0, p1 int64, anc *frame) (int64, bool) { return e(p0, p1, anc), true }, true
	}
	return nil, false
}

// ifStmt compiles if cond {...} [else ...] in a leaf.
func (c *leafCompiler) ifStmt(n *node) (leafStmt, bool) {
	if len(n.child) < 2 {
		return nil, false
	}
	then, ok := c.stmt(n.child[1])
	if !ok {
		return nil, false
	}
	if s := c.sliceCmp(n.child[0]); s != nil && len(n.child) == 2 {
		return func(p0, p1 int64, anc *frame) (int64, bool) {
			if s.eval(p0, p1, anc) {
				return then(p0, p1, anc)
			}
			return 0, false
		}, true
	}
	cond, ok := c.boolExpr(n.child[0])
	if !ok {
		return nil, false
	}
	if len(n.child) == 2 {
		return func(p0, p1 int64, anc *frame) (int64, bool) {
			if cond(p0, p1, anc) {
				return then(p0, p1, anc)
			}
			return 0, false
		}, true
	}
	els, ok := c.stmt(n.child[2])
	if !ok {
		return nil, false
	}
	return func(p0, p1 int64, anc *frame) (int64, bool) {
		if cond(p0, p1, anc) {
			return then(p0, p1, anc)
		}
		return els(p0, p1, anc)
	}, true
}
