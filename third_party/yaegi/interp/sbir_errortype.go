package interp

import "reflect"

// sbir patch 65: an interpreted value converted to error keeps its type.
//
// yaegi converts an interpreted value to the compiled interface error by
// wrapping it in _error (or one of errwrap.go's composed wrappers): a Go
// struct holding the value (IValue) and its methods as funcs. The
// wrapper kept the reflect value only, and the reflect types of
// interpreted types have no names (two struct types with the same fields
// have the same reflect type), so:
//   - %T of the error printed interp._error and %v, %+v and %#v the
//     wrapper struct where no Error method applied;
//   - err == other compared the wrapper with the other operand: false for
//     `err == (*MyErr)(nil)` or `err == ErrSentinel` of an interpreted
//     type, and a run-time panic ("comparing uncomparable type
//     interp._error": the wrapper holds funcs) for two errors;
//   - errors.Is compares with == only comparable targets, which a wrapper
//     is not, so errors.Is(err, ErrSentinel) of an interpreted type was
//     always false.
// The wrappers now carry the value's interpreted type (IType, the last
// field, which is no method), and an Is method that reports whether
// another error holds the same value of the same interpreted type (then
// asks the value's own Is method, if any): errors.Is calls it. fmt
// operands and == read the type from the wrapper.

// itypePtrType is the type of the IType field of a wrapper.
var itypePtrType = reflect.TypeOf((*itype)(nil))

// wrapperMethodFields returns how many fields of the interface wrapper
// type rt, after IValue, hold methods: all but an IType field.
func wrapperMethodFields(rt reflect.Type) int {
	n := rt.NumField() - 1
	if n > 0 && isITypeField(rt.Field(rt.NumField()-1)) {
		n--
	}
	return n
}

// isITypeField reports whether f is the field of an interface wrapper
// that records the interpreted type of the value it holds: *itype in the
// interpreter's own error wrappers (patch 65), interface{} named IType in
// the wrappers the extractor writes for compiled interfaces such as
// fmt.Stringer and sort.Interface (sbir patch 93), which cannot name the
// interpreter's unexported type.
func isITypeField(f reflect.StructField) bool {
	return f.Type == itypePtrType || f.Name == "IType" && f.Type == emptyInterfaceType
}

// wrappedValue returns the value an interface wrapper v holds and its
// interpreted type, if v is a wrapper that records it.
func wrappedValue(v reflect.Value) (reflect.Value, *itype, bool) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return reflect.Value{}, nil, false
	}
	rt := v.Type()
	last := rt.NumField() - 1
	if last < 1 || rt.Field(0).Name != "IValue" || !isITypeField(rt.Field(last)) {
		return reflect.Value{}, nil, false
	}
	t, _ := v.Field(last).Interface().(*itype)
	if t == nil {
		return reflect.Value{}, nil, false
	}
	return v.Field(0).Elem(), t, true
}

// wrapperType returns the interpreted type a wrapper made by
// genInterfaceWrapper for the value v of node n records: n's type, or
// for an interpreted interface, the type of the value it holds.
func wrapperType(n *node, v reflect.Value) *itype {
	t := n.typ
	for v.IsValid() && v.CanInterface() {
		vi, ok := v.Interface().(valueInterface)
		if !ok {
			break
		}
		if vi.node != nil && vi.node.typ != nil {
			t = vi.node.typ
		}
		v = vi.value
	}
	if t == nil || isInterface(t) {
		return nil
	}
	return t
}

// sameError reports whether target holds the value v of interpreted type
// t, as == on two errors holding them does: same type, equal values; a
// value of an uncomparable type is the same as nothing (errors.Is does
// not compare those).
func sameError(t *itype, v any, target error) bool {
	if t == nil || target == nil {
		return false
	}
	tv, tt, ok := wrappedValue(reflect.ValueOf(target))
	if !ok || tt.id() != t.id() || !tv.IsValid() {
		return false
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Type() != tv.Type() || !rv.Type().Comparable() {
		return false
	}
	return tv.CanInterface() && tv.Interface() == v
}

// genGoFormatWrapped passes an operand of a compiled interface type
// (error) to a fmt function as a goValue when it holds a wrapper that
// records an interpreted type fmt would print differently, as
// genGoFormatInterface does for interpreted interfaces.
func genGoFormatWrapped(n *node, wrapsErrors bool) func(*frame) reflect.Value {
	value := genValue(n)
	return func(f *frame) reflect.Value {
		return goFormatWrapped(f, value(f), wrapsErrors)
	}
}

// goFormatWrapped returns v, or a goValue of the value it wraps.
func goFormatWrapped(f *frame, v reflect.Value, wrapsErrors bool) reflect.Value {
	if wv, t, ok := wrappedValue(v); ok && useGoFormat(t, wrapsErrors) {
		return reflect.ValueOf(goValue{v: wv, t: t, f: f})
	}
	return v
}

// wrappedCase reports whether v is an interface wrapper recording the
// interpreted type typ (an error of a cell's type, patch 65) and returns
// the value it holds. sbir patch 88: a type switch on such an error
// (`switch e := err.(type) { case *MyErr: ... }`) matched no case of the
// cell's types, while the assertion err.(*MyErr) succeeded.
func wrappedCase(v reflect.Value, typ *itype) (reflect.Value, bool) {
	held, t, ok := wrappedValue(v)
	if !ok || typ == nil || t.id() != typ.id() {
		return reflect.Value{}, false
	}
	if held.IsValid() && held.CanInterface() {
		if vi, ok := held.Interface().(valueInterface); ok {
			held = vi.value
		}
	}
	return held, held.IsValid()
}

// wrappedAsInterface returns, when v is an interface wrapper recording an
// interpreted type that implements the interpreted interface typ, the
// value it holds as a valueInterface, which is what a variable of typ
// holds. sbir patch 95: `switch e := err.(type) { case Temporary: }` and
// `err.(Coder)` with Temporary and Coder declared by the program missed
// the program's own errors, which the wrapper hides from the assertion.
func wrappedAsInterface(v reflect.Value, typ *itype, interp *Interpreter) (reflect.Value, bool) {
	if typ == nil || !isInterfaceSrc(typ) || isEmptyInterface(typ) {
		return reflect.Value{}, false
	}
	held, t, ok := wrappedValue(v)
	if !ok || !held.IsValid() || !interpretedImplements(t, typ) {
		return reflect.Value{}, false
	}
	if held.CanInterface() {
		if vi, ok := held.Interface().(valueInterface); ok {
			return reflect.ValueOf(vi), true
		}
	}
	return reflect.ValueOf(valueInterface{&node{typ: t, interp: interp}, held}), true
}

// checkErrorsAsTarget refuses errors.As with a target that points to an
// interface type the program declares (sbir patch 95): the compiled
// errors.As (and the kernel's replacement) sees a variable of such a type
// as a struct the interpreter made, which no error is assignable to, and
// answered false where gc finds the error.
func checkErrorsAsTarget(n *node) error {
	if pkg, name := calleeName(n); pkg != "errors" || name != "As" || len(n.child) != 3 {
		return nil
	}
	t := resolveLinked(n.child[2].typ)
	if t == nil || t.cat != ptrT || t.val == nil || !isInterfaceSrc(t.val) || isEmptyInterface(t.val) {
		return nil
	}
	name := t.val.id()
	return n.child[2].cfgErrorf("errors.As with a target of type *%s: this interpreter cannot set a variable of an interface type the program declares from errors.As; walk the chain yourself: for e := err; e != nil; e = errors.Unwrap(e) { if v, ok := e.(%s); ok { ... } }",
		name, t.val.name)
}
