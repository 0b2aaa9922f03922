package interp

import "unsafe"

// The expressions of a leaf (sbir patch S14, sbir_inttier_leaf.go): each
// operation is Go's on int64, as the int tier's (sbir_inttier_expr.go).

// param returns the parameter n names (0 or 1), or false.
func (c *leafCompiler) param(n *node) (int, bool) {
	if n.kind != identExpr {
		return 0, false
	}
	r, ok := c.local(n, false)
	if !ok || r < 1 || r > c.nparams {
		return 0, false // the result, or a local
	}
	return r - 1, true
}

// intExpr compiles n, an int expression of a leaf.
func (c *leafCompiler) intExpr(n *node) (leafExpr, bool) {
	if ok, isBool := intKind(n.typ); !ok || isBool {
		return nil, false
	}
	return c.value(n)
}

// value compiles n, an int or bool expression of a leaf, to its int
// value (a bool is 0 or 1).
func (c *leafCompiler) value(n *node) (leafExpr, bool) {
	ok, isBool := intKind(n.typ)
	if !ok {
		return nil, false
	}
	if k, ok := intConst(n); ok {
		return func(int64, int64, *frame) int64 { return k }, true
	}
	if isBool {
		b, ok := c.boolExpr(n)
		if !ok {
			return nil, false
		}
		return func(p0, p1 int64, anc *frame) int64 { return b2i(b(p0, p1, anc)) }, true
	}
	switch n.kind {
	case identExpr:
		return c.ident(n)
	case parenExpr:
		if len(n.child) != 1 {
			return nil, false
		}
		return c.intExpr(n.child[0])
	case unaryExpr:
		if len(n.child) != 1 {
			return nil, false
		}
		a, ok := c.intExpr(n.child[0])
		if !ok {
			return nil, false
		}
		switch n.action {
		case aNeg:
			return func(p0, p1 int64, anc *frame) int64 { return -a(p0, p1, anc) }, true
		case aPos:
			return a, true
		case aBitNot:
			return func(p0, p1 int64, anc *frame) int64 { return ^a(p0, p1, anc) }, true
		}
	case binaryExpr:
		if len(n.child) != 2 {
			return nil, false
		}
		a, ok := c.intExpr(n.child[0])
		if !ok {
			return nil, false
		}
		b, ok := c.value(n.child[1]) // a shift count may be a typed constant
		if !ok {
			return nil, false
		}
		f := leafArith(n.action, a, b)
		return f, f != nil
	case indexExpr, selectorExpr:
		return c.sliceRead(n)
	}
	return nil, false
}

// ident compiles a read of a parameter, a variable the literal captures
// or a global.
func (c *leafCompiler) ident(n *node) (leafExpr, bool) {
	if k, ok := c.param(n); ok {
		if k == 0 {
			return func(p0, _ int64, _ *frame) int64 { return p0 }, true
		}
		return func(_, p1 int64, _ *frame) int64 { return p1 }, true
	}
	level, index, ok := c.outer(n)
	if !ok || (level != 1 && level != globalFrame) {
		return nil, false
	}
	global := level == globalFrame
	if _, isBool := intKind(n.typ); isBool {
		return func(_, _ int64, anc *frame) int64 { return b2i(leafFrame(anc, global).data[index].Bool()) }, true
	}
	return func(_, _ int64, anc *frame) int64 { return leafFrame(anc, global).data[index].Int() }, true
}

// leafFrame returns the frame of a leaf's outer variable.
func leafFrame(anc *frame, global bool) *frame {
	if global {
		return anc.root
	}
	return anc
}

