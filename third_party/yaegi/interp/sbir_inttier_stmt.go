package interp

// The int tier's statements (sbir patch S9).

// stmt compiles the statement n.
func (c *intCompiler) stmt(n *node) (intStmt, bool) {
	switch n.kind {
	case blockStmt:
		return c.block(n.child)
	case ifStmt0, ifStmt1, ifStmt2, ifStmt3:
		return c.ifStmt(n)
	case forStmt0, forStmt1, forStmt2, forStmt3, forStmt4, forStmt5, forStmt6, forStmt7:
		return c.forStmt(n)
	case returnStmt:
		return c.returnStmt(n)
	case defineStmt, assignStmt:
		return c.assign(n)
	case incDecStmt:
		return c.incDec(n)
	case breakStmt, continueStmt:
		if len(n.child) != 0 {
			return nil, false // a label: not in the tier's vocabulary
		}
		ctl := ctlBreak
		if n.kind == continueStmt {
			ctl = ctlContinue
		}
		return func([]int64, *intRun) intCtl { return ctl }, true
	}
	return nil, false
}

// block compiles a list of statements.
func (c *intCompiler) block(list []*node) (intStmt, bool) {
	stmts := make([]intStmt, 0, len(list))
	for _, s := range list {
		st, ok := c.stmt(s)
		if !ok {
			return nil, false
		}
		stmts = append(stmts, st)
	}
	switch len(stmts) {
	case 0:
		return func([]int64, *intRun) intCtl { return ctlNext }, true
	case 1:
		return stmts[0], true
	case 2:
		s0, s1 := stmts[0], stmts[1]
		return func(r []int64, t *intRun) intCtl {
			if ctl := s0(r, t); ctl != ctlNext {
				return ctl
			}
			return s1(r, t)
		}, true
	}
	return func(r []int64, t *intRun) intCtl {
		for _, s := range stmts {
			if ctl := s(r, t); ctl != ctlNext {
				return ctl
			}
		}
		return ctlNext
	}, true
}

// ifStmt compiles if [init;] cond {...} [else ...].
func (c *intCompiler) ifStmt(n *node) (intStmt, bool) {
	ch := n.child
	var init intStmt
	if n.kind == ifStmt2 || n.kind == ifStmt3 {
		var ok bool
		if init, ok = c.stmt(ch[0]); !ok {
			return nil, false
		}
		ch = ch[1:]
	}
	cond, ok := c.boolExpr(ch[0])
	if !ok {
		return nil, false
	}
	then, ok := c.stmt(ch[1])
	if !ok {
		return nil, false
	}
	if len(ch) < 3 && init == nil {
		// No else: no call of an empty one (sbir patch S14).
		return func(r []int64, t *intRun) intCtl {
			if cond(r, t) {
				return then(r, t)
			}
			return ctlNext
		}, true
	}
	els := func([]int64, *intRun) intCtl { return ctlNext }
	if len(ch) > 2 {
		if els, ok = c.stmt(ch[2]); !ok {
			return nil, false
		}
	}
	if init == nil {
		return func(r []int64, t *intRun) intCtl {
			if cond(r, t) {
				return then(r, t)
			}
			return els(r, t)
		}, true
	}
	return func(r []int64, t *intRun) intCtl {
		init(r, t)
		if cond(r, t) {
			return then(r, t)
		}
		return els(r, t)
	}, true
}

// forParts says which of init, cond and post each kind of for statement
// has, in that order before its body.
var forParts = map[nkind][3]bool{
	forStmt0: {false, false, false},
	forStmt1: {true, false, false},
	forStmt2: {false, true, false},
	forStmt3: {true, true, false},
	forStmt4: {false, false, true},
	forStmt5: {false, true, true},
	forStmt6: {true, false, true},
	forStmt7: {true, true, true},
}

// forStmt compiles a three-clause or condition-only for statement.
func (c *intCompiler) forStmt(n *node) (intStmt, bool) {
	parts := forParts[n.kind]
	ch := n.child
	var init, post, body intStmt
	var cond boolExpr
	ok := true
	if parts[0] {
		init, ok = c.stmt(ch[0])
		ch = ch[1:]
	}
	if ok && parts[1] {
		cond, ok = c.boolExpr(ch[0])
		ch = ch[1:]
	}
	if ok && parts[2] {
		post, ok = c.stmt(ch[0])
		ch = ch[1:]
	}
	if ok && len(ch) == 1 {
		body, ok = c.stmt(ch[0])
	}
	if !ok || body == nil {
		return nil, false
	}
	if cond == nil {
		cond = func([]int64, *intRun) bool { return true }
	}
	c.fn.loops = true // checkStop panics
	return func(r []int64, t *intRun) intCtl {
		if init != nil {
			init(r, t)
		}
		for cond(r, t) {
			t.checkStop()
			switch body(r, t) {
			case ctlBreak:
				return ctlNext
			case ctlReturn:
				return ctlReturn
			}
			if post != nil {
				post(r, t)
			}
		}
		return ctlNext
	}, true
}

