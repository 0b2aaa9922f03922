package interp

// The int tier's expressions (sbir patch S9). Each operation is Go's on
// int64, so it wraps, divides, and panics (a division by zero, a
// negative shift count) as gc's code for int does.

// value compiles n, of the tier's bool or int type as isBool says, to its
// register value.
func (c *intCompiler) value(n *node, isBool bool) (intExpr, bool) {
	if !isBool {
		return c.intExpr(n)
	}
	b, ok := c.boolExpr(n)
	if !ok {
		return nil, false
	}
	return func(r []int64, t *intRun) int64 {
		if b(r, t) {
			return 1
		}
		return 0
	}, true
}

// intExpr compiles n, an expression of type int or int64.
func (c *intCompiler) intExpr(n *node) (intExpr, bool) {
	if ok, isBool, _ := intKindNarrow(n.typ); !ok || isBool {
		return nil, false
	}
	if k, ok := intConst(n); ok {
		return func([]int64, *intRun) int64 { return k }, true
	}
	switch n.kind {
	case identExpr:
		d, ok := c.local(n, false)
		if !ok {
			return c.outerRead(n)
		}
		return func(r []int64, _ *intRun) int64 { return r[d] }, true
	case parenExpr:
		if len(n.child) != 1 {
			return nil, false
		}
		return c.intExpr(n.child[0])
	case unaryExpr:
		return c.unary(n)
	case binaryExpr:
		if len(n.child) != 2 {
			return nil, false
		}
		a, ok := c.intExpr(n.child[0])
		if !ok {
			return nil, false
		}
		var b intExpr
		if k, ok := intConst(n.child[1]); ok {
			if f := arithConst(n.action, a, k); f != nil {
				return narrowed(n.typ, f), true // sbir patch S19
			}
			// A constant shift count may be typed uint: its value is
			// what counts.
			b = func([]int64, *intRun) int64 { return k }
		} else if b, ok = c.intExpr(n.child[1]); !ok {
			return nil, false
		} else if mayPanic(n.action) {
			c.fn.panics = true
		}
		f := narrowed(n.typ, arith(n.action, a, b)) // sbir patch S19
		return f, f != nil
	case callExpr:
		return c.call(n)
	case indexExpr, selectorExpr:
		if l, ok := c.fieldLoc(n); ok {
			return l.load(), true // sbir patch S17
		}
		return c.sliceRead(n)
	}
	return nil, false
}

// unary compiles -x, +x and ^x.
func (c *intCompiler) unary(n *node) (intExpr, bool) {
	if len(n.child) != 1 {
		return nil, false
	}
	a, ok := c.intExpr(n.child[0])
	if !ok {
		return nil, false
	}
	switch n.action {
	case aNeg:
		return narrowed(n.typ, func(r []int64, t *intRun) int64 { return -a(r, t) }), true // sbir patch S19
	case aPos:
		return a, true
	case aBitNot:
		return narrowed(n.typ, func(r []int64, t *intRun) int64 { return ^a(r, t) }), true
	}
	return nil, false
}

// arith returns a op b, or nil for an operation the tier does not do.
func arith(op action, a, b intExpr) intExpr {
	switch op {
	case aAdd:
		return func(r []int64, t *intRun) int64 { return a(r, t) + b(r, t) }
	case aSub:
		return func(r []int64, t *intRun) int64 { return a(r, t) - b(r, t) }
	case aMul:
		return func(r []int64, t *intRun) int64 { return a(r, t) * b(r, t) }
	case aQuo:
		return func(r []int64, t *intRun) int64 { x := a(r, t); return x / b(r, t) }
	case aRem:
		return func(r []int64, t *intRun) int64 { x := a(r, t); return x % b(r, t) }
	case aAnd:
		return func(r []int64, t *intRun) int64 { return a(r, t) & b(r, t) }
	case aOr:
		return func(r []int64, t *intRun) int64 { return a(r, t) | b(r, t) }
	case aXor:
		return func(r []int64, t *intRun) int64 { return a(r, t) ^ b(r, t) }
	case aAndNot:
		return func(r []int64, t *intRun) int64 { return a(r, t) &^ b(r, t) }
	case aShl:
		return func(r []int64, t *intRun) int64 { x := a(r, t); return x << b(r, t) }
	case aShr:
		return func(r []int64, t *intRun) int64 { x := a(r, t); return x >> b(r, t) }
	}
	return nil
}

// mayPanic reports whether op, by a variable, may panic: a division or a
// remainder by zero, a shift by a negative count.
func mayPanic(op action) bool {
	return op == aQuo || op == aRem || op == aShl || op == aShr
}

// arithConst returns a op k for the operations worth a closure of their
// own (one call fewer), or nil.
func arithConst(op action, a intExpr, k int64) intExpr {
	switch op {
	case aAdd:
		return func(r []int64, t *intRun) int64 { return a(r, t) + k }
	case aSub:
		return func(r []int64, t *intRun) int64 { return a(r, t) - k }
	case aMul:
		return func(r []int64, t *intRun) int64 { return a(r, t) * k }
	case aRem:
		if k != 0 {
			return func(r []int64, t *intRun) int64 { return a(r, t) % k }
		}
	case aQuo:
		if k != 0 {
			return func(r []int64, t *intRun) int64 { return a(r, t) / k }
		}
	}
	return nil
}

