package interp

// shiftOperandType returns the type an untyped constant shifted by a
// non-constant amount takes from the binary operation around it (sbir
// patch 63): in `p & (1 << i)` with p a Perm (uint8), 1 is a Perm, as it
// would be if the shift were replaced by its left operand alone. It
// returns nil when the other operand's type is unknown, untyped or not an
// integer type.
func shiftOperandType(interp *Interpreter, sc *scope, n *node) *itype {
	c, a := n, n.anc
	for a != nil && a.kind == parenExpr {
		c, a = a, a.anc
	}
	if a == nil || a.kind != binaryExpr || len(a.child) != 2 {
		return nil
	}
	switch a.action {
	case aShl, aShr, aLand, aLor:
		return nil
	}
	other := a.child[0]
	if other == c {
		other = a.child[1]
	}
	t := other.typ
	if t == nil {
		// The right operand is compiled after the shift.
		t, _ = topLevelType(interp, sc, other)
	}
	if t == nil || t.untyped || !isInt(t.TypeOf()) && !isUint(t.TypeOf()) {
		return nil
	}
	return t
}