// returnStmt compiles return with the function's one result, or a bare
// return of a named result.
func (c *intCompiler) returnStmt(n *node) (intStmt, bool) {
	switch len(n.child) {
	case 0:
		return func([]int64, *intRun) intCtl { return ctlReturn }, true
	case 1:
		if c.fn.result {
			// The bool itself, not through value's wrapper: a call fewer
			// (sbir patch S14).
			b, ok := c.boolExpr(n.child[0])
			if !ok {
				return nil, false
			}
			return func(r []int64, t *intRun) intCtl {
				r[0] = b2i(b(r, t))
				return ctlReturn
			}, true
		}
		e, ok := c.value(n.child[0], false)
		if !ok {
			return nil, false
		}
		return func(r []int64, t *intRun) intCtl {
			r[0] = e(r, t)
			return ctlReturn
		}, true
	}
	return nil, false
}

// assign compiles x = e, x := e, x op= e, and a, b = e1, e2.
func (c *intCompiler) assign(n *node) (intStmt, bool) {
	if n.nleft != n.nright || n.nleft < 1 || len(n.child) != n.nleft+n.nright {
		return nil, false
	}
	if n.action != aAssign {
		if n.nleft != 1 || n.kind != assignStmt {
			return nil, false
		}
		return c.opAssign(n)
	}
	k := n.nleft
	rhs := make([]intExpr, k)
	for i, e := range n.child[k:] {
		lt := n.child[i].typ
		if n.child[i].ident == "_" {
			lt = e.typ
		}
		ok, isBool, _ := intKindNarrow(lt) // sbir patch S19: runes too
		if !ok {
			return nil, false
		}
		if rhs[i], ok = c.value(e, isBool); !ok {
			return nil, false
		}
	}
	// Where to store after the right side is compiled: in x := x + 1
	// the right x is an outer variable. The blank identifier stores
	// nowhere (nil): its value is computed, for its panics, and dropped.
	dst := make([]*intLoc, k)
	for i, l := range n.child[:k] {
		if l.kind == identExpr && l.ident == "_" {
			continue
		}
		loc, ok := c.loc(l, n.kind == defineStmt)
		if !ok {
			return nil, false
		}
		dst[i] = &loc
	}
	if k == 1 {
		if dst[0] == nil {
			e := rhs[0]
			return func(r []int64, t *intRun) intCtl {
				e(r, t)
				return ctlNext
			}, true
		}
		return dst[0].store(rhs[0]), true
	}
	return func(r []int64, t *intRun) intCtl {
		// All the right side first, as Go assigns a, b = b, a+b.
		var vals [8]int64
		v := vals[:0]
		if len(rhs) > len(vals) {
			v = make([]int64, 0, len(rhs))
		}
		for _, e := range rhs {
			v = append(v, e(r, t))
		}
		for i, d := range dst {
			if d != nil {
				d.setTo(r, t, v[i])
			}
		}
		return ctlNext
	}, true
}

// opAssign compiles x op= e.
func (c *intCompiler) opAssign(n *node) (intStmt, bool) {
	op, ok := opAssignOps[n.action]
	if !ok {
		return nil, false
	}
	if ok, isBool, _ := intKindNarrow(n.child[0].typ); !ok || isBool {
		return nil, false
	}
	l, ok := c.loc(n.child[0], false)
	if !ok {
		return nil, false
	}
	var e intExpr
	if k, ok := intConst(n.child[1]); ok {
		// A constant divisor of zero or negative shift count does not
		// compile: by a constant, nothing panics.
		e = func([]int64, *intRun) int64 { return k }
	} else if e, ok = c.intExpr(n.child[1]); !ok {
		return nil, false
	} else if mayPanic(op) {
		c.fn.panics = true
	}
	f := narrowed(n.child[0].typ, arith(op, l.load(), e)) // sbir patch S19
	if f == nil {
		return nil, false
	}
	return l.store(f), true
}

// opAssignOps maps x op= e to the operation op.
var opAssignOps = map[action]action{
	aAddAssign: aAdd, aSubAssign: aSub, aMulAssign: aMul, aQuoAssign: aQuo, aRemAssign: aRem,
	aAndAssign: aAnd, aOrAssign: aOr, aXorAssign: aXor, aAndNotAssign: aAndNot,
	aShlAssign: aShl, aShrAssign: aShr,
}

// incDec compiles x++ and x--.
func (c *intCompiler) incDec(n *node) (intStmt, bool) {
	if len(n.child) != 1 {
		return nil, false
	}
	if ok, isBool, _ := intKindNarrow(n.child[0].typ); !ok || isBool {
		return nil, false
	}
	l, ok := c.loc(n.child[0], false)
	if !ok {
		return nil, false
	}
	if l.level != 0 || isNarrow(n.child[0].typ) {
		by := int64(1)
		if n.action == aDec {
			by = -1
		}
		return l.store(narrowed(n.child[0].typ, arithConst(aAdd, l.load(), by))), true // sbir patch S19
	}
	d := l.reg
	if n.action == aDec {
		return func(r []int64, _ *intRun) intCtl { r[d]--; return ctlNext }, true
	}
	return func(r []int64, _ *intRun) intCtl { r[d]++; return ctlNext }, true
}
