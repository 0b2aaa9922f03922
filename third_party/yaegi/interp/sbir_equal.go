package interp

import "reflect"

// sbir patch 20e: == and != on interface operands compare dynamic types
// and values. An interpreted value in an interface is a valueInterface,
// a node and a reflect.Value; comparing two of them with == compared the
// nodes (where each value was built) and the reflect.Values' pointers, so
// two interfaces holding equal values were unequal.
//
// sbir patch 65: the same for a compiled interface (error) holding an
// interpreted value in a wrapper that records its type, and for a
// concrete operand of an interpreted type compared with an interface
// (genEqualValue): `err == (*MyErr)(nil)`, `err == ErrSentinel`,
// `shape == Square{2}` compared the wrapper or valueInterface with the
// bare value (false), and two errors compared their wrappers (a panic:
// wrappers hold funcs).

// typedOperand is a concrete operand of an interpreted type in a
// comparison with an interface: == converts it to the interface, which
// then holds it with its type (sbir patch 65).
type typedOperand struct {
	t *itype
	v reflect.Value
}

// genEqualValue returns the value of the operand c of == or != whose
// other operand is an interface: a typedOperand when c has a concrete
// interpreted type, c's value otherwise (sbir patch 65).
func genEqualValue(c *node) func(*frame) reflect.Value {
	var other *itype
	if o := otherOperand(c); o != nil {
		other = o.typ
	}
	return genComparedValue(c, other)
}

// sbirEqualValues reports whether a == b, seeing through valueInterface,
// interface wrappers and typedOperand.
func sbirEqualValues(a, b any) bool {
	ta, va, wa := unwrapValueInterface(a)
	tb, vb, wb := unwrapValueInterface(b)
	if !wa || !wb {
		// sbir patch 200: a value of a defined non-struct type is held
		// with its type (keepsTypeInAny), so a bare value beside it is
		// of another type, its Go type: any(celsius(1)) == any(1) is
		// false. A bare value may still be a value of a struct type
		// without methods that lost its type: compare the values.
		if wa && heldDefinedType(a) || wb && heldDefinedType(b) {
			return false
		}
		return equalHeld(va, vb)
	}
	if ta != tb {
		return false
	}
	if va != nil && !reflect.TypeOf(va).Comparable() {
		panic(&uncomparableError{ta})
	}
	return equalHeld(va, vb)
}

// uncomparableError is gc's run-time error for == on interfaces holding
// values of a type that == cannot compare (sbir patch 65).
type uncomparableError struct{ typ string }

func (e *uncomparableError) Error() string {
	return "runtime error: comparing uncomparable type " + e.typ
}

// RuntimeError marks uncomparableError as a runtime.Error, as gc's is.
func (*uncomparableError) RuntimeError() {}

// unwrapValueInterface returns the interpreted type identity and the value
// held by x if it is a valueInterface, a typedOperand or an interface
// wrapper recording its type (both empty for a nil one), or x itself.
func unwrapValueInterface(x any) (typ string, val any, wrapped bool) {
	switch o := x.(type) {
	case typedOperand:
		if !o.v.IsValid() || !o.v.CanInterface() {
			return "", nil, true
		}
		if vi, ok := o.v.Interface().(valueInterface); ok {
			return unwrapValueInterface(vi)
		}
		return equalTypeName(o.t), o.v.Interface(), true
	case valueInterface:
	default:
		if v, t, ok := wrappedValue(reflect.ValueOf(x)); ok && v.IsValid() && v.CanInterface() {
			return equalTypeName(t), v.Interface(), true
		}
		return "", x, false
	}
	vi := x.(valueInterface)
	for {
		if vi.node == nil || vi.node.typ == nil || !vi.value.IsValid() {
			return "", nil, true
		}
		v := vi.value
		for v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() == reflect.Interface || !v.CanInterface() {
			return "", nil, true
		}
		inner, ok := v.Interface().(valueInterface)
		if !ok {
			if wv, t, ok := wrappedValue(v); ok && wv.IsValid() && wv.CanInterface() {
				return equalTypeName(t), wv.Interface(), true
			}
			return equalTypeName(vi.node.typ), v.Interface(), true
		}
		vi = inner
	}
}

// equalTypeName is t's identity for ==, as gc names it in its errors.
func equalTypeName(t *itype) string {
	if t.name != "" && t.path != "" && t.cat != valueT {
		return t.path + "." + t.name
	}
	return t.id()
}
