package interp

import (
	"reflect"
	"strings"
)

// sbir patch 94: an assertion to the underlying type of a defined type
// whose values are stored bare in an empty interface.
//
// A value of a defined non-struct type without methods (type Code string)
// is stored in an empty interface as a bare value of its underlying
// reflect type: nothing records that it is a Code. `v.(string)` on
// `var v any = Code("x")` then succeeds, where gc's fails (a Code is not a
// string), and a type switch takes its `case string:`. Patch 60 refuses
// `case Code:` from an empty interface; this refuses the assertion to the
// underlying type when the program (in any evaluation) also stores a
// value of such a type in an empty interface in interpreted code. A
// program that declares such types and only prints them (fmt, log and
// the like receive them as compiled code) is not refused.

// underlyingFlows records, for one evaluation, the first store of a bare
// defined value in an empty interface and the first assertion to an
// underlying type, keyed by the reflect type that represents both.
type underlyingFlows struct {
	stored   map[reflect.Type]*node
	asserted map[reflect.Type]*node
}

// noteAssert records an assertion (or type switch case) from an empty
// interface to the type of n, if that type is not a defined one (an
// assertion to a defined type is patch 60's).
func (c *indistinctCheck) noteAssert(n *node) {
	t := n.typ
	if t == nil || t.cat == nilT || t.name != "" && t.path != "" || isInterface(t) {
		return
	}
	rt := safeRefType(t)
	if rt == nil || rt.Kind() == reflect.Interface {
		return
	}
	if c.flows.asserted[rt] == nil {
		c.flows.asserted[rt] = n
	}
}

// noteStore records n if it is a value of a defined non-struct type
// without methods that interpreted code stores in an empty interface.
func (c *indistinctCheck) noteStore(n *node) {
	t := n.typ
	if !isIndistinctDefined(t) || len(t.methods()) > 0 || n.kind == typeSpec || !storedInEmptyInterface(n) {
		return
	}
	rt := safeRefType(t)
	if rt == nil {
		return
	}
	if c.flows.stored[rt] == nil {
		c.flows.stored[rt] = n
	}
}

// checkFlows refuses, once the whole tree is walked, an assertion to a
// type whose values cannot be told from a stored defined type's, and a
// store of such a value when an earlier evaluation asserts to its
// underlying type. It records this evaluation's stores and assertions in
// the interpreter when nothing is refused.
func (c *indistinctCheck) checkFlows() error {
	known := &c.interp.indistinct
	for rt, a := range c.flows.asserted {
		s := c.flows.stored[rt]
		if s == nil {
			s = known.stored[rt]
		}
		if s != nil {
			return a.cfgErrorf("type assertion to %s from an empty interface: this program stores values of type %s (underlying %s) in empty interfaces, and this interpreter cannot tell them from %s values there (gc's assertion fails for them): %s",
				a.typ.id(), s.typ.id(), rt, rt, underlyingHint(s.typ, rt))
		}
	}
	for rt, s := range c.flows.stored {
		if known.asserted[rt] {
			return s.cfgErrorf("a value of type %s (underlying %s) stored in an empty interface: an earlier cell asserts %s from an empty interface, and this interpreter cannot tell the two apart there: %s",
				s.typ.id(), rt, rt, underlyingHint(s.typ, rt))
		}
	}
	if known.stored == nil {
		known.stored, known.asserted = map[reflect.Type]*node{}, map[reflect.Type]bool{}
	}
	for rt, s := range c.flows.stored {
		known.stored[rt] = s
	}
	for rt := range c.flows.asserted {
		known.asserted[rt] = true
	}
	return nil
}

// underlyingHint words the rewrites that keep a defined type's values
// apart from their underlying type's.
func underlyingHint(t *itype, rt reflect.Type) string {
	return "make " + t.id() + " a struct type (type " + t.name + " struct{ V " + rt.String() + " }), or give it a method (its values then keep their type in an interface), or convert it to " + rt.String() + " before storing it"
}

// storedInEmptyInterface reports whether the value of n is converted to
// an empty interface by the expression or statement around it, in
// interpreted code: an assignment, a definition with a declared type, a
// composite literal's element, a call's argument, append, a return
// value, a channel send or a conversion. Arguments of compiled functions
// that only print or encode (fmt, log, json...) do not count.
func storedInEmptyInterface(n *node) bool {
	a := n.anc
	for a != nil && a.kind == parenExpr {
		n, a = a, a.anc
	}
	if a == nil {
		return false
	}
	i := childPos(n)
	if i < 0 {
		return false
	}
	switch a.kind {
	case callExpr:
		return i > 0 && callArgHoldsBare(a, i-1)
	case compositeLitExpr:
		if a.nleft > 0 && i == 0 {
			return false // the literal's type
		}
		return holdsBare(compositeElem(a.typ, i-a.nleft, ""))
	case keyValueExpr:
		lit := a.anc
		if lit == nil || lit.kind != compositeLitExpr {
			return false
		}
		t := resolveLinked(lit.typ)
		if t != nil && t.cat == mapT && i == 0 {
			return holdsBare(t.key)
		}
		return i == 1 && holdsBare(compositeElem(lit.typ, -1, a.child[0].ident))
	case assignStmt, defineStmt:
		if a.nleft != a.nright || i < len(a.child)-a.nright {
			return false
		}
		return holdsBare(a.child[i-(len(a.child)-a.nright)].typ)
	case returnStmt:
		return holdsBare(resultType(a, i))
	case sendStmt:
		t := resolveLinked(a.child[0].typ)
		return i == 1 && t != nil && (t.cat == chanT || t.cat == chanSendT) && holdsBare(t.val)
	}
	return false
}