// leafArith returns a op b, or nil for an operation the tier does not do.
func leafArith(op action, a, b leafExpr) leafExpr {
	switch op {
	case aAdd:
		return func(p0, p1 int64, f *frame) int64 { return a(p0, p1, f) + b(p0, p1, f) }
	case aSub:
		return func(p0, p1 int64, f *frame) int64 { return a(p0, p1, f) - b(p0, p1, f) }
	case aMul:
		return func(p0, p1 int64, f *frame) int64 { return a(p0, p1, f) * b(p0, p1, f) }
	case aQuo:
		return func(p0, p1 int64, f *frame) int64 { x := a(p0, p1, f); return x / b(p0, p1, f) }
	case aRem:
		return func(p0, p1 int64, f *frame) int64 { x := a(p0, p1, f); return x % b(p0, p1, f) }
	case aAnd:
		return func(p0, p1 int64, f *frame) int64 { return a(p0, p1, f) & b(p0, p1, f) }
	case aOr:
		return func(p0, p1 int64, f *frame) int64 { return a(p0, p1, f) | b(p0, p1, f) }
	case aXor:
		return func(p0, p1 int64, f *frame) int64 { return a(p0, p1, f) ^ b(p0, p1, f) }
	case aAndNot:
		return func(p0, p1 int64, f *frame) int64 { return a(p0, p1, f) &^ b(p0, p1, f) }
	case aShl:
		return func(p0, p1 int64, f *frame) int64 { x := a(p0, p1, f); return x << b(p0, p1, f) }
	case aShr:
		return func(p0, p1 int64, f *frame) int64 { x := a(p0, p1, f); return x >> b(p0, p1, f) }
	}
	return nil
}

// boolExpr compiles n, a bool expression of a leaf.
func (c *leafCompiler) boolExpr(n *node) (leafBool, bool) {
	if ok, isBool := intKind(n.typ); !ok || !isBool {
		return nil, false
	}
	if k, ok := intConst(n); ok {
		b := k != 0
		return func(int64, int64, *frame) bool { return b }, true
	}
	switch n.kind {
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
		return func(p0, p1 int64, f *frame) bool { return !a(p0, p1, f) }, true
	case landExpr, lorExpr:
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
			return func(p0, p1 int64, f *frame) bool { return a(p0, p1, f) && b(p0, p1, f) }, true
		}
		return func(p0, p1 int64, f *frame) bool { return a(p0, p1, f) || b(p0, p1, f) }, true
	case binaryExpr:
		return c.compare(n)
	case identExpr, indexExpr, selectorExpr:
		var e leafExpr
		var ok bool
		if n.kind == identExpr {
			e, ok = c.ident(n)
		} else {
			e, ok = c.sliceRead(n)
		}
		if !ok {
			return nil, false
		}
		return func(p0, p1 int64, f *frame) bool { return e(p0, p1, f) != 0 }, true
	}
	return nil, false
}

// compare compiles a comparison of two ints, or == and != of two bools,
// in a leaf.
func (c *leafCompiler) compare(n *node) (leafBool, bool) {
	if len(n.child) != 2 {
		return nil, false
	}
	ok0, b0 := intKind(n.child[0].typ)
	ok1, b1 := intKind(n.child[1].typ)
	mask := compareMask(n.action)
	if !ok0 || !ok1 || b0 != b1 || mask == 0 || (b0 && n.action != aEqual && n.action != aNotEqual) {
		return nil, false
	}
	if s := c.sliceCmp(n); s != nil {
		return func(p0, p1 int64, f *frame) bool { return s.eval(p0, p1, f) }, true
	}
	a, ok := c.value(n.child[0])
	if !ok {
		return nil, false
	}
	b, ok := c.value(n.child[1])
	if !ok {
		return nil, false
	}
	return func(p0, p1 int64, f *frame) bool {
		x := a(p0, p1, f)
		return mask>>order(x, b(p0, p1, f))&1 != 0
	}, true
}

// leafAccess returns the fast slice access n is, its index a parameter,
// or false.
func (c *leafCompiler) leafAccess(n *node) (*sliceAccess, int, bool) {
	if !isSliceRead(n) {
		return nil, 0, false
	}
	a, ok := c.sliceAccess(n)
	if !ok || !a.fast() {
		return nil, 0, false
	}
	k, ok := c.param(a.idxNode)
	return a, k, ok
}

