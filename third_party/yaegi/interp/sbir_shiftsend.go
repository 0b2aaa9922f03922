package interp

import "reflect"

// sbir patch 194: two values given a type they cannot have, which gc
// refuses and the interpreter ran: an untyped constant shifted by a
// variable takes the type its context gives it, which must be an integer
// type (`var f float64 = 1 << n` printed 0 where gc says "invalid
// operation: shifted operand 1 (type float64) must be integer"), and a
// value sent on a channel must be assignable to its element type (`ch <-
// x` with x an int on a chan int8 panicked in reflect when it ran).

// shiftOperandError is gc's error for shift n of an untyped constant by
// a non-constant count when the type the shift takes from its context is
// not an integer type.
func shiftOperandError(n *node) error {
	c0, c1 := n.child[0], n.child[1]
	if !isShiftNode(n) || c0.typ == nil || !c0.typ.untyped || c1.rval.IsValid() {
		return nil
	}
	t := n.typ
	if t == nil || t.untyped || isInterface(t) || t.cat == genericT || isInt(t.TypeOf()) {
		return nil
	}
	return n.cfgErrorf("invalid operation: shifted operand %s (%s) must be integer", exprString(c0), typeDescription(t))
}

// sendValueError is gc's error for value v sent on a channel of element
// type et when v is not assignable to et: "cannot use x (variable of
// type int) as int8 value in send". Untyped constants are checked by
// patch 180, operations by patch 190.
func sendValueError(v *node, et *itype) error {
	if v.typ == nil || v.typ.untyped || et == nil || isInterface(et) || et.cat == genericT || v.typ.cat == genericT {
		return nil
	}
	if isBasicKind(v.typ.TypeOf()) && isBasicKind(et.TypeOf()) {
		// A defined type shares its reflect type with its underlying
		// one, which assignableTo compares: D and int are both int.
		if v.typ.equals(et) {
			return nil
		}
	} else if v.typ.assignableTo(et) {
		return nil
	}
	what := "value"
	if v.kind == identExpr && v.sym != nil && v.sym.kind == varSym {
		what = "variable"
	}
	expr := exprString(v)
	if expr == "constant" && !v.rval.IsValid() {
		expr = "value" // exprString prints the expressions constants are made of
	}
	return v.cfgErrorf("cannot use %s (%s of %s) as %s value in send", expr, what, typeDescription(v.typ), localTypeName(et))
}

// shiftAssignError is gc's error for value n, given to non-integer type
// typ in an assignment, when n is (or is an untyped operation on) a shift
// of an untyped constant by a variable: the constant takes typ, which
// cannot be shifted. `f = 1 << n` with f a float64 took f's type only
// after the shift was compiled, computed in int, and stored the int's
// bits in the float64: 0.
func shiftAssignError(n *node, typ *itype) error {
	if typ == nil || isInterface(typ) || typ.cat == genericT || isInt(typ.TypeOf()) || !isNumber(typ.TypeOf()) {
		return nil
	}
	s := untypedShift(n)
	if s == nil {
		return nil
	}
	return s.cfgErrorf("invalid operation: shifted operand %s (%s) must be integer", exprString(s.child[0]), typeDescription(typ))
}

// untypedShift is the shift of an untyped constant by a non-constant
// count that untyped operation n is or is made of, through parentheses,
// unary operators and arithmetic with untyped operands; nil if none.
func untypedShift(n *node) *node {
	switch n.kind {
	case parenExpr:
		return untypedShift(n.child[0])
	case unaryExpr:
		if n.action == aNeg || n.action == aPos || n.action == aBitNot {
			return untypedShift(n.child[0])
		}
	case binaryExpr:
		if isBoolAction(n) || operationType(n) != nil {
			return nil
		}
		if isShiftNode(n) {
			c0, c1 := n.child[0], n.child[1]
			if operandType(c0) == nil && c0.rval.IsValid() && !c1.rval.IsValid() {
				return n
			}
			return nil
		}
		if s := untypedShift(n.child[0]); s != nil {
			return s
		}
		return untypedShift(n.child[1])
	}
	return nil
}

// isBasicKind reports whether t is a boolean, numeric or string type.
func isBasicKind(t reflect.Type) bool {
	return t != nil && (isBoolean(t) || isNumber(t) || isString(t))
}
