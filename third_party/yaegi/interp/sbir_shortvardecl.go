package interp

import "reflect"

// sbir patch 195: `a, b := x, y` with a already declared in the same
// block declares b only: a is the same variable, assigned, and keeps its
// type (Go spec, "Short variable declarations"; the block of a
// function's body also holds its parameters and results). The
// interpreter made a new variable a of the value's type: `var total
// int8; total, n := 100, 1; total += 100` printed 200 (gc: -56), a
// closure made before the definition kept reading the old a, a named
// result redefined this way (`v, err := 1, e` in a function with result
// err) was returned unset, and a value of another type (`var s string;
// s, y := 1, 2`) ran where gc refuses the program. A definition from a
// call or a comma-ok form (compDefineX) already reused a variable of the
// same type.

// blockSymbol is the symbol id declares in the block of scope sc: one of
// its own, or for the body of a function, a parameter or a named result,
// which Go declares in the same block as the body's variables.
func blockSymbol(sc *scope, id string) *symbol {
	if s, ok := sc.sym[id]; ok {
		return s
	}
	if f := sc.anc; f != nil && f.def != nil && f.anc != nil && f.level != f.anc.level && sc.level == f.level {
		return f.sym[id]
	}
	return nil
}

// redefinedVars maps each left operand of short variable declaration n
// (`a, b := x, y`) that names a variable of the block to that variable,
// when the declaration declares another, new, variable: such an operand
// is assigned, not declared. It is computed before the declaration adds
// its new variables to the block. It is empty otherwise: a declaration
// with no new variable (the interpreter lets it shadow, as before), a
// `var` declaration, a definition from a call or a comma-ok form.
func redefinedVars(sc *scope, n *node) map[*node]*symbol {
	if n.kind != defineStmt || n.nleft < 2 || n.nleft+n.nright != len(n.child) {
		return nil
	}
	if n.anc != nil && (n.anc.kind == varDecl || n.anc.kind == constDecl) {
		return nil
	}
	var old map[*node]*symbol
	hasNew := false
	seen := map[string]bool{}
	for _, c := range n.child[:n.nleft] {
		if c.ident == "_" || seen[c.ident] {
			continue
		}
		seen[c.ident] = true
		s := blockSymbol(sc, c.ident)
		if s == nil {
			hasNew = true
			continue
		}
		if s.kind == varSym && s.index >= 0 && s.typ != nil {
			if old == nil {
				old = map[*node]*symbol{}
			}
			old[c] = s
		}
	}
	if !hasNew {
		return nil
	}
	return old
}

// hasRedeclared reports whether short variable declaration n assigns a
// variable it does not declare.
func hasRedeclared(n *node) bool {
	for _, c := range n.child[:n.nleft] {
		if c.redeclared {
			return true
		}
	}
	return false
}

// redefine is the action of short variable declaration n when it assigns
// variables it does not declare: the values are computed first (`a, b :=
// b, a` swaps a declared a), then the new variables are made new, as a
// definition does, and the others are set in place, which a closure
// sharing them sees.
func redefine(n *node, next bltn, svalue []func(*frame) reflect.Value, index, level []int) bltn {
	return func(f *frame) bltn {
		t := make([]reflect.Value, len(svalue))
		for i, s := range svalue {
			if n.child[i].ident == "_" {
				continue
			}
			v := s(f)
			t[i] = reflect.New(v.Type()).Elem()
			t[i].Set(v)
		}
		for i := range svalue {
			c := n.child[i]
			if c.ident == "_" {
				continue
			}
			data := getFrame(f, level[i]).data
			j := index[i]
			if !c.redeclared {
				data[j] = reflect.New(data[j].Type()).Elem()
			}
			data[j].Set(t[i])
		}
		return next
	}
}

// topLevelRedefined maps each left operand of short variable declaration
// n at the top level of an evaluation, which gta declares, to the global
// variable it names, when the declaration declares a variable no
// evaluation has declared yet: such an operand may be assigned rather
// than declared again (redefinable). A declaration whose names all exist
// (a cell run again) declares them again, as a notebook does.
func topLevelRedefined(sc *scope, n *node) map[*node]*symbol {
	if n.kind != defineStmt || n.nleft < 2 || n.nleft+n.nright != len(n.child) {
		return nil
	}
	if n.anc != nil && (n.anc.kind == varDecl || n.anc.kind == constDecl) {
		return nil
	}
	var old map[*node]*symbol
	hasNew := false
	seen := map[string]bool{}
	for _, c := range n.child[:n.nleft] {
		if c.ident == "_" || seen[c.ident] {
			continue
		}
		seen[c.ident] = true
		s := sc.sym[c.ident]
		if s == nil || s.node == n {
			hasNew = true
			continue
		}
		if s.kind == varSym && s.node != nil && s.typ != nil {
			if old == nil {
				old = map[*node]*symbol{}
			}
			old[c] = s
		}
	}
	if !hasNew {
		return nil
	}
	return old
}

// redefinable reports whether short variable declaration n assigns
// global variable old, which it names, a value of type typ rather than
// declaring it again. In the evaluation that declared old, it does, as
// in a Go block. A variable of an earlier evaluation (an earlier cell, or
// an earlier statement of the same cell, which the kernel evaluates
// apart) is assigned when the value can be assigned to it, so that
// `var total int8` then `total, n := 100, 1` keeps total an int8 as gc
// does; otherwise it is declared again, as a notebook lets a cell do.
func redefinable(n *node, old *symbol, typ *itype) bool {
	if rootNode(old.node) == rootNode(n) {
		return true
	}
	if typ == nil || old.typ == nil {
		return false
	}
	if typ.untyped {
		t, o := typ.TypeOf(), old.typ.TypeOf()
		return isNumber(t) && isNumber(o) || isString(t) && isString(o) || isBoolean(t) && isBoolean(o)
	}
	return typ.equals(old.typ) || isInterface(old.typ) && typ.assignableTo(old.typ)
}

// rootNode is the root of the tree n is in.
func rootNode(n *node) *node {
	for n.anc != nil {
		n = n.anc
	}
	return n
}

// redeclaredResultType is the type the variable named by left operand i
// of definition n (`v, err := f()`, a comma-ok form), declared in the
// block with type vt, is assigned a value of type t with: vt, when t is
// an interpreted function's result assignable to compiled interface type
// vt, error or fmt.Stringer (the call converts it: a nil *T in an error
// is not nil); t otherwise, which declares the variable again as before:
// for the forms that write their value in place, and for an interface
// the program declares, whose values the call's conversion does not
// make (their methods were not found). It is gc's error when t cannot be
// assigned to vt.
func redeclaredResultType(n *node, i int, t, vt *itype) (*itype, error) {
	src := n.lastChild()
	if t.assignableTo(vt) && !(isBasicKind(t.TypeOf()) && isBasicKind(vt.TypeOf())) {
		if (vt.cat == errorT || vt.cat == valueT) && isInterface(vt) && src.kind == callExpr && !isBinCall(src, n.scope) {
			return vt, nil
		}
		return t, nil
	}
	what := "value"
	switch {
	case src.kind == indexExpr:
		what = "map index expression"
	case src.kind == typeAssertExpr || src.kind == unaryExpr && src.action == aRecv:
		what = "comma, ok expression"
	}
	expr := exprString(src)
	if expr == "constant" {
		expr = "value"
	}
	return nil, src.cfgErrorf("cannot use %s (%s of %s) as %s value in assignment", expr, what, typeDescription(t), localTypeName(vt))
}