// sliceRead compiles n, s[i] or s[i].f of a slice a literal captures or
// a global, in a leaf: the header read from the variable's Value
// (sliceWords), or through reflect when it holds another type's.
func (c *leafCompiler) sliceRead(n *node) (leafExpr, bool) {
	a, ok := c.sliceAccess(n)
	if !ok || !a.fast() {
		return nil, false
	}
	ie, ok := c.intExpr(a.idxNode)
	if !ok {
		return nil, false
	}
	a.in.intFast.reads.Add(1)
	global, index, typ, size, off, isBool := a.level == globalFrame, a.index, a.typ, a.size, a.off, a.isBool
	return func(p0, p1 int64, anc *frame) int64 {
		f := leafFrame(anc, global)
		i := ie(p0, p1, anc)
		h := sliceWords(&f.data[index], typ)
		var data unsafe.Pointer
		var n int
		if h != nil {
			data, n = h.data, h.len
		} else {
			a.in.intFast.missed.Add(1)
			data, n = sliceValue(f.data[index], size)
		}
		if uint64(i) >= uint64(n) {
			panic(intDeopt)
		}
		p := unsafe.Add(data, uintptr(i)*size+off)
		if isBool {
			return b2i(*(*bool)(p))
		}
		return *(*int64)(p)
	}, true
}

// sliceCmp is a op b, both reads of int elements of one slice indexed
// by parameters (s[i].f < s[j].g), compiled as one step (sliceCompare
// of the tier's): the header read once. A comparison, a return of one
// and an if on one call its eval directly, not through another closure.
type sliceCmp struct {
	global     bool           // the slice is a global, else captured
	index      int            // its variable's slot
	typ        unsafe.Pointer // its type's descriptor
	size       uintptr        // the element's size
	offA, offB uintptr        // the fields' offsets in the element
	ka, kb     int            // the parameter indexing each side
	mask       uint           // compareMask
	in         *Interpreter
}

// eval returns a op b for the parameters p0 and p1, the frame anc.
func (s *sliceCmp) eval(p0, p1 int64, anc *frame) bool {
	f := anc
	if s.global {
		f = anc.root
	}
	w := (*valueWords)(unsafe.Pointer(&f.data[s.index]))
	if w.typ != s.typ {
		return s.missed(p0, p1, f)
	}
	h := (*sliceHeader)(w.ptr)
	i, j := p0, p1
	if s.ka != 0 {
		i = p1
	}
	if s.kb == 0 {
		j = p0
	}
	if uint64(i) >= uint64(h.len) || uint64(j) >= uint64(h.len) {
		panic(intDeopt)
	}
	x := *(*int64)(unsafe.Add(h.data, uintptr(i)*s.size+s.offA))
	y := *(*int64)(unsafe.Add(h.data, uintptr(j)*s.size+s.offB))
	return s.mask>>order(x, y)&1 != 0
}

// missed is eval for a variable holding a value of another type
// descriptor than compiled: the slice read through reflect.
func (s *sliceCmp) missed(p0, p1 int64, f *frame) bool {
	s.in.intFast.missed.Add(1)
	data, n := sliceValue(f.data[s.index], s.size)
	i, j := p0, p1
	if s.ka != 0 {
		i = p1
	}
	if s.kb == 0 {
		j = p0
	}
	if uint64(i) >= uint64(n) || uint64(j) >= uint64(n) {
		panic(intDeopt)
	}
	x := *(*int64)(unsafe.Add(data, uintptr(i)*s.size+s.offA))
	y := *(*int64)(unsafe.Add(data, uintptr(j)*s.size+s.offB))
	return s.mask>>order(x, y)&1 != 0
}

// sliceCmp returns n as a sliceCmp, or nil when it is not one.
func (c *leafCompiler) sliceCmp(n *node) *sliceCmp {
	for n.kind == parenExpr && len(n.child) == 1 {
		n = n.child[0]
	}
	if n.kind != binaryExpr || len(n.child) != 2 {
		return nil
	}
	ok0, b0 := intKind(n.child[0].typ)
	ok1, b1 := intKind(n.child[1].typ)
	mask := compareMask(n.action)
	if !ok0 || !ok1 || b0 || b1 || mask == 0 {
		return nil
	}
	a, ka, ok := c.leafAccess(n.child[0])
	if !ok || a.isBool {
		return nil
	}
	b, kb, ok := c.leafAccess(n.child[1])
	if !ok || b.isBool || b.level != a.level || b.index != a.index || b.typ != a.typ {
		return nil
	}
	a.in.intFast.reads.Add(2)
	return &sliceCmp{global: a.level == globalFrame, index: a.index, typ: a.typ, size: a.size,
		offA: a.off, offB: b.off, ka: ka, kb: kb, mask: mask, in: a.in}
}
