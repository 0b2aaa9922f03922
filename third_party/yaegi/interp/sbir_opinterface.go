package interp

import "reflect"

// sbir patch 220: an operation with a typed operand given to an interface
// (`var s fmt.Stringer = 1500 * time.Millisecond`, `return d * 2` from a
// func() fmt.Stringer) is computed in its own type and converted by the
// declaration or the return (nodeType2 in type.go keeps the operation's
// type). The cfg computes a returned operation in the result's slot to
// save a copy, which an operation of another type than the result cannot
// do: the two places that decide it, binaryExpr in cfg.go and _return in
// run.go, ask returnedInPlace.

// returnedInPlace reports whether n, a binary expression, a unary
// expression or a builtin call returned by a function declared by def,
// computes its value in its result's slot of the frame, leaving nothing
// for the return to do. It does unless its result is an interface (the
// operation's value is then of its operands' type, and the return
// converts it: wraps a value of an interpreted type, keeps a compiled
// one's methods) or the slot is a named result that another value of the
// return may read (sbir patch 223, clobbersNamedResult).
func returnedInPlace(def, n *node) bool {
	ret := returnType(def, n)
	return ret != nil && !isInterface(ret) && !clobbersNamedResult(def, n)
}

// returnType is the type of the result that n, a child of a return
// statement in the function declared by def, is returned as; nil when the
// function has no such result.
func returnType(def, n *node) *itype {
	if def == nil || def.typ == nil {
		return nil
	}
	if i := childPos(n); i >= 0 && i < len(def.typ.ret) {
		return def.typ.ret[i]
	}
	return nil
}

// inResultSlot reports whether n, a child of a return statement, computes
// its value in its result's slot (a function's results are the first
// slots of its frame): genValueOutput then stores it there as the result
// type holds it. An operation computed in a slot of its own (an interface
// result's, returnedInPlace) is stored as it is, and the return converts
// it: wrapped for the result there, it panicked in reflect.Set (`return d
// * 2` from a func() of an interface the program declares).
func inResultSlot(n *node) bool {
	return n.level == 0 && n.findex == childPos(n)
}

// isInterfaceDest reports whether t, the type of an operation's
// destination, is an interface type: one the program declares, error, or
// a compiled one (fmt.Stringer). It reads the itype only: computing the
// reflect type of a destination not yet resolved (an operand of an
// undefined name) would fix it early, and the type check's error for the
// undefined name would become a panic.
func isInterfaceDest(t *itype) bool {
	t = resolveLinked(t)
	switch {
	case t == nil:
		return false
	case t.cat == interfaceT, t.cat == errorT:
		return true
	case t.cat == valueT:
		return t.rtype != nil && t.rtype.Kind() == reflect.Interface
	}
	return false
}

// returnedAs is the result type that n, a child of a return statement
// already compiled (its val is the function's declaration), is returned
// as; nil if none.
func returnedAs(n *node) *itype {
	def, _ := n.anc.val.(*node)
	return returnType(def, n)
}

// sameResultType reports whether call n, returned by the function
// declared by def, may store its first result in its result's slot: its
// type is the result's (sbir patch 222: the result at the call's
// position; the first result's type was compared, so that `return 1, g()`
// with g returning a celsius and a second result of type any or
// fmt.Stringer stored the bare value in the interface's slot, a panic in
// reflect.Set or in fmt), and no other value of the return reads the slot
// (sbir patch 223).
func sameResultType(def, n *node) bool {
	ret := returnType(def, n)
	return ret != nil && n.typ != nil && n.typ.id() == ret.id() && !clobbersNamedResult(def, n)
}
