package interp

import (
	"reflect"
	"sync"
	"unsafe"
)

// sbir patch 202: keys of maps whose key type holds interfaces
// (map[any]V, map[[2]any]V, map[struct{ k any }]V) are canonical.
//
// In an interface, a value of an interpreted defined type is a
// valueInterface: the node it was made at and a reflect.Value. Go's map
// hashes and compares that struct by the node and by the reflect.Value's
// pointer to the value, so two keys holding celsius(1) made at two places
// were two keys (m[h(1)] = "a"; m[celsius(1)] found nothing), and a key
// of a defined type given by its concrete type (m[c] with c a celsius)
// was stored bare, the same key as the int 1. gc finds one key for equal
// values of one type and tells types apart.
//
// Such a map holds, in place of each valueInterface, a typedKey: the
// identity of the interpreted type (one *keyType per type name, as ==
// names types, equalTypeName) and the bare value, both compared by Go's
// ==. Reading keys back (range, fmt) turns a typedKey into a
// valueInterface again. Maps of other key types are untouched.

// keyType is the identity of an interpreted type in map keys.
type keyType struct {
	name string
	node *node // a node of the type, for the valueInterface read back
}

// typedKey is a map key holding a value of an interpreted type.
type typedKey struct {
	t *keyType
	v any
}

var typedKeyType = reflect.TypeOf(typedKey{})

// keyTypes interns the keyType of each type name, per interpreter.
type keyTypes struct {
	m sync.Map // string -> *keyType
}

// of returns the keyType of t, with n a node of type t.
func (k *keyTypes) of(t *itype, n *node) *keyType {
	name := equalTypeName(t)
	if kt, ok := k.m.Load(name); ok {
		return kt.(*keyType)
	}
	kt, _ := k.m.LoadOrStore(name, &keyType{name: name, node: n})
	return kt.(*keyType)
}

// mapKeyNeedsCanon reports whether keys of the map type mt must be made
// canonical: its key type holds an interface.
func mapKeyNeedsCanon(mt *itype) bool {
	if mt == nil {
		return false
	}
	rt := safeRefType(mt)
	if rt == nil || rt.Kind() != reflect.Map {
		return false
	}
	kt := rt.Key()
	if kt.Kind() == reflect.Interface {
		return kt.NumMethod() == 0
	}
	return hasInterfacePart(kt, 0)
}

// genMapKey returns the value of the key k of an index of the map m, as
// the map holds it: canonical when the map's key type holds interfaces.
// key is the value the caller would use.
func genMapKey(m, k *node, key func(*frame) reflect.Value) func(*frame) reflect.Value {
	mt := m.typ
	if mt != nil && mt.cat == ptrT {
		mt = mt.val
	}
	for mt != nil && mt.cat == linkedT && mt.val != nil {
		mt = mt.val
	}
	if !mapKeyNeedsCanon(mt) || k.interp == nil {
		return key
	}
	kts := &k.interp.keyTypes
	if t := k.typ; t != nil && !isInterface(t) && keepsTypeInAny(t) && isInterface(mt.key) {
		// A key of a concrete defined type given to an interface key:
		// it is of that type, whatever reflect value holds it.
		kt := kts.of(t, k)
		return func(f *frame) reflect.Value {
			v := key(f)
			for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
				v = v.Elem()
			}
			if vi, ok := heldVI(v); ok {
				v = vi.value
			}
			return reflect.ValueOf(typedKey{kt, kts.canon(v).Interface()})
		}
	}
	return func(f *frame) reflect.Value { return kts.canon(key(f)) }
}

// heldVI returns the valueInterface v is, if it is one. The struct is
// read in place (sbir patch S18): a Value of it, addressable or not,
// points at its words, and boxing it to assert its type allocated at
// every assignment of an interface value and every call through one.
func heldVI(v reflect.Value) (valueInterface, bool) {
	if valueWordsOK {
		if w := (*valueWords)(unsafe.Pointer(&v)); w.typ == valueInterfaceWord && v.CanInterface() {
			return *(*valueInterface)(w.ptr), true
		}
		return valueInterface{}, false
	}
	if !v.IsValid() || v.Type() != valueInterfaceType || !v.CanInterface() {
		return valueInterface{}, false
	}
	vi, ok := v.Interface().(valueInterface)
	return vi, ok
}

