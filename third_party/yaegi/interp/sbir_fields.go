package interp

import (
	"reflect"
	"unsafe"
)

// sbir patch S11b: an int field of a local struct, or of the struct a
// local pointer points to, read or updated by an operator of S7 is
// reached through its address, in the operator's own step.
//
// p.n += x ran as two steps: the selector (getPtrIndexSeq, getIndexSeq)
// took the field as a reflect.Value (Elem, FieldByIndex) into its frame
// slot, then S7's operator read and set that slot. The selector's step
// was most of the statement's cost, and the slot, pointed at the field,
// had to be pointed back at its own value before the frame was used
// again (S8). When the selector's parent is an operator that S7 makes
// direct (+=, -=, *=, ++, --, +, -, *, and the comparisons), on ints,
// whose other operand is a constant or a value of the function's own
// frame, and nothing runs between the selector and its parent, the
// selector's step now does the parent's work: it checks that the local
// holds a value of the type the code was compiled for (the exact
// reflect type, and an addressable value), finds the field at its
// offset, and reads or writes it as an int64 (int and int64 fields of 8
// bytes only). Anything else, a nil pointer included, runs the two steps
// as before: the selector's original step, then the parent's.

// fieldOp is the parent operator of a fused selector.
type fieldOp struct {
	op     action
	a      bool    // the field is the operator's left operand
	other  operand // the other operand (a constant or a local)
	dest   int     // the local the result goes to (+, -, *, comparisons)
	assign bool    // x op= y, x++, x--: the field is the destination
}

// fieldRef is where a fused selector finds its field: at off in the
// struct held in the local slot (of type typ), or pointed to by it.
type fieldRef struct {
	slot   int
	typ    unsafe.Pointer // the local's type (typeWord)
	off    uintptr
	viaPtr bool
}

// addr returns the field's address, or nil when the local is not of the
// type the code was compiled for, not addressable, or a nil pointer: the
// caller then takes the original steps.
func (r *fieldRef) addr(f *frame) unsafe.Pointer {
	p := addrOfType(f.data[r.slot], r.typ)
	if p != nil && r.viaPtr {
		p = *(*unsafe.Pointer)(p)
	}
	if p == nil {
		return nil
	}
	return unsafe.Add(p, r.off)
}

// fuseFieldSelector makes n, a selector whose step gen has just set,
// do its parent's work too when it can (see above). viaPtr tells a
// selector through a pointer (getPtrIndexSeq) from one of a struct
// value (getIndexSeq).
func fuseFieldSelector(n *node, viaPtr bool) {
	ref, ok := fieldSelector(n, viaPtr)
	if !ok || !valueWordsOK {
		return
	}
	fo, ok := fieldParent(n)
	if !ok {
		return
	}
	p := n.anc
	if p.exec == nil || !execMade(p.tnext) || !execMade(p.fnext) {
		// The parent's continuations are not made yet (a loop being
		// compiled): keep the two steps.
		return
	}
	if fo.assign {
		n.exec = fieldAssign(fo, ref, n.exec, getExec(p.tnext))
		return
	}
	var fnext bltn
	if p.fnext != nil {
		fnext = getExec(p.fnext)
	}
	n.exec = fieldOperator(fo, ref, n.exec, getExec(p.tnext), fnext)
}

// execMade reports whether the step of n, a continuation, is made: a
// return statement that ends the function has none (its gen, _return,
// leaves it nil; getExec makes it again).
func execMade(n *node) bool {
	return n == nil || n.exec != nil || n.kind == returnStmt && n.tnext == nil
}

