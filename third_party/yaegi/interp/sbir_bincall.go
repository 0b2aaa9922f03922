package interp

import (
	"reflect"
	"unsafe"
)

// sbir patch S4: calls of compiled functions with the common signatures
// of the standard library's string, character and number functions are
// made directly, with arguments and results read and written as Go
// values.
//
// callBin calls a compiled function through reflect.Value.Call: a slice
// of arguments, reflect's call frame, a slice of results, and a boxed
// result stored into the frame. For strings.ToLower, strings.Fields,
// unicode.IsLetter or math.Sqrt that machinery costs several times the
// function. When the callee is a constant (a function of a package, not
// a function value) and its type is one of binSigs', the call site
// type-asserts the function once, when it is compiled, and the call is a
// plain Go call.

// binCall is a call of a compiled function with a known signature: it
// reads its arguments with in and stores its result with set, or returns
// the boolean result (test) for a call whose value decides a branch.
type binCall struct {
	set  func(f *frame, dest reflect.Value)
	test func(f *frame) bool
}

// typedBinCall returns the direct call of fn with the argument values in,
// or false if fn's type is not one it knows.
func typedBinCall(fn interface{}, in []func(*frame) reflect.Value) (binCall, bool) {
	arg := func(i int) func(*frame) reflect.Value { return in[i] }
	switch fn := fn.(type) {
	case func(string) string:
		a := arg(0)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetString(fn(a(f).String())) }}, true
	case func(string) []string:
		a := arg(0)
		return binCall{set: func(f *frame, d reflect.Value) { setStrings(d, fn(a(f).String())) }}, true
	case func(string) int:
		a := arg(0)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetInt(int64(fn(a(f).String()))) }}, true
	case func(string) bool:
		a := arg(0)
		g := func(f *frame) bool { return fn(a(f).String()) }
		return boolCall(g), true
	case func(string, string) string:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetString(fn(a(f).String(), b(f).String())) }}, true
	case func(string, string) []string:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { setStrings(d, fn(a(f).String(), b(f).String())) }}, true
	case func(string, string) bool:
		a, b := arg(0), arg(1)
		g := func(f *frame) bool { return fn(a(f).String(), b(f).String()) }
		return boolCall(g), true
	case func(string, string) int:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetInt(int64(fn(a(f).String(), b(f).String()))) }}, true
	case func(string, string, string) string:
		a, b, c := arg(0), arg(1), arg(2)
		return binCall{set: func(f *frame, d reflect.Value) {
			d.SetString(fn(a(f).String(), b(f).String(), c(f).String()))
		}}, true
	case func(string, string, string, int) string:
		a, b, c, e := arg(0), arg(1), arg(2), arg(3)
		return binCall{set: func(f *frame, d reflect.Value) {
			d.SetString(fn(a(f).String(), b(f).String(), c(f).String(), int(e(f).Int())))
		}}, true
	case func(string, int) string:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetString(fn(a(f).String(), int(b(f).Int()))) }}, true
	case func(string, rune) int:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetInt(int64(fn(a(f).String(), rune(b(f).Int())))) }}, true
	case func(string, byte) int:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetInt(int64(fn(a(f).String(), byte(b(f).Uint())))) }}, true
	case func([]string, string) string:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetString(fn(getStrings(a(f)), b(f).String())) }}, true
	case func(int) string:
		a := arg(0)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetString(fn(int(a(f).Int()))) }}, true
	case func(rune) bool:
		a := arg(0)
		g := func(f *frame) bool { return fn(rune(a(f).Int())) }
		return boolCall(g), true
	case func(rune) rune:
		a := arg(0)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetInt(int64(fn(rune(a(f).Int())))) }}, true
	case func(float64) float64:
		a := arg(0)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetFloat(fn(a(f).Float())) }}, true
	case func(float64, float64) float64:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetFloat(fn(a(f).Float(), b(f).Float())) }}, true
	case func(string, func(rune) bool) []string:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { setStrings(d, fn(a(f).String(), runePred(b(f)))) }}, true
	case func(string, func(rune) bool) int:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetInt(int64(fn(a(f).String(), runePred(b(f))))) }}, true
	case func(string, func(rune) bool) string:
		a, b := arg(0), arg(1)
		return binCall{set: func(f *frame, d reflect.Value) { d.SetString(fn(a(f).String(), runePred(b(f)))) }}, true
	case func(string, func(rune) bool) bool:
		a, b := arg(0), arg(1)
		g := func(f *frame) bool { return fn(a(f).String(), runePred(b(f))) }
		return boolCall(g), true
	case func(float64) bool:
		a := arg(0)
		g := func(f *frame) bool { return fn(a(f).Float()) }
		return boolCall(g), true
	}
	return binCall{}, false
}

// runePred returns the func(rune) bool in v, which may be nil.
func runePred(v reflect.Value) func(rune) bool {
	if v.IsNil() {
		return nil
	}
	if p, ok := v.Interface().(func(rune) bool); ok {
		return p
	}
	return v.Convert(typeRuneBool).Interface().(func(rune) bool)
}

// boolCall is the binCall of a function with a boolean result.
func boolCall(g func(*frame) bool) binCall {
	return binCall{set: func(f *frame, d reflect.Value) { d.SetBool(g(f)) }, test: g}
}

// setStrings stores s in d, a []string location, without boxing s when d
// is addressable.
func setStrings(d reflect.Value, s []string) {
	if d.CanAddr() && d.Type() == stringSliceType {
		*(*[]string)(unsafe.Pointer(d.UnsafeAddr())) = s
		return
	}
	d.Set(reflect.ValueOf(s))
}

// getStrings returns the []string in v without boxing it when v is
// addressable.
func getStrings(v reflect.Value) []string {
	if v.CanAddr() && v.Type() == stringSliceType {
		return *(*[]string)(unsafe.Pointer(v.UnsafeAddr()))
	}
	return v.Interface().([]string)
}

var stringSliceType = reflect.TypeOf([]string(nil))

// directBinCall sets n.exec to a direct call of n's callee (sbir patch
// S4) and reports whether it could: the callee is a function of a
// package with a signature typedBinCall knows, called for its value or a
// branch, with no argument that needs an interface wrapper.
func directBinCall(n *node, values []func(*frame) reflect.Value, tnext, fnext bltn) bool {
	c0 := n.child[0]
	if !c0.rval.IsValid() || c0.rval.Kind() != reflect.Func || c0.recv != nil || n.action == aCallSlice ||
		n.anc.kind == deferStmt || n.anc.kind == goStmt || !c0.rval.CanInterface() {
		return false
	}
	switch n.anc.action {
	case aAssignX, aReturn:
		return false
	}
	call, ok := typedBinCall(c0.rval.Interface(), values)
	if !ok {
		return false
	}
	l, i := n.level, n.findex
	if fnext != nil {
		if call.test == nil {
			return false
		}
		test := call.test
		n.exec = func(f *frame) bltn {
			b := test(f)
			getFrame(f, l).data[i].SetBool(b)
			if b {
				return tnext
			}
			return fnext
		}
		return true
	}
	set := call.set
	n.exec = func(f *frame) bltn {
		set(f, getFrame(f, l).data[i])
		return tnext
	}
	return true
}
