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
	methods  map[reflect.Type]bool   // reflect type → a defined type of it has methods
	shared   map[reflect.Type]bool   // reflect type → two defined types have it
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
	interp.indistinctMethods = map[reflect.Type]bool{} // this evaluation's
	if interp.indistinct.declared == nil {
		interp.indistinct = indistinctTypes{declared: map[reflect.Type]string{}, asserted: map[reflect.Type]string{}, methods: map[reflect.Type]bool{}, shared: map[reflect.Type]bool{}}
	}
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
				err = interp.noteAsserted(n.child[1], n.child[1].typ, isEmptyInterface(n.child[0].typ), "type assertion to", asserted, declared)
			}
		case typeSwitch:
			err = interp.noteSwitchCases(n, asserted, declared)
		}
		return err == nil
	}, nil)
	if err != nil {
		return err
	}
	for rt := range declared {
		if interp.declaredWithMethods(rt, declared) {
			interp.indistinct.methods[rt] = true
		}
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
	if a, ok := interp.indistinct.asserted[rt]; ok && len(t.methods()) > 0 {
		return n.cfgErrorf("type %s (underlying %s) cannot be told apart from %s in an interface by this interpreter, and an earlier cell asserts or switches on %s: %s",
			t.name, rt, rt, a, rewriteHint(t.name, rt))
	}
	if first, ok := declared[rt]; !ok {
		if first, ok = interp.indistinct.declared[rt]; !ok {
			declared[rt] = t.name
		} else if first != t.name {
			interp.indistinct.shared[rt] = true
		}
	} else if first != t.name {
		interp.indistinct.shared[rt] = true
	}
	if len(t.methods()) > 0 {
		interp.indistinctMethods[rt] = true
	}
	return nil
}

// declaredWithMethods reports whether a defined type represented by rt
// with methods is declared, in this evaluation or an earlier one.
func (interp *Interpreter) declaredWithMethods(rt reflect.Type, declared map[reflect.Type]string) bool {
	_, ok := declared[rt]
	return ok && interp.indistinctMethods[rt] || interp.indistinct.methods[rt]
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
			if err := interp.noteAsserted(t, t.typ, isEmptyInterface(guard.child[0].typ), "type switch case", asserted, declared); err != nil {
				return err
			}
		}
	}
	return nil
}

// noteAsserted refuses an assertion to typ at n that may give a wrong
// answer, and records the other asserted types. From an empty interface
// (empty true), that is an assertion to a defined non-struct type without
// methods (its values are always bare there), or to the underlying type
// of a defined type with methods (whose values are passed as interfaces
// for their methods). From a compiled interface with methods, which only
// values with methods satisfy, it is an assertion to a defined type that
// shares its representation with another defined type.
func (interp *Interpreter) noteAsserted(n *node, typ *itype, empty bool, what string, asserted, declared map[reflect.Type]string) error {
	if typ == nil || typ.cat == nilT || isInterface(typ) {
		return nil
	}
	rt := safeRefType(typ)
	if rt == nil || rt.Kind() == reflect.Interface {
		return nil
	}
	name, shared := declared[rt]
	if !shared {
		name, shared = interp.indistinct.declared[rt]
	}
	switch {
	case isIndistinctDefined(typ) && (empty && len(typ.methods()) == 0 || interp.indistinct.shared[rt]):
		return n.cfgErrorf("%s %s: a value of type %s (underlying %s) cannot be told apart from other %s values in an interface by this interpreter: %s",
			what, typ.name, typ.name, rt, rt, rewriteHint(typ.name, rt))
	case !isIndistinctDefined(typ) && empty && shared && interp.declaredWithMethods(rt, declared):
		return n.cfgErrorf("%s %s: this program declares type %s (underlying %s), which this interpreter cannot tell apart from %s in an interface: %s",
			what, typ.id(), name, rt, rt, rewriteHint(name, rt))
	}
	if _, ok := asserted[rt]; !ok && empty && !isIndistinctDefined(typ) {
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

// hasInterpMethods reports whether values of t, or of the type t points
// to, have interpreted methods that any(x) must keep.
func hasInterpMethods(t *itype) bool {
	if t == nil {
		return false
	}
	if t.cat == ptrT {
		return t.val != nil && len(t.val.method) > 0
	}
	// A value whose type has pointer-receiver methods stays bare: the
	// assertion to an interpreted interface does not tell the method sets
	// of T and *T apart.
	return len(t.method) > 0 && !hasPtrRecvMethod(t)
}

// hasPtrRecvMethod reports whether one of t's methods has a pointer
// receiver.
func hasPtrRecvMethod(t *itype) bool {
	for _, m := range t.method {
		if len(m.child) == 0 || len(m.child[0].child) == 0 {
			continue
		}
		if recv := m.child[0].child[0]; len(recv.child) > 0 && recv.lastChild().kind == starExpr {
			return true
		}
	}
	return false
}

// convertToEmptyInterface stores any(x) as a valueInterface recording
// x's interpreted type (sbir patch 62): a bare value would lose the
// methods, so any(&Buffer{}).(ReadWriter) failed.
func convertToEmptyInterface(n *node) {
	dest := genValue(n)
	value := genValueInterface(n.child[1])
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f))
		return next
	}
}
