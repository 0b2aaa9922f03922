package interp

import (
	"fmt"
	"reflect"
)

// sbir patch 60: type switches and type assertions that cannot tell a
// defined non-struct type from its underlying type.
//
// The interpreter represents a value of a defined type whose underlying
// type is not a struct (type Code string, type Level int, type IDs []int)
// by the reflect type of its underlying type: reflect cannot make new
// named types. In an empty interface (or a compiled one such as error or
// fmt.Stringer) such a value is then a plain string, int or []int, so
// `case Code:` matched a plain string and `v.(string)` matched a Code.
// Options.RefuseIndistinctTypes makes such an assertion a compile error,
// naming the construct and the rewrite, instead of a wrong answer.

// indistinctTypes records, across evaluations, the defined non-struct
// types declared and the types asserted from an interface that cannot
// tell them apart, each keyed by its reflect type.
type indistinctTypes struct {
	declared map[reflect.Type]string // reflect type → first defined type's name
	asserted map[reflect.Type]string // reflect type → asserted type's name
}

// isIndistinctDefined reports whether t is a defined type of interpreted
// code whose values are represented by the reflect type of its
// underlying, non-struct, non-interface type.
func isIndistinctDefined(t *itype) bool {
	if t == nil || t.name == "" || t.incomplete {
		return false
	}
	switch t.cat {
	case linkedT:
		b := t
		for b.cat == linkedT && b.val != nil {
			b = b.val
		}
		switch b.cat {
		case structT, interfaceT, valueT, errorT, nilT, genericT:
			return false
		}
		return b.cat != linkedT
	case sliceT, mapT, arrayT, funcT, chanT, chanSendT, chanRecvT, ptrT:
		return true
	}
	return false
}

// assertsFromBareInterface reports whether a type assertion from a value
// of static type t sees the bare reflect value of what t holds: an empty
// interface or a compiled interface type. An interpreted interface with
// methods holds a valueInterface, which keeps the value's type.
func assertsFromBareInterface(t *itype) bool {
	switch {
	case t == nil:
		return false
	case t.cat == errorT:
		return true
	case t.cat == valueT:
		return t.rtype != nil && t.rtype.Kind() == reflect.Interface
	case t.cat == linkedT:
		return assertsFromBareInterface(t.val)
	}
	return isEmptyInterface(t)
}

// checkIndistinctTypes walks the compiled tree root and refuses a type
// assertion or type switch case from an empty or compiled interface to a
// type that the interpreter cannot tell apart from another the program
// declares. What it finds is recorded only when root passes, so that an
// evaluation that fails to compile leaves nothing behind.
func (interp *Interpreter) checkIndistinctTypes(root *node, importPath string) error {
	if !interp.refuseIndistinct {
		return nil
	}
	declared := map[reflect.Type]string{}
	asserted := map[reflect.Type]string{}
	var err error
	root.Walk(func(n *node) bool {
		if err != nil {
			return false
		}
		switch n.kind {
		case typeSpec:
			err = interp.noteDeclared(n, importPath, declared)
		case typeAssertExpr:
			if len(n.child) == 2 && assertsFromBareInterface(n.child[0].typ) {
				err = interp.noteAsserted(n.child[1], n.child[1].typ, "type assertion to", asserted, declared)
			}
		case typeSwitch:
			err = interp.noteSwitchCases(n, asserted, declared)
		}
		return err == nil
	}, nil)
	if err != nil {
		return err
	}
	if interp.indistinct.declared == nil {
		interp.indistinct = indistinctTypes{declared: map[reflect.Type]string{}, asserted: map[reflect.Type]string{}}
	}
	for rt, name := range declared {
		if _, ok := interp.indistinct.declared[rt]; !ok {
			interp.indistinct.declared[rt] = name
		}
	}
	for rt, name := range asserted {
		interp.indistinct.asserted[rt] = name
	}
	return nil
}

// noteDeclared records the type a type spec declares if it is an
// indistinct defined type, and refuses it if an earlier evaluation
// asserted its underlying type from an interface.
func (interp *Interpreter) noteDeclared(n *node, importPath string, declared map[reflect.Type]string) error {
	if len(n.child) != 2 || n.child[0].kind != identExpr {
		return nil // an alias (typeSpecAssign) or a generic type
	}
	t := n.typ
	if t == nil || t.name != n.child[0].ident {
		if sc := interp.scopes[importPath]; sc != nil {
			if sym := sc.sym[n.child[0].ident]; sym != nil && sym.kind == typeSym {
				t = sym.typ
			}
		}
	}
	if !isIndistinctDefined(t) {
		return nil
	}
	rt := safeRefType(t)
	if rt == nil {
		return nil
	}
	if a, ok := interp.indistinct.asserted[rt]; ok {
		return n.cfgErrorf("type %s (underlying %s) cannot be told apart from %s in an interface by this interpreter, and an earlier cell asserts or switches on %s: %s",
			t.name, rt, rt, a, rewriteHint(t.name, rt))
	}
	if _, ok := declared[rt]; !ok {
		declared[rt] = t.name
	}
	return nil
}

// noteSwitchCases checks the case types of a type switch whose operand is
// an empty or compiled interface.
func (interp *Interpreter) noteSwitchCases(n *node, asserted, declared map[reflect.Type]string) error {
	if len(n.child) < 2 || len(n.child[1].child) == 0 {
		return nil
	}
	guard := n.child[1].lastChild() // x.(type), with or without x :=
	if guard.kind != typeAssertExpr || len(guard.child) == 0 || !assertsFromBareInterface(guard.child[0].typ) {
		return nil
	}
	for _, c := range n.lastChild().child {
		for _, t := range c.child[:len(c.child)-1] {
			if err := interp.noteAsserted(t, t.typ, "type switch case", asserted, declared); err != nil {
				return err
			}
		}
	}
	return nil
}

// noteAsserted refuses an assertion to typ at n when typ is an indistinct
// defined type, or a type an indistinct defined type of the program shares
// its representation with; it records the other asserted types.
func (interp *Interpreter) noteAsserted(n *node, typ *itype, what string, asserted, declared map[reflect.Type]string) error {
	if typ == nil || typ.cat == nilT || isInterface(typ) {
		return nil
	}
	rt := safeRefType(typ)
	if rt == nil || rt.Kind() == reflect.Interface {
		return nil
	}
	if isIndistinctDefined(typ) {
		return n.cfgErrorf("%s %s: a value of type %s (underlying %s) cannot be told apart from a %s in an interface by this interpreter: %s",
			what, typ.name, typ.name, rt, rt, rewriteHint(typ.name, rt))
	}
	name, ok := declared[rt]
	if !ok {
		name, ok = interp.indistinct.declared[rt]
	}
	if ok {
		return n.cfgErrorf("%s %s: this program declares type %s (underlying %s), which this interpreter cannot tell apart from %s in an interface: %s",
			what, typ.id(), name, rt, rt, rewriteHint(name, rt))
	}
	if _, ok := asserted[rt]; !ok {
		asserted[rt] = typ.id()
	}
	return nil
}

// rewriteHint words the rewrite that makes a defined type distinct.
func rewriteHint(name string, rt reflect.Type) string {
	return fmt.Sprintf("make %s a struct type (type %s struct{ V %s }), or assert from an interface with methods that %s implements", name, name, rt, name)
}

// safeRefType returns t's reflect type, or nil when it cannot be built.
func safeRefType(t *itype) (rt reflect.Type) {
	defer func() {
		if recover() != nil {
			rt = nil
		}
	}()
	return t.TypeOf()
}
