package interp

import "reflect"

// sbir patch 20e: == and != on interface operands compare dynamic types
// and values. An interpreted value in an interface is a valueInterface,
// a node and a reflect.Value; comparing two of them with == compared the
// nodes (where each value was built) and the reflect.Values' pointers, so
// two interfaces holding equal values were unequal.

// sbirEqualValues reports whether a == b, seeing through valueInterface.
func sbirEqualValues(a, b any) bool {
	ta, va, wa := unwrapValueInterface(a)
	tb, vb, wb := unwrapValueInterface(b)
	if !wa || !wb {
		// A bare value has lost its interpreted type: compare as before.
		return a == b
	}
	return ta == tb && va == vb
}

// unwrapValueInterface returns the interpreted type identity and the value
// held by x if it is a valueInterface (both empty for a nil one).
func unwrapValueInterface(x any) (typ string, val any, wrapped bool) {
	vi, ok := x.(valueInterface)
	if !ok {
		return "", x, false
	}
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
			return vi.node.typ.id(), v.Interface(), true
		}
		vi = inner
	}
}
