package interp

// sbir patch 170: the left operand of ||, a constant the compiler folded
// from an operation (!true, 1 > 2, !T, a && b of constants, B(false)),
// branches like a literal one.
//
// setFNext makes a condition a branch only when its action is aNop (a
// literal, an identifier). A unary or binary expression folded to a
// constant keeps its operator's action and runs as nop, straight to its
// tnext, which for || is the || itself: the right operand never ran, and
// x || y read its slot unset, so !true || x == 1 was false, and an if or
// a for on it took the wrong way. && was right by its wiring (the left
// operand's tnext is the right operand's start).

// branchOnFolded makes c, the left operand of ||, a branch on its value
// (setFNext gives it its way when false) when it is a constant folded
// from an operation.
func branchOnFolded(c *node) {
	for c.kind == parenExpr && len(c.child) > 0 {
		c = c.lastChild() // setFNext goes through parentheses itself
	}
	if c.action != aNop && c.rval.IsValid() && c.findex == notInFrame && sameGenerator(c.gen, nop) {
		// Its generator only: its action stays its operator's, which a
		// constant declaration compiled again folds by.
		c.gen = branch
	}
}
