package interp

import "reflect"

// reusableFrames reports whether nothing in the body of def, a function
// declaration or literal, can keep a reference to its frame or to its
// values once a call returns (sbir patch S8). It errs on the side of no:
// a function it refuses only allocates its frames as before.
func reusableFrames(def *node) (ok bool) {
	defer func() {
		// A type the interpreter cannot make a reflect type of, or any
		// other surprise: keep allocating.
		if recover() != nil {
			ok = false
		}
	}()
	if def == nil || (def.kind != funcDecl && def.kind != funcLit) || len(def.child) < 4 || def.debug != nil {
		return false
	}
	seen := map[reflect.Type]bool{}
	for _, t := range def.types {
		if t == nil || holdsInterface(t, seen) {
			return false
		}
	}
	return keepsNoReference(def.child[3], seen)
}

// keepsNoReference reports whether n and the nodes below it keep no
// reference to the frame they run in, nor to its values, past the call.
func keepsNoReference(n *node, seen map[reflect.Type]bool) bool {
	switch n.kind {
	case funcLit, goStmt, deferStmt, addressExpr, selectStmt:
		// A closure keeps the frame; a goroutine or a deferred call runs
		// beside or after the body; &x points into the values. select is
		// not in the analysis's vocabulary: refused, not reasoned about.
		return false
	case callExpr:
		if !calleeKeepsNoReference(n) {
			return false
		}
	case rangeStmt:
		if _, ok := n.val.(*rangeFuncLoop); ok {
			return false // the yield function is a closure
		}
	case sliceExpr:
		if len(n.child) > 0 && n.child[0].typ != nil && n.child[0].typ.TypeOf().Kind() == reflect.Array {
			return false // a slice of an array of the frame points into it
		}
	}
	if n.typ != nil && n.typ.cat != builtinT {
		t := n.typ.TypeOf()
		if t != nil && holdsInterface(t, seen) {
			return false
		}
		if t != nil && t.Kind() == reflect.Func && !isCallee(n) {
			// A function or method as a value: its wrapper may keep the
			// frame it was made in.
			return false
		}
	}
	children := n.child
	if n.kind == selectorExpr && len(children) > 1 {
		children = children[:1] // the selected name is not an expression
	}
	for _, c := range children {
		if !keepsNoReference(c, seen) {
			return false
		}
	}
	return true
}

// isCallee reports whether n is the function a call expression calls.
func isCallee(n *node) bool {
	return n.anc != nil && n.anc.kind == callExpr && len(n.anc.child) > 0 && n.anc.child[0] == n
}

// calleeKeepsNoReference reports whether the call n passes nothing of the
// frame on: not a call of recover (which reads the caller's frame), nor
// a method called on a value (whose receiver may be the value's address).
func calleeKeepsNoReference(n *node) bool {
	if len(n.child) == 0 {
		return false
	}
	c0 := n.child[0]
	if c0.kind == identExpr && c0.ident == "recover" {
		return false
	}
	if c0.kind != selectorExpr || len(c0.child) == 0 {
		return true
	}
	t := c0.child[0].typ
	if t == nil || t.cat == binPkgT || t.cat == srcPkgT {
		return true // a package's function
	}
	return t.TypeOf().Kind() == reflect.Pointer
}

// holdsInterface reports whether a value of type t holds or reaches an
// interface value (or, for a function type, passes or returns one).
// seen records the types decided.
func holdsInterface(t reflect.Type, seen map[reflect.Type]bool) bool {
	r, _ := holdsInterfaceIn(t, seen, map[reflect.Type]bool{})
	return r
}

// holdsInterfaceIn is holdsInterface with open, the types being decided.
// A type that reaches one of them counts it as holding none for now; its
// own answer is then provisional (cyclic), and not recorded in seen: in
// `A struct{ B *B; X any }`, B reaches A before A's X is seen.
func holdsInterfaceIn(t reflect.Type, seen, open map[reflect.Type]bool) (r, cyclic bool) {
	if t == valueInterfaceType {
		return true, false
	}
	if r, ok := seen[t]; ok {
		return r, false
	}
	if open[t] {
		return false, true
	}
	open[t] = true
	defer delete(open, t)
	holds := func(u reflect.Type) bool {
		ur, uc := holdsInterfaceIn(u, seen, open)
		cyclic = cyclic || uc
		return ur
	}
	switch t.Kind() {
	case reflect.Interface:
		r = true
	case reflect.Array, reflect.Slice, reflect.Chan, reflect.Pointer:
		r = holds(t.Elem())
	case reflect.Map:
		r = holds(t.Key()) || holds(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField() && !r; i++ {
			r = holds(t.Field(i).Type)
		}
	case reflect.Func:
		for i := 0; i < t.NumIn() && !r; i++ {
			r = holds(t.In(i))
		}
		for i := 0; i < t.NumOut() && !r; i++ {
			r = holds(t.Out(i))
		}
	}
	if r || !cyclic {
		seen[t] = r
	}
	return r, cyclic && !r
}
