package interp

// sbir patch S11d: a step that does nothing is not a step.
//
// Statements and expressions that compute nothing at run time (a block,
// the end of an if statement, an expression statement, a method
// selector whose call runs the method directly) were steps of their own
// that only returned the next step: in a loop calling a method, seven
// of the twenty steps of an iteration, each paying the run loop's
// interrupt check and an indirect call. Such a step (a node whose gen is
// nop) now is the next step itself: the steps before it go straight to
// the one after it. A cycle made only of such steps (for {}) keeps them,
// so that every loop still has a step and the run loop's interrupt check
// between its iterations; so does the last step of a body (no next), and
// every such step of an interpreter that keeps debug information (the
// debugger follows the steps node by node): the worker discards it
// (Options.DiscardDebugInfo).

// maxNopChain bounds the chain of steps that do nothing followed from
// one of them; a longer chain keeps its steps.
const maxNopChain = 1000

// skipsToNext reports whether n, a node whose gen is nop, can be next,
// the step after it, rather than a step of its own.
func skipsToNext(n *node, next bltn) bool {
	if next == nil || n.fnext != nil || n.interp == nil || !n.interp.noDebug {
		return false
	}
	// next may be a stand-in for a step not made yet (setExec makes
	// one in loops) that runs that step: following the steps that do
	// nothing from n must reach one that does something, not n again.
	m := n.tnext
	for k := 0; k < maxNopChain; k++ {
		if m == nil || m == n {
			return false
		}
		if m.fnext != nil || !sameGen(m.gen, nop) {
			return true
		}
		m = m.tnext
	}
	return false
}
