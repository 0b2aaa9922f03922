package interp

import "fmt"

// sbir patch 221: a node that its generator made no code for, in the
// middle of an execution chain, panics when it is reached instead of
// ending the chain. The run loop stops where an exec returns nil, so a
// node left without one (an arithmetic generator has no case for an
// interface type: `var s fmt.Stringer = 1500 * time.Millisecond` before
// sbir patch 220, `r.Value = i * 10` before patch 9e) made its
// predecessor return nil: the function returned there, as if it had
// ended, skipping the node and every statement after it, and the program
// exited successfully with part of its output. A panic at the node says
// that the interpreter failed, where, and stops the program as gc never
// would; a wrong answer reported as success was worse.

// noCodeError is what a node without code panics with.
type noCodeError struct {
	what string // the node's kind, action and type
}

func (e noCodeError) Error() string {
	return "internal error: the interpreter has no code for " + e.what +
		"; the program stopped there (please report this program)"
}

// checkGenerated gives n, after its generator ran, an exec that panics if
// the generator made none and the node is followed by more code. A node
// that ends its chain (the end of a body) may have no exec, and so may a
// return statement whatever follows it (a return in a select's case is
// wired to the statement after the select): _return leaves it without
// one on purpose when the results are already in place, as a nil exec
// returns from the function.
func checkGenerated(n *node) {
	if n.exec != nil || n.kind == returnStmt || n.tnext == nil && n.fnext == nil {
		return
	}
	what := fmt.Sprintf("%v %v", n.kind, n.action)
	if n.typ != nil {
		what += " of type " + n.typ.id()
	}
	err := noCodeError{what: what}
	n.exec = func(*frame) bltn { panic(err) }
}
