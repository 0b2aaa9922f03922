package interp

import "reflect"

// sbir patch 141: the variables a comma-ok definition (v, ok := m[k],
// v, ok := x.(T), v, ok := <-ch) or a select case's definition
// (case v := <-ch) declares are new at each run of the definition, as
// Go's := makes them. Their forms set the variables' slots in place, so
// a closure made in an earlier iteration of a loop, which shares the
// slot's value through its copy of the frame (getFunc), saw the last
// iteration's value: for i := range 3 { v, ok := m[i]; fs = append(fs,
// func() int { return v }) } gave the last v three times. A plain
// definition (v := m[k]) and a call's (v, w := f()) already made new
// variables.

// freshVars returns a function making the variables dests declare new in
// a frame, or nil when there are none (blank, or redeclared: a
// redeclared variable is the same variable).
func freshVars(dests []*node) func(*frame) {
	var vars []*node
	for _, c := range dests {
		if c == nil || c.ident == "_" || c.redeclared || c.findex < 0 || c.kind != identExpr {
			continue
		}
		vars = append(vars, c)
	}
	if len(vars) == 0 {
		return nil
	}
	return func(f *frame) {
		for _, c := range vars {
			d := getFrame(f, c.level).data
			d[c.findex] = reflect.New(d[c.findex].Type()).Elem()
		}
	}
}

// freshCommaOk makes n, the source of a comma-ok definition, declare new
// variables at each run.
func freshCommaOk(n *node) {
	a := n.anc
	if a == nil || a.kind != defineXStmt || len(a.child) != 3 || a.child[2] != n || n.exec == nil {
		return
	}
	switch {
	case n.kind == indexExpr, n.kind == typeAssertExpr, n.kind == unaryExpr && n.action == aRecv:
	default:
		return
	}
	fresh := freshVars(a.child[:2])
	if fresh == nil {
		return
	}
	exec := n.exec
	n.exec = func(f *frame) bltn {
		fresh(f)
		return exec(f)
	}
}