// boolExpr compiles n, an expression of type bool.
func (c *intCompiler) boolExpr(n *node) (boolExpr, bool) {
	if ok, isBool := intKind(n.typ); !ok || !isBool {
		return nil, false
	}
	if k, ok := intConst(n); ok {
		b := k != 0
		return func([]int64, *intRun) bool { return b }, true
	}
	switch n.kind {
	case identExpr:
		d, ok := c.local(n, false)
		if !ok {
			e, ok := c.outerRead(n)
			if !ok {
				return nil, false
			}
			return func(r []int64, t *intRun) bool { return e(r, t) != 0 }, true
		}
		return func(r []int64, _ *intRun) bool { return r[d] != 0 }, true
	case parenExpr:
		if len(n.child) != 1 {
			return nil, false
		}
		return c.boolExpr(n.child[0])
	case unaryExpr:
		if n.action != aNot || len(n.child) != 1 {
			return nil, false
		}
		a, ok := c.boolExpr(n.child[0])
		if !ok {
			return nil, false
		}
		return func(r []int64, t *intRun) bool { return !a(r, t) }, true
	case landExpr, lorExpr:
		return c.logical(n)
	case binaryExpr:
		return c.compare(n)
	case callExpr, indexExpr, selectorExpr:
		var e intExpr
		var ok bool
		if n.kind == callExpr {
			e, ok = c.call(n)
		} else if l, isField := c.fieldLoc(n); isField {
			e, ok = l.load(), true // sbir patch S17
		} else {
			e, ok = c.sliceRead(n)
		}
		if !ok {
			return nil, false
		}
		return func(r []int64, t *intRun) bool { return e(r, t) != 0 }, true
	}
	return nil, false
}

// logical compiles a && b and a || b.
func (c *intCompiler) logical(n *node) (boolExpr, bool) {
	if len(n.child) != 2 {
		return nil, false
	}
	a, ok := c.boolExpr(n.child[0])
	if !ok {
		return nil, false
	}
	b, ok := c.boolExpr(n.child[1])
	if !ok {
		return nil, false
	}
	if n.kind == landExpr {
		return func(r []int64, t *intRun) bool { return a(r, t) && b(r, t) }, true
	}
	return func(r []int64, t *intRun) bool { return a(r, t) || b(r, t) }, true
}

// compare compiles a comparison of two ints, or == and != of two bools.
func (c *intCompiler) compare(n *node) (boolExpr, bool) {
	if len(n.child) != 2 {
		return nil, false
	}
	ok0, b0, _ := intKindNarrow(n.child[0].typ) // sbir patch S19: runes too
	ok1, b1, _ := intKindNarrow(n.child[1].typ)
	if !ok0 || !ok1 || b0 != b1 || (b0 && n.action != aEqual && n.action != aNotEqual) {
		return nil, false
	}
	if !b0 {
		if f := c.sliceCompare(n); f != nil {
			return f, true // sbir patch S14
		}
	}
	a, ok := c.value(n.child[0], b0)
	if !ok {
		return nil, false
	}
	if k, ok := intConst(n.child[1]); ok {
		f := compareK(n.action, a, k)
		return f, f != nil
	}
	b, ok := c.value(n.child[1], b1)
	if !ok {
		return nil, false
	}
	f := compare(n.action, a, b)
	return f, f != nil
}

// compare returns a op b for a comparison op, or nil.
func compare(op action, a, b intExpr) boolExpr {
	switch op {
	case aEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) == b(r, t) }
	case aNotEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) != b(r, t) }
	case aLower:
		return func(r []int64, t *intRun) bool { return a(r, t) < b(r, t) }
	case aLowerEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) <= b(r, t) }
	case aGreater:
		return func(r []int64, t *intRun) bool { return a(r, t) > b(r, t) }
	case aGreaterEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) >= b(r, t) }
	}
	return nil
}

// compareK returns a op k for a comparison op, or nil.
func compareK(op action, a intExpr, k int64) boolExpr {
	switch op {
	case aEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) == k }
	case aNotEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) != k }
	case aLower:
		return func(r []int64, t *intRun) bool { return a(r, t) < k }
	case aLowerEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) <= k }
	case aGreater:
		return func(r []int64, t *intRun) bool { return a(r, t) > k }
	case aGreaterEqual:
		return func(r []int64, t *intRun) bool { return a(r, t) >= k }
	}
	return nil
}

// call compiles a call of a declared function the tier can run too.
func (c *intCompiler) call(n *node) (intExpr, bool) {
	if n.action != aCall || len(n.child) == 0 {
		return nil, false
	}
	c0 := n.child[0]
	if c0.kind == selectorExpr && len(c0.child) == 2 && c0.child[0].typ != nil && c0.child[0].typ.cat == binPkgT {
		return c.binCall(n) // sbir patch S19
	}
	if c0.kind != identExpr || c0.sym == nil || c0.sym.kind != funcSym {
		return nil, false
	}
	decl, ok := c0.val.(*node)
	if !ok || decl.kind != funcDecl {
		return nil, false
	}
	if decl.latest != nil {
		decl = currentDecl(decl)
	}
	callee, ok := c.function(decl)
	if !ok || len(callee.params) != len(n.child)-1 || callee.writes || callee.void {
		// A callee writing outside itself would write again when the
		// call is run again (sbir_inttier_outer.go).
		return nil, false
	}
	c.fn.panics = true // the callee may, and may be declared again
	args := make([]intExpr, len(callee.params))
	for i, a := range n.child[1:] {
		if args[i], ok = c.value(a, callee.params[i]); !ok {
			return nil, false
		}
	}
	return intCall(callee, decl, args), true
}
