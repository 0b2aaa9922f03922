package interp

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// sbir patch S18: x.m(...) with x of an interface type runs the method of
// x's concrete type directly, as S1 runs x.m(...) of a concrete type.
//
// The call used to go through getMethodByName: the interface's
// valueInterface boxed to read it, reflect's MethodByName searched (and
// missed: the interpreter's types have no reflect methods), a copy of the
// method's node made and wrapped by genFuncValue in a reflect.MakeFunc
// value, and that value called through reflect.Value.Call, whose
// callReflect built the method's frame: ~15,000 instructions and a dozen
// allocations a call, seven times CPython's time for a loop of calls
// through an interface (bench/lang/ifaces). Now the call site reads the
// valueInterface in place, finds the method of its concrete type in a
// small cache (a site sees few types), and runs it in a new frame with
// the receiver set as S1 sets it, or in the int tier (S17).
//
// Anything the fast path does not know takes getMethodByName's way, which
// computes the method value, and the call runs it through reflect as
// before: an interface held in another interface or in a struct's
// embedded field, a nil interface (which panics there), a method of a
// compiled type (reflect finds it), a method promoted from an embedded
// field, a type the interpreter knows only by its reflect type.

// ifaceSite is a call site x.m(...) through an interface.
type ifaceSite struct {
	name  string
	in    *Interpreter               // whose count of learnt methods learn adds to (tests)
	cache atomic.Pointer[ifaceCache] // replaced, never changed: goroutines share the site
}

// ifaceCache is what a site learnt of the concrete types it saw.
type ifaceCache struct {
	entries []ifaceEntry
}

// ifaceMaxTypes bounds a site's cache: a site calling through an
// interface holding more types than that looks the others up every call.
const ifaceMaxTypes = 8

// ifaceEntry is the method m of one concrete type: the interpreter's type
// and the reflect type of its values (a value's type word), and the
// method's declaration, or nil when calls of it take getMethodByName's
// way.
type ifaceEntry struct {
	typ  *itype
	rtyp unsafe.Pointer
	def  *node
}

// ifaceMethodSite returns the site of n, a call whose callee c0 is x.m of
// an interface x, or nil for any other call (and for go and defer
// statements, which evaluate the method value when they run). The callee
// then computes nothing (nop): the call reads x itself.
func ifaceMethodSite(n, c0 *node) *ifaceSite {
	if n.anc.kind == goStmt || n.anc.kind == deferStmt || c0.kind != selectorExpr || len(c0.child) != 2 ||
		c0.exec != nil || !sameGen(c0.gen, getMethodByName) || !valueWordsOK {
		return nil
	}
	c0.gen = nop
	return &ifaceSite{name: c0.child[1].ident, in: n.interp}
}

// method returns the method the site calls for the interface value v0,
// and its receiver, or a nil def when the call takes getMethodByName's
// way.
func (s *ifaceSite) method(v0 reflect.Value) (def *node, rv reflect.Value) {
	vi, ok := heldVI(v0)
	if !ok {
		return nil, reflect.Value{} // an interface in an any, or in a struct
	}
	if vi.node == nil || !vi.value.IsValid() {
		return nil, reflect.Value{} // a nil interface: getMethodByName panics
	}
	rtyp := (*valueWords)(unsafe.Pointer(&vi.value)).typ
	if c := s.cache.Load(); c != nil {
		for i := range c.entries {
			if e := &c.entries[i]; e.typ == vi.node.typ && e.rtyp == rtyp {
				return e.def, vi.value
			}
		}
	}
	def = s.learn(&vi, rtyp)
	return def, vi.value
}

// learn finds the method of vi's concrete type, as getMethodByName would,
// and adds it to the site's cache.
func (s *ifaceSite) learn(vi *valueInterface, rtyp unsafe.Pointer) *node {
	def := s.lookup(vi)
	if def != nil && s.in != nil {
		s.in.ifaceMethods.Add(1)
	}
	c := s.cache.Load()
	if c != nil && len(c.entries) >= ifaceMaxTypes {
		return def
	}
	nc := &ifaceCache{}
	if c != nil {
		nc.entries = append(nc.entries, c.entries...)
	}
	nc.entries = append(nc.entries, ifaceEntry{typ: vi.node.typ, rtyp: rtyp, def: def})
	s.cache.Store(nc) // a lost update only costs another lookup
	return def
}

// lookup returns the declaration of vi's method, or nil when
// getMethodByName finds it some other way.
func (s *ifaceSite) lookup(vi *valueInterface) *node {
	v := vi.value
	if v.Type() == valueInterfaceType || v.Kind() == reflect.Interface {
		return nil // nested: getMethodByName unwraps it
	}
	typ := vi.node.typ
	if typ == nil || (typ.node == nil && typ.cat == valueT) {
		return nil
	}
	// A method declared on the type itself is the one to call even when
	// reflect knows one of the same name, promoted from an embedded
	// compiled field or of the compiled type a defined type is made
	// from (sbir patch 231); anything else reflect knows is a compiled
	// type's, which getMethodByName's way calls.
	m := ownMethod(typ, s.name)
	// A declaration without a compiled body (a generic method's template)
	// is not one to run.
	if m == nil || len(m.child) < 4 || m.child[3] == nil || m.child[3].start == nil || len(m.child[0].child) == 0 || m.typ == nil || m.typ.cat != funcT {
		return nil
	}
	return m
}

// ifaceCurrentDecl returns the latest declaration of def, the method a
// site found for the concrete type of rv, the value the interface holds
// (sbir patch S18, amended). A call through an interface is compiled for the
// interface's method, not for a receiver: when rv is a pointer, whose
// method set has the methods of both receivers, a method declared again
// with the other receiver (T to *T, or back) and the same parameters and
// results is the one to run, as getMethodByName's lookup at every call
// ran it before S18 cached def. Anything else fails as currentDecl does:
// another signature, or a value whose type's method now needs a pointer
// (the type no longer implements the interface).
func ifaceCurrentDecl(def *node, rv reflect.Value) *node {
	cur := def.latest.cur
	if cur != nil && cur != def && rv.Kind() == reflect.Pointer &&
		def.typ != nil && cur.typ != nil && def.typ.TypeOf() == cur.typ.TypeOf() {
		return cur
	}
	return currentDecl(def)
}

// ownMethod returns the method name declared on typ itself (or on what
// typ points to), or nil (sbir patch 231). The interpreter's struct
// type embedding a compiled type (struct{ time.Duration }) has the
// embedded type's methods in reflect, and a defined type made from a
// compiled one (type D time.Duration) may be that compiled type in
// reflect: asking reflect first called time.Duration's String through
// an interface holding a value whose type declares its own.
func ownMethod(typ *itype, name string) *node {
	m, path := typ.lookupMethod(name)
	if m == nil || len(path) != 0 || m.kind != funcDecl {
		return nil
	}
	return m
}

// valueInterfaceWord is the type word of a reflect.Value of a
// valueInterface.
var valueInterfaceWord = typeWord(valueInterfaceType)

// heldValueInterfaceOf returns the valueInterface v is or holds, as
// v.Interface().(valueInterface) does, without boxing a Value of the
// type itself (heldVI) or of any other type but an interface, which
// cannot hold one (sbir patch S18).
func heldValueInterfaceOf(v reflect.Value) (valueInterface, bool) {
	if vi, ok := heldVI(v); ok {
		return vi, true
	}
	if v.IsValid() && (v.Kind() == reflect.Interface || !valueWordsOK) {
		vi, ok := v.Interface().(valueInterface)
		return vi, ok
	}
	return valueInterface{}, false
}
