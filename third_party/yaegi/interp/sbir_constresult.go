package interp

import "reflect"

// sbir patch S11c: `return true`, `return 0`, `return "x"` set the
// function's result to a value converted once, when the function is
// compiled.
//
// _return made the value of an untyped constant result at every call:
// genValueAs converted the constant to the result's type (Value.Convert,
// which allocates for most kinds) and reflect.Value.Set stored it. In a
// method returning true or false that was a tenth of the call. The
// constant is now converted once, and stored with the setter of its kind
// (setSameKind) when the result is an int, float64, string or bool.

// constResult returns the step of a return statement whose only result
// is the constant c, of the basic type the value v gives (v as _return
// made it), or nil when c is not a constant of a basic kind.
func constResult(c *node, v func(*frame) reflect.Value) bltn {
	if !c.rval.IsValid() && c.kind != basicLit {
		return nil
	}
	cv, ok := constResultValue(v)
	if !ok {
		return nil
	}
	return func(f *frame) bltn {
		setSameKind(f.data[0], cv)
		return nil
	}
}

// constResultValue returns the value v gives for a constant, which reads no
// frame, when it is of a basic kind; false if making it panics (the
// statement then makes it, and panics, when it runs, as before).
func constResultValue(v func(*frame) reflect.Value) (cv reflect.Value, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	cv = v(nil)
	switch cv.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return cv, true
	}
	return reflect.Value{}, false
}

// sbir patch S11e: an argument of an int, float64, string or bool
// parameter is stored with its kind's setter before anything else is
// asked of it. call asked every argument whether it was a zero value (to
// leave a zero struct unset, a workaround for recursive struct types)
// and what kind it was before storing it: for an int, a third of the
// cost of passing it. The parameter's value is a zero value when the
// call starts (a new frame, or one used again, zeroed), so storing a
// zero there changes nothing.

// sameBasicKind reports whether dst and src are both ints, int64s,
// float64s, strings or bools: the kinds setSameKind sets with their
// setter.
func sameBasicKind(dst, src reflect.Value) bool {
	switch k := src.Kind(); k {
	case reflect.Int, reflect.Int64, reflect.Float64, reflect.String, reflect.Bool:
		return dst.Kind() == k
	}
	return false
}