// fieldSelector reports whether n selects an exported int or int64 field
// (of 8 bytes) of the struct in a local (viaPtr false) or of the struct a
// local points to, by a single index, and returns where the field is.
func fieldSelector(n *node, viaPtr bool) (*fieldRef, bool) {
	if n.kind != selectorExpr || len(n.child) < 1 || n.fnext != nil || n.anc == nil || n.tnext != n.anc {
		return nil, false
	}
	index, isIndex := n.val.([]int)
	if !isIndex || len(index) != 1 || n.child[0].typ == nil {
		return nil, false
	}
	l, i, inFrame := frameSlot(n.child[0])
	if !inFrame || l != 0 {
		return nil, false
	}
	st := n.child[0].typ.TypeOf()
	t := st
	if viaPtr {
		if st == nil || st.Kind() != reflect.Pointer {
			return nil, false
		}
		t = st.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct || index[0] < 0 || index[0] >= t.NumField() {
		return nil, false
	}
	sf := t.Field(index[0])
	if !sf.IsExported() || (sf.Type.Kind() != reflect.Int && sf.Type.Kind() != reflect.Int64) || sf.Type.Size() != 8 {
		return nil, false
	}
	return &fieldRef{slot: i, typ: typeWord(st), off: sf.Offset, viaPtr: viaPtr}, true
}

// fieldParent returns the operator that n's parent is, when S7 makes it
// direct and its other operand is a constant or a local.
func fieldParent(n *node) (fieldOp, bool) {
	p := n.anc
	if len(p.child) == 0 || len(p.child) > 2 || (p.child[0] != n && (len(p.child) < 2 || p.child[1] != n)) {
		return fieldOp{}, false
	}
	fo := fieldOp{op: p.action, a: p.child[0] == n}
	switch p.action {
	case aAddAssign, aSubAssign, aMulAssign, aInc, aDec:
		fo.assign = true
		if !fo.a || (p.kind != assignStmt && p.kind != incDecStmt) {
			return fieldOp{}, false
		}
	case aAdd, aSub, aMul, aEqual, aNotEqual, aLower, aLowerEqual, aGreater, aGreaterEqual:
		if p.kind != binaryExpr {
			return fieldOp{}, false
		}
	default:
		return fieldOp{}, false
	}
	o, ok := intOperands(p, fo.assign)
	if !ok {
		return fieldOp{}, false
	}
	fo.other = o.b
	if !fo.a {
		fo.other = o.a
	}
	if !fo.other.isConst && fo.other.level != 0 {
		return fieldOp{}, false
	}
	if !fo.assign {
		if o.dest.level != 0 {
			return fieldOp{}, false
		}
		fo.dest = o.dest.index
	}
	return fo, true
}

// fieldAssign is the step of p.f op= y, p.f++ and p.f--, with orig the
// selector's original step (the two steps as before).
func fieldAssign(fo fieldOp, ref *fieldRef, orig, next bltn) bltn {
	op, yi, c := fo.op, fo.other.index, fo.other.cInt
	switch op {
	case aInc:
		op, c = aAddAssign, 1
	case aDec:
		op, c = aAddAssign, -1
	}
	if fo.other.isConst {
		return func(f *frame) bltn {
			p := ref.addr(f)
			if p == nil {
				return orig(f)
			}
			*(*int64)(p) = intAssignOp(op, *(*int64)(p), c)
			return next
		}
	}
	return func(f *frame) bltn {
		p := ref.addr(f)
		if p == nil {
			return orig(f)
		}
		*(*int64)(p) = intAssignOp(op, *(*int64)(p), f.data[yi].Int())
		return next
	}
}

// intAssignOp is x op= y for op one of +=, -=, *=.
func intAssignOp(op action, x, y int64) int64 {
	switch op {
	case aAddAssign:
		return x + y
	case aSubAssign:
		return x - y
	}
	return x * y
}

// fieldOperator is the step of a binary operator with a field operand,
// its result set in the local dest; fnext, when not nil, is where a false
// comparison goes.
func fieldOperator(fo fieldOp, ref *fieldRef, orig, tnext, fnext bltn) bltn {
	op, yi, c, fa, d := fo.op, fo.other.index, fo.other.cInt, fo.a, fo.dest
	isConst := fo.other.isConst
	operands := func(f *frame, p unsafe.Pointer) (int64, int64) {
		y := c
		if !isConst {
			y = f.data[yi].Int()
		}
		if fa {
			return *(*int64)(p), y
		}
		return y, *(*int64)(p)
	}
	switch op {
	case aAdd, aSub, aMul:
		return func(f *frame) bltn {
			p := ref.addr(f)
			if p == nil {
				return orig(f)
			}
			x, y := operands(f, p)
			setInt(f.data[d], intArith(op, x, y)) // sbir patch S16
			return tnext
		}
	}
	return func(f *frame) bltn {
		p := ref.addr(f)
		if p == nil {
			return orig(f)
		}
		x, y := operands(f, p)
		r := intCompare(op, x, y)
		setBool(f.data[d], r) // sbir patch S16
		if !r && fnext != nil {
			return fnext
		}
		return tnext
	}
}

// intArith is x op y for op one of +, -, *.
func intArith(op action, x, y int64) int64 {
	switch op {
	case aAdd:
		return x + y
	case aSub:
		return x - y
	}
	return x * y
}

// intCompare is x op y for op a comparison.
func intCompare(op action, x, y int64) bool {
	switch op {
	case aEqual:
		return x == y
	case aNotEqual:
		return x != y
	case aLower:
		return x < y
	case aLowerEqual:
		return x <= y
	case aGreater:
		return x > y
	}
	return x >= y
}
