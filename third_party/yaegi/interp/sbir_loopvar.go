package interp

import "reflect"

// sbir patch 130: each iteration of a for statement has its own variables
// (Go 1.22).
//
// A variable that a for statement declares (`for i := 0; ...`, `for k, v
// := range x`) was one variable for the whole loop: the loop wrote each
// iteration's value into it in place. A closure made in the body, which
// captures the frame's slots as they are when it is made (getFunc's
// clone), and a pointer taken there (&v, a method with a pointer
// receiver) all referred to that one variable: closures kept in a slice
// saw the last value, and a goroutine or worker calling a closure read
// the variable while the loop's post statement wrote it, a data race of
// the interpreter's own making (the race detector reports it in
// reflect.Value.Int against reflect.Value.SetInt) and a wrong answer
// where gc's program has neither.
//
// Go 1.22's rule: each iteration has its own variables; those of an
// iteration after the first are declared before the post statement runs
// and initialised to the values of the previous iteration's. The loop
// now does that, as a step between the end of its body (and every
// continue of it) and its post statement (range loops: the next
// iteration's assignment): each variable's slot points to a new value,
// a copy of the old one, so what the iteration's closures and pointers
// hold is left to them. The step is only made for a loop whose
// statements capture or address one of its variables (an identifier whose
// symbol is the variable's, or of the same name where a symbol is not
// known, so that a doubt makes a copy): a function literal naming one,
// &v (or &v.f, &v[i]), v[:], and a method of v with a pointer receiver
// (called or taken as a value: its receiver is v's address). Other loops keep
// their single variable and allocate nothing more. Range over a function
// already gives each iteration its own variables (rangefunc.go).

// perIterationVars makes each iteration of loop (a for statement whose
// init statement is init, possibly nil, and whose scope is sc) have its
// own copy of the variables init declares, when the loop captures or
// addresses them: body's next step becomes a copying step that goes on
// where body went.
func perIterationVars(sc *scope, loop, init, body *node) {
	if init == nil || (init.kind != defineStmt && init.kind != defineXStmt) {
		return
	}
	n := init.nleft
	if n <= 0 || n > len(init.child) {
		return
	}
	if c := loopVarsCopy(sc, loop, init.child[:n]); c != nil {
		c.tnext = body.tnext
		body.tnext = c
	}
}

// perIterationRangeVars is perIterationVars for the range statement n
// with variables vars and body body. Its continue statements go to n,
// not through body: they are sent to the copying step too.
func perIterationRangeVars(sc *scope, n *node, vars []*node, body *node) {
	c := loopVarsCopy(sc, n, vars)
	if c == nil {
		return
	}
	c.tnext = n
	body.tnext = c
	body.Walk(func(m *node) bool {
		switch m.kind {
		case funcLit:
			return false // its continues are its own loops'
		case continueStmt:
			if m.tnext == n {
				m.tnext = c
			}
		}
		return true
	}, nil)
}

// loopVarsCopy returns a step that gives the variables vars of loop, in
// scope sc, new values, copies of the current ones, or nil when loop
// neither captures nor addresses any of them.
func loopVarsCopy(sc *scope, loop *node, vars []*node) *node {
	names := loopVarNames{}
	type slot struct{ level, index int }
	var slots []slot
	for _, v := range vars {
		if v.kind != identExpr || v.ident == "_" || v.findex < 0 {
			continue
		}
		names[v.ident] = sc.sym[v.ident] // nil if not known: the name decides
		slots = append(slots, slot{v.level, v.findex})
	}
	if len(slots) == 0 || !capturesLoopVar(loop, names) {
		return nil
	}
	c := &node{anc: loop, interp: loop.interp, pos: loop.pos, scope: loop.scope, action: aNop}
	c.start = c
	c.gen = func(c *node) {
		next := getExec(c.tnext)
		c.exec = func(f *frame) bltn {
			for _, s := range slots {
				d := getFrame(f, s.level).data
				d[s.index] = copyVar(d[s.index])
			}
			return next
		}
	}
	return c
}

// copyVar returns a new variable holding the value of v.
func copyVar(v reflect.Value) reflect.Value {
	nv := reflect.New(v.Type()).Elem()
	if !v.CanInterface() && v.CanAddr() {
		// A slot pointing into a value read through an unexported field:
		// the same memory, without the read-only mark Set refuses.
		v = reflect.NewAt(v.Type(), v.Addr().UnsafePointer()).Elem()
	}
	nv.Set(v)
	return nv
}

// loopVarNames are the variables of a loop by name, with their symbols.
type loopVarNames map[string]*symbol

// refers reports whether the identifier n may be one of the variables.
func (l loopVarNames) refers(n *node) bool {
	if n == nil || n.kind != identExpr {
		return false
	}
	sym, ok := l[n.ident]
	return ok && (sym == nil || n.sym == nil || n.sym == sym)
}

// capturesLoopVar reports whether the statements of loop may keep a
// reference to one of the variables names past the iteration: a function
// literal naming one, its address taken, an array of it sliced, or a
// method of it with a pointer receiver called or taken as a value.
func capturesLoopVar(loop *node, names loopVarNames) bool {
	found := false
	loop.Walk(func(m *node) bool {
		if found {
			return false
		}
		switch m.kind {
		case funcLit:
			found = namesAny(m, names)
			return false
		case addressExpr, sliceExpr:
			found = len(m.child) > 0 && names.refers(rootVar(m.child[0]))
		case selectorExpr:
			found = len(m.child) > 0 && names.refers(rootVar(m.child[0])) && mayAddress(m)
		}
		return !found
	}, nil)
	return found
}

// namesAny reports whether an identifier below n may be one of names.
func namesAny(n *node, names loopVarNames) bool {
	found := false
	n.Walk(func(m *node) bool {
		if names.refers(m) {
			found = true
		}
		return !found
	}, nil)
	return found
}

// rootVar returns the identifier of the variable an expression such as
// v, v.f, v[i] or (v) is part of, or nil.
func rootVar(n *node) *node {
	for {
		switch n.kind {
		case identExpr:
			return n
		case selectorExpr, indexExpr, parenExpr:
			if len(n.child) == 0 {
				return nil
			}
			n = n.child[0]
		default:
			return nil
		}
	}
}

// mayAddress reports whether the selector n, on a variable, may take the
// variable's address: a method with a pointer receiver, called or taken
// as a value, of a variable that is not a pointer (nor an interface).
// Anything it cannot tell counts as yes.
func mayAddress(n *node) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = true // a type reflect cannot make: assume the worst
		}
	}()
	if len(n.child) < 2 || n.typ == nil || n.child[0].typ == nil {
		return true
	}
	if t := n.typ.TypeOf(); t != nil && t.Kind() != reflect.Func {
		return false // a field, not a method
	}
	base := n.child[0].typ
	if k := base.TypeOf().Kind(); k == reflect.Ptr || k == reflect.Interface {
		return false // the method gets the pointer or the interface's value
	}
	name := n.child[1].ident
	if m, _ := base.lookupMethod(name); m != nil {
		return isPtrRecv(m)
	}
	if _, _, isPtr, found := base.lookupBinMethod(name); found {
		return isPtr
	}
	return false // a field of func type
}
