package interp

import (
	"fmt"
	"strings"
)

// sbir patch 52: a function or method that a later evaluation declares
// again is replaced for the code compiled before too, as a notebook user
// who fixes a function and runs its cell again expects.

// declareMethod adds method n to type t, or replaces the method of the
// same name that an earlier evaluation declared. The method list is copied
// before a replacement: a checkpoint (sbir patch 54) may hold the old one.
func (interp *Interpreter) declareMethod(t *itype, n *node) {
	for i, m := range t.method {
		if m == n {
			return
		}
		if m.ident == n.ident && m.kind == funcDecl && n.ident != "" {
			ms := append([]*node(nil), t.method...)
			ms[i] = n
			t.method = ms
			if !containsNode(interp.redefs, m) {
				interp.redefs = append(interp.redefs, m, n)
			}
			return
		}
	}
	t.method = append(t.method, n)
}

func containsNode(list []*node, n *node) bool {
	for _, m := range list {
		if m == n {
			return true
		}
	}
	return false
}

// declBox holds the latest declaration of a function or method declared
// several times. Every declaration points to the one box, not to its
// successor: a chain would keep every body ever declared alive as long
// as the first is (a caller compiled against it), cell after cell.
type declBox struct{ cur *node }

// redeclare makes new the latest declaration of old's function.
func redeclare(old, new *node) {
	if old.latest == nil {
		old.latest = &declBox{}
	}
	old.latest.cur = new
	new.latest = old.latest
}

// currentDecl returns the latest declaration of def's function, def
// itself when none replaced it. A call compiled against def cannot call
// a declaration of another type: it panics, saying what to run again.
func currentDecl(def *node) *node {
	cur := def.latest.cur
	if cur == def || cur == nil {
		return def
	}
	if !sameSignature(def, cur) {
		panic(fmt.Errorf("%s was declared again with another signature (%s, was %s): run again the code that uses it", declName(cur), signature(cur), signature(def)))
	}
	return cur
}

// sameSignature reports whether declarations a and b take and return the
// same types, receiver included, so that a call compiled for one can
// call the other.
func sameSignature(a, b *node) bool {
	if a.typ == nil || b.typ == nil || a.typ.TypeOf() != b.typ.TypeOf() {
		return false
	}
	ra, rb := receiverType(a), receiverType(b)
	if (ra == nil) != (rb == nil) {
		return false
	}
	return ra == nil || ra.TypeOf() == rb.TypeOf()
}

// receiverType returns the type of a method declaration's receiver, nil
// for a function.
func receiverType(n *node) *itype {
	if len(n.child) < 4 || len(n.child[0].child) == 0 {
		return nil
	}
	return n.child[0].child[0].lastChild().typ
}

// signature describes a declaration's type in messages, with its name
// and receiver: func (*main.T) S() string.
func signature(n *node) string {
	params := strings.TrimPrefix(n.typ.id(), "func")
	name := n.ident
	if len(n.child) > 1 && n.child[1].ident != "" {
		name = n.child[1].ident
	}
	if rt := receiverType(n); rt != nil {
		return "func (" + rt.id() + ") " + name + params
	}
	return "func " + name + params
}

// declName names a declaration in messages: f, or T.M for a method.
func declName(n *node) string {
	if rt := receiverType(n); rt != nil {
		return baseType(rt).name + "." + n.ident
	}
	if len(n.child) > 1 {
		return n.child[1].ident
	}
	return n.ident
}
