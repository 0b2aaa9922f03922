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
// types declared and the types of context keys, each keyed by the
// reflect type that represents them.
type indistinctTypes struct {
	declared map[reflect.Type][]*itype
	keys     map[reflect.Type]string // context key types (patch 64)
	stored   map[reflect.Type]*node  // bare defined values stored in empty interfaces (patch 94)
	asserted map[reflect.Type]bool   // types asserted from empty interfaces (patch 94)
}

// indistinctCheck is the check of one evaluation: what it declares and
// uses as context keys, recorded in the interpreter only when the whole
// tree passes.
type indistinctCheck struct {
	interp   *Interpreter
	declared map[reflect.Type][]*itype
	keys     map[reflect.Type]string
	flows    underlyingFlows // patch 94
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
		case linkedT, structT, interfaceT, valueT, errorT, nilT, genericT:
			return false
		}
		return true
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
// assertion or type switch case from an empty or compiled interface that
// the interpreter may answer wrongly, because a defined non-struct type
// and another type are represented by one reflect type.
func (interp *Interpreter) checkIndistinctTypes(root *node, importPath string) error {
	if !interp.refuseIndistinct {
		return nil
	}
	if interp.indistinct.declared == nil {
		interp.indistinct = indistinctTypes{declared: map[reflect.Type][]*itype{}, keys: map[reflect.Type]string{}}
	}
	c := &indistinctCheck{interp: interp, declared: map[reflect.Type][]*itype{}, keys: map[reflect.Type]string{},
		flows: underlyingFlows{stored: map[reflect.Type]*node{}, asserted: map[reflect.Type]*node{}}}
	var err error
	root.Walk(func(n *node) bool {
		if err != nil {
			return false
		}
		c.noteStore(n) // sbir patch 94
		switch n.kind {
		case typeSpec:
			c.declare(n, importPath)
		case typeAssertExpr:
			if len(n.child) == 2 && assertsFromBareInterface(n.child[0].typ) {
				err = c.assert(n.child[1], isEmptyInterface(n.child[0].typ), "type assertion to")
				if isEmptyInterface(n.child[0].typ) {
					c.noteAssert(n.child[1]) // sbir patch 94
				}
			}
		case typeSwitch:
			err = c.switchCases(n)
		case callExpr:
			if err = checkCodecCall(n); err == nil { // sbir patch 64
				err = c.contextKey(n)
			}
			if err == nil {
				err = checkErrorsAsTarget(n) // sbir patch 95
			}
		}
		return err == nil
	}, nil)
	if err == nil {
		err = c.checkFlows() // sbir patch 94
	}
	if err != nil {
		return err
	}
	for rt, ts := range c.declared {
		interp.indistinct.declared[rt] = append(interp.indistinct.declared[rt], ts...)
	}
	for rt, id := range c.keys {
		interp.indistinct.keys[rt] = id
	}
	return nil
}

// types returns the defined non-struct types represented by rt, declared
// by this evaluation or an earlier one.
func (c *indistinctCheck) types(rt reflect.Type) []*itype {
	return append(append([]*itype{}, c.interp.indistinct.declared[rt]...), c.declared[rt]...)
}

// declare records the type a type spec declares if it is an indistinct
// defined type.
func (c *indistinctCheck) declare(n *node, importPath string) {
	if len(n.child) != 2 || n.child[0].kind != identExpr {
		return // an alias (typeSpecAssign) or a generic type
	}
	t := n.typ
	if t == nil || t.name != n.child[0].ident {
		if sc := c.interp.scopes[importPath]; sc != nil {
			if sym := sc.sym[n.child[0].ident]; sym != nil && sym.kind == typeSym {
				t = sym.typ
			}
		}
	}
	if !isIndistinctDefined(t) {
		return
	}
	rt := safeRefType(t)
	if rt == nil {
		return
	}
	c.declared[rt] = append(c.declared[rt], t)
}

// switchCases checks the case types of a type switch whose operand is an
// empty or compiled interface.
func (c *indistinctCheck) switchCases(n *node) error {
	if len(n.child) < 2 || len(n.child[1].child) == 0 {
		return nil
	}
	guard := n.child[1].lastChild() // x.(type), with or without x :=
	if guard.kind != typeAssertExpr || len(guard.child) == 0 || !assertsFromBareInterface(guard.child[0].typ) {
		return nil
	}
	empty := isEmptyInterface(guard.child[0].typ)
	for _, cl := range n.lastChild().child {
		for _, t := range cl.child[:len(cl.child)-1] {
			if err := c.assert(t, empty, "type switch case"); err != nil {
				return err
			}
			if empty {
				c.noteAssert(t) // sbir patch 94
			}
		}
	}
	return nil
}

// assert refuses an assertion to the type of n that may give a wrong
// answer. From an empty interface (empty true), that is an assertion to
// a defined non-struct type without methods: its values are bare there,
// so the assertion matches plain values of the underlying type too, and
// a switch without assignment misses its own values. From any interface
// (compiled ones hold only values with methods), it is an assertion to a
// defined type that shares its representation with another defined type.
// An assertion to the underlying type itself is not refused: programs
// that declare such a type and switch on its underlying type are common
// and mostly right (they keep the two apart); it is wrong when a value of
// a defined type with methods reaches it (docs/fidelity.md).
func (c *indistinctCheck) assert(n *node, empty bool, what string) error {
	typ := n.typ
	if typ == nil || typ.cat == nilT || isInterface(typ) {
		return nil
	}
	rt := safeRefType(typ)
	if rt == nil || rt.Kind() == reflect.Interface {
		return nil
	}
	if isIndistinctDefined(typ) && (empty && len(typ.methods()) == 0 || sharedBy(c.types(rt))) {
		return n.cfgErrorf("%s %s: a value of type %s (underlying %s) cannot be told apart from other %s values in an interface by this interpreter: %s",
			what, typ.name, typ.name, rt, rt, rewriteHint(typ.name, rt))
	}
	return nil
}

// sharedBy reports whether ts holds two different types.
func sharedBy(ts []*itype) bool {
	if len(ts) < 2 {
		return false
	}
	for _, t := range ts[1:] {
		if t.id() != ts[0].id() {
			return true
		}
	}
	return false
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
