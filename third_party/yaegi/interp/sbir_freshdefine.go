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

// mayShareVars reports whether a closure or a pointer may share the
// variables the code n runs in declares: n is at the top level (its
// variables are globals), or in a function whose body has a function
// literal, a go or defer statement, or takes an address. Where none can,
// setting an int, float, string or bool variable (of a type without
// methods, which could take its address) in place is the same as making
// it new, and costs no allocation: v, ok := m[k] in a loop made two.
func mayShareVars(n *node) bool {
	def := enclosingFunc(n)
	if def == nil || len(def.child) < 4 || def.child[3] == nil {
		return true
	}
	shared := false
	def.child[3].Walk(func(m *node) bool {
		switch m.kind {
		case funcLit, goStmt, deferStmt, addressExpr:
			shared = true
		}
		return !shared
	}, nil)
	return shared
}

// plainValue reports whether a variable of type t is of a predeclared
// int, float, string or bool type (not a defined one, which may have
// methods taking its address).
func plainValue(t *itype) bool {
	return t != nil && t.path == "" && len(t.method) == 0 && t.name != "" && t.name == predeclaredName[t.cat]
}

// predeclaredName is the name of each predeclared type plainValue takes.
var predeclaredName = map[tcat]string{
	boolT: "bool", intT: "int", int8T: "int8", int16T: "int16", int32T: "int32", int64T: "int64",
	uintT: "uint", uint8T: "uint8", uint16T: "uint16", uint32T: "uint32", uint64T: "uint64", uintptrT: "uintptr",
	float32T: "float32", float64T: "float64", stringT: "string",
}

// freshVars returns a function making the variables dests declare new in
// a frame, or nil when there are none (blank, redeclared: a redeclared
// variable is the same variable; or plain values nothing may share).
func freshVars(dests []*node) func(*frame) {
	var vars []*node
	for _, c := range dests {
		if c == nil || c.ident == "_" || c.redeclared || c.findex < 0 || c.kind != identExpr ||
			plainValue(c.typ) && !mayShareVars(c) {
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
