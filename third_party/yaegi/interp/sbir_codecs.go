package interp

import (
	"reflect"
	"strings"
)

// sbir patch 64: calls whose compiled callee would answer wrongly for
// values of defined non-struct types, refused when
// Options.RefuseIndistinctTypes is set.
//
// encoding/xml sees the reflect type the interpreter builds for a value:
// the methods of interpreted types reach it only for the value passed
// itself (MapTypes wraps it), not for the values nested in it, so a
// struct field of a type with MarshalXML was encoded as its underlying
// type. (encoding/json no longer: patch 89 gives it the interpreted
// methods at every depth.) And context.WithValue compares keys as compiled
// code does: a key of type `type key string` is a plain string there, so
// ctx.Value("language") found the value stored under key("language").

// codecMethods are the methods encoding/json and encoding/xml call on the
// values they encode and decode.
var codecMethods = []string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText", "MarshalXML", "UnmarshalXML"}

// codecCalls are the compiled functions and methods that encode or decode
// their argument by reflection, by package path or receiver type, then
// name, with the argument encoded or decoded. encoding/json's are not
// here: patch 89 shows it the interpreted methods.
var codecCalls = map[string]map[string]int{
	"encoding/xml": {"Marshal": 0, "MarshalIndent": 0, "Unmarshal": 1},
	"*xml.Encoder": {"Encode": 0},
	"*xml.Decoder": {"Decode": 0},
}

// contextKeyCalls are the context calls that take a key, by package path
// or receiver type, then name, with the key's position.
var contextKeyCalls = map[string]map[string]int{
	"context":         {"WithValue": 1},
	"context.Context": {"Value": 0},
}

// calleeName returns the package path (or receiver type) and the name of
// the compiled function or method a call node calls, or "", "".
func calleeName(n *node) (string, string) {
	if len(n.child) == 0 || n.child[0].kind != selectorExpr || len(n.child[0].child) != 2 {
		return "", ""
	}
	x, sel := n.child[0].child[0], n.child[0].child[1]
	switch t := x.typ; {
	case t == nil:
	case t.cat == binPkgT:
		return t.path, sel.ident
	case t.cat == valueT && t.rtype != nil:
		return t.rtype.String(), sel.ident
	case x.sym != nil && x.sym.kind == pkgSym && x.sym.typ != nil:
		return x.sym.typ.path, sel.ident
	}
	return "", ""
}

// checkCodecCall refuses a call to encoding/xml whose
// argument holds, below its top level, a value of an interpreted type
// with a method the encoder calls.
func checkCodecCall(n *node) error {
	pkg, name := calleeName(n)
	arg, ok := codecCalls[pkg][name]
	if !ok || len(n.child) <= arg+1 {
		return nil
	}
	a := n.child[arg+1]
	t := a.typ
	for t != nil && (t.cat == ptrT || t.cat == linkedT) {
		t = t.val
	}
	path, nt := nestedCodecType(t, map[*itype]bool{})
	if nt == nil {
		return nil
	}
	call := pkg[strings.LastIndex(pkg, "/")+1:] + "." + name
	if pkg[0] == '*' {
		call = "(" + pkg + ")." + name
	}
	return a.cfgErrorf("%s: the %s of the value has type %s, whose %s method this interpreter cannot show to the encoder (it sees the underlying value): give the outer type the method, or encode that part yourself",
		call, path, nt.id(), codecMethodOf(nt))
}

// contextKey records the type of the key of a context.WithValue or
// Context.Value call, and refuses it when a key of another type that the
// interpreter represents by the same reflect type is used too (in this
// evaluation or an earlier one): compiled code compares them as equal,
// so `ctx.Value("language")` found the value stored under
// favContextKey("language").
func (c *indistinctCheck) contextKey(n *node) error {
	pkg, name := calleeName(n)
	arg, ok := contextKeyCalls[pkg][name]
	if !ok || len(n.child) <= arg+1 {
		return nil
	}
	k := n.child[arg+1]
	t := k.typ
	if t == nil || isInterface(t) {
		return nil
	}
	rt := safeRefType(t)
	if rt == nil {
		return nil
	}
	id := t.id()
	if t.untyped {
		id = rt.String()
	}
	for _, other := range [2]map[reflect.Type]string{c.keys, c.interp.indistinct.keys} {
		if o, ok := other[rt]; ok && o != id {
			return k.cfgErrorf("context key of type %s: this program also uses keys of type %s, and this interpreter represents both as %s, so a key of one finds the value stored under the other: give each key type its own struct type (type %s struct{ name string })",
				id, o, rt, t.name)
		}
	}
	c.keys[rt] = id
	return nil
}

// nestedCodecType returns the first type with a codec method found in
// the fields, elements, keys and pointed-to types of t (not t itself),
// and where it is.
func nestedCodecType(t *itype, seen map[*itype]bool) (string, *itype) {
	if t == nil || seen[t] {
		return "", nil
	}
	seen[t] = true
	var parts []*itype
	var names []string
	switch t.cat {
	case structT:
		for _, f := range t.field {
			parts, names = append(parts, f.typ), append(names, "field "+f.name)
		}
	case sliceT, arrayT, ptrT, chanT:
		parts, names = append(parts, t.val), append(names, "element")
	case mapT:
		parts, names = append(parts, t.key, t.val), append(names, "map key", "map value")
	case linkedT:
		return nestedCodecType(t.val, seen)
	}
	for i, p := range parts {
		if p == nil {
			continue
		}
		if p.cat != valueT && codecMethodOf(p) != "" {
			return names[i], p
		}
		b := p
		for b.cat == ptrT && b.val != nil {
			b = b.val
		}
		if b != p && b.cat != valueT && codecMethodOf(b) != "" {
			return names[i], b
		}
		if path, nt := nestedCodecType(p, seen); nt != nil {
			return names[i] + " " + path, nt
		}
	}
	return "", nil
}

// codecMethodOf returns the first codec method of the interpreted type t,
// or "".
func codecMethodOf(t *itype) string {
	if t == nil || t.cat == valueT {
		return ""
	}
	ms := t.methods()
	for _, m := range codecMethods {
		if _, ok := ms[m]; ok {
			return m
		}
	}
	return ""
}