// canon returns v with every valueInterface it holds, at its top or in
// its interface fields and elements, replaced by a typedKey.
func (k *keyTypes) canon(v reflect.Value) reflect.Value {
	if !v.IsValid() {
		return v
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() || v.NumMethod() > 0 {
			return v // a compiled interface holds wrappers, never a valueInterface
		}
		e := v.Elem()
		c := k.canonHeld(e)
		if c == e {
			return v
		}
		return c
	case reflect.Struct:
		if vi, ok := heldVI(v); ok {
			return k.canonHeld(reflect.ValueOf(vi))
		}
		if !hasInterfacePart(v.Type(), 0) {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := 0; i < c.NumField(); i++ {
			if f := c.Field(i); f.CanSet() && hasInterfacePart(f.Type(), 0) {
				setCanon(f, k.canon(f))
			}
		}
		return c
	case reflect.Array:
		if !hasInterfacePart(v.Type(), 0) {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := 0; i < c.Len(); i++ {
			setCanon(c.Index(i), k.canon(c.Index(i)))
		}
		return c
	}
	return v
}

// setCanon stores c, a canonical form of what dst holds, in dst.
func setCanon(dst, c reflect.Value) {
	if !c.IsValid() {
		return
	}
	if dst.Kind() == reflect.Interface || c.Type().AssignableTo(dst.Type()) {
		dst.Set(c)
	}
}

// canonHeld returns the canonical form of e, the value an interface holds.
func (k *keyTypes) canonHeld(e reflect.Value) reflect.Value {
	vi, ok := heldVI(e)
	if !ok {
		switch e.Kind() {
		case reflect.Struct, reflect.Array:
			return k.canon(e)
		}
		return e
	}
	if vi.node == nil || vi.node.typ == nil || !vi.value.IsValid() {
		return e
	}
	v := vi.value
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if inner, ok := heldVI(v); ok {
		return k.canonHeld(reflect.ValueOf(inner))
	}
	if isInterface(vi.node.typ) || !v.CanInterface() {
		return e
	}
	c := k.canon(v)
	return reflect.ValueOf(typedKey{k.of(vi.node.typ, vi.node), c.Interface()})
}

// restore returns v, a key as a map holds it, as interpreted code sees
// it: each typedKey a valueInterface again.
func restoreKey(v reflect.Value) reflect.Value {
	if !v.IsValid() {
		return v
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		e := v.Elem()
		if r := restoreHeld(e); r != e {
			return r
		}
		return v
	case reflect.Struct:
		if v.Type() == typedKeyType {
			return restoreHeld(v)
		}
		if !hasInterfacePart(v.Type(), 0) {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := 0; i < c.NumField(); i++ {
			if f := c.Field(i); f.CanSet() && hasInterfacePart(f.Type(), 0) {
				setCanon(f, restoreKey(f))
			}
		}
		return c
	case reflect.Array:
		if !hasInterfacePart(v.Type(), 0) {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := 0; i < c.Len(); i++ {
			setCanon(c.Index(i), restoreKey(c.Index(i)))
		}
		return c
	}
	return v
}

// restoreHeld returns the valueInterface a typedKey e stands for, e
// restored otherwise.
func restoreHeld(e reflect.Value) reflect.Value {
	if e.Type() != typedKeyType {
		switch e.Kind() {
		case reflect.Struct, reflect.Array:
			return restoreKey(e)
		}
		return e
	}
	tk := e.Interface().(typedKey)
	return reflect.ValueOf(valueInterface{tk.t.node, restoreKey(reflect.ValueOf(tk.v))})
}

// genMapKeyRead returns a function giving keys read from a map of type mt
// as interpreted code sees them.
func genMapKeyRead(mt *itype) func(reflect.Value) reflect.Value {
	for mt != nil && mt.cat == linkedT && mt.val != nil {
		mt = mt.val
	}
	if !mapKeyNeedsCanon(mt) {
		return nil
	}
	return restoreKey
}

// constMapKey returns the constant key of the map index n as the map
// holds it.
func constMapKey(n *node) reflect.Value {
	rv := n.child[1].rval
	return genMapKey(n.child[0], n.child[1], func(*frame) reflect.Value { return rv })(nil)
}

// rangeMapRestore is rangeMap for a map keyed by interfaces: each key is
// read back with restore.
func rangeMapRestore(n *node, restore func(reflect.Value) reflect.Value) {
	index0 := n.child[0].findex // map index location in frame
	index2 := index0 - 1        // iterator for range, always just behind index0
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)
	value := genValue(n.child[len(n.child)-2]) // map
	index1 := -1
	if len(n.child) == 4 {
		index1 = n.child[1].findex // map value location in frame
	}
	n.exec = func(f *frame) bltn {
		iter := f.data[index2].Interface().(*reflect.MapIter)
		if !iter.Next() {
			return fnext
		}
		f.data[index0].Set(restore(iter.Key()))
		if index1 >= 0 {
			f.data[index1].Set(iter.Value())
		}
		return tnext
	}
	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[index2].Set(reflect.ValueOf(value(f).MapRange()))
		return next
	}
}
