package interp

import "reflect"

// sbir patches 160 to 163: a value of an interpreted type with methods
// keeps its type in an empty interface returned by a function, printed
// from a call, and switched on with an assignment (164, an assertion of
// such a result to a compiled interface, is in typeAssert).
//
// An assignment to an empty interface stores a value of a type with
// methods as a valueInterface, which records the type (genDestValue); a
// return to an `any` result stored it bare (patch 160, _return), so %T
// printed its underlying type and fmt did not call its String method. A
// declared struct without methods held bare in an interface result of a
// call passed to fmt printed as reflect's struct (patch 161,
// goFormatResult), as patch 83 had fixed for operands. And a type switch
// with an assignment, `switch x := v.(type) { case celsius: }`, missed
// the valueInterface an empty interface variable holds (patch 162), and
// a case of a compiled interface the value implements (patch 163).

// heldValueInterface returns the value v, a non-nil empty interface,
// holds in a valueInterface of the concrete type typ (sbir patch 162): a
// type switch case with an assignment matches it as a case without one
// does (_case compares the valueInterface's type).
func heldValueInterface(v reflect.Value, typ *itype) (reflect.Value, bool) {
	if typ == nil || isInterface(typ) || v.IsNil() {
		return reflect.Value{}, false
	}
	e := v.Elem()
	if !e.IsValid() || !e.CanInterface() {
		return reflect.Value{}, false
	}
	vi, ok := e.Interface().(valueInterface)
	if !ok || vi.node == nil || vi.node.typ == nil || vi.node.typ.id() != typ.id() {
		return reflect.Value{}, false
	}
	return vi.value, vi.value.IsValid()
}

// heldAsCompiledInterface returns the value v, a non-nil empty
// interface, holds in a valueInterface, wrapped as the compiled interface
// typ (error, fmt.Stringer) when its interpreted type implements typ
// (sbir patch 163): `switch x := v.(type) { case error: }` missed a value
// of a type declared with an Error method that an `any` holds, which the
// case without an assignment matches.
func heldAsCompiledInterface(f *frame, v reflect.Value, typ *itype) (reflect.Value, bool) {
	if typ == nil || typ.cat != errorT && typ.cat != valueT || v.IsNil() {
		return reflect.Value{}, false
	}
	rt := typ.TypeOf()
	if rt == nil || rt.Kind() != reflect.Interface || rt.NumMethod() == 0 {
		return reflect.Value{}, false
	}
	e := v.Elem()
	if !e.IsValid() || !e.CanInterface() {
		return reflect.Value{}, false
	}
	vi, ok := e.Interface().(valueInterface)
	if !ok || vi.node == nil || vi.node.typ == nil || !interpretedImplements(vi.node.typ, typ) {
		return reflect.Value{}, false
	}
	held := vi.value
	w := genInterfaceWrapperOf(vi.node, rt, func(*frame) reflect.Value { return held })(f)
	return w, w.IsValid() && w.Type().Implements(rt)
}