// resolveLinked returns the type t is defined as.
func resolveLinked(t *itype) *itype {
	for t != nil && t.cat == linkedT && t.val != nil {
		t = t.val
	}
	return t
}

// holdsBare reports whether t is an empty interface type: one that holds
// a value of a type without methods as the bare value.
func holdsBare(t *itype) bool {
	t = resolveLinked(t)
	switch {
	case t == nil:
		return false
	case t.cat == interfaceT:
		return len(t.field) == 0
	case t.cat == valueT && t.rtype != nil:
		return t.rtype.Kind() == reflect.Interface && t.rtype.NumMethod() == 0
	}
	return false
}

// compositeElem returns the type of the element at position i (or of the
// field named field) of a composite literal of type t.
func compositeElem(t *itype, i int, field string) *itype {
	t = resolveLinked(t)
	if t != nil && t.cat == ptrT {
		t = resolveLinked(t.val)
	}
	switch {
	case t == nil:
		return nil
	case t.cat == sliceT || t.cat == arrayT || t.cat == mapT:
		return t.val
	case t.cat == structT && field != "":
		if k := t.fieldIndex(field); k >= 0 {
			return t.field[k].typ
		}
	case t.cat == structT && i >= 0 && i < len(t.field):
		return t.field[i].typ
	}
	return nil
}

// resultType returns the type of the i-th result of the function around
// the return statement ret.
func resultType(ret *node, i int) *itype {
	for f := ret.anc; f != nil; f = f.anc {
		if f.kind == funcDecl || f.kind == funcLit {
			t := f.typ
			if f.kind == funcDecl && len(f.child) > 2 {
				t = f.child[2].typ
			}
			if t == nil || t.cat != funcT || i >= len(t.ret) || len(ret.child) != len(t.ret) {
				return nil
			}
			return t.ret[i]
		}
	}
	return nil
}

// printOnly are the packages whose compiled functions take an empty
// interface only to print, encode or compare what they are given, never
// to hand it back to interpreted code.
var printOnly = map[string]bool{
	"fmt": true, "log": true, "encoding/json": true, "encoding/xml": true,
	"text/template": true, "html/template": true, "strings": true, "bytes": true,
	"bufio": true, "io": true, "os": true, "errors": true, "testing": true,
	// Receiver types are named by package name: (*json.Encoder).Encode.
	"json": true, "xml": true, "template": true,
}

// callArgHoldsBare reports whether the call a converts its argument at
// position i to an empty interface that interpreted code may later
// assert from.
func callArgHoldsBare(a *node, i int) bool {
	fn := a.child[0]
	ft := resolveLinked(fn.typ)
	switch {
	case ft == nil:
		return false
	case ft.cat == builtinT:
		if fn.ident == "append" && i > 0 {
			return holdsBare(compositeElem(a.typ, 0, ""))
		}
		return false
	case isInterface(ft) || ft.cat != funcT && ft.cat != valueT:
		// A conversion: any(x), interface{}(x).
		return len(a.child) == 2 && holdsBare(fn.typ)
	case ft.cat == funcT:
		return holdsBare(argType(ft.arg, i, isVariadicFunc(ft)))
	}
	rt := ft.rtype
	if rt == nil || rt.Kind() != reflect.Func {
		return false
	}
	pkg, _ := calleeName(a)
	pkg = strings.TrimLeft(pkg, "*")
	if k := strings.LastIndex(pkg, "."); k > 0 && !strings.Contains(pkg[k:], "/") {
		pkg = pkg[:k] // a method: the receiver type's package
	}
	if printOnly[pkg] {
		return false
	}
	in := i
	if x := fn.child; fn.kind == selectorExpr && len(x) == 2 && x[0].typ != nil && x[0].typ.cat == valueT &&
		rt.NumIn() > 0 && rt.In(0) == x[0].typ.rtype {
		in++ // a method of a compiled type: its type takes the receiver first
	}
	if rt.IsVariadic() && in >= rt.NumIn()-1 {
		return holdsBareRT(rt.In(rt.NumIn() - 1).Elem())
	}
	return in < rt.NumIn() && holdsBareRT(rt.In(in))
}

// holdsBareRT reports whether rt is an empty interface type.
func holdsBareRT(rt reflect.Type) bool {
	return rt != nil && rt.Kind() == reflect.Interface && rt.NumMethod() == 0
}

// isVariadicFunc reports whether the interpreted function type t takes
// a variadic last parameter.
func isVariadicFunc(t *itype) bool {
	return len(t.arg) > 0 && t.arg[len(t.arg)-1].cat == variadicT
}

// argType returns the type of the i-th argument of a call of a function
// whose parameters have types args.
func argType(args []*itype, i int, variadic bool) *itype {
	if variadic && i >= len(args)-1 {
		return args[len(args)-1].val
	}
	if i < len(args) {
		return args[i]
	}
	return nil
}
