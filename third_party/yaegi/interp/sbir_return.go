package interp

import "reflect"

// sbir patch S10c: a function returning a constant (return true,
// return 0, return "") stores a value converted once, when the step is
// made, with the setter of its kind.
//
// The step converted the constant to the result's type at every return
// (genValueAs: reflect.Value.Convert) and stored it with
// reflect.Value.Set: for strings.FieldsFunc's closure, which returns true
// or false once per character, that was a fifth of a call. A constant is
// the same at every return, and so is its conversion: converting it once
// and storing it with the kind's setter (setSameKind, S8) stores the same
// value.

// constantReturn returns the step of a return of c, a constant, as the
// only result of a function whose result type is t, or false when c is
// not one or t is not a boolean, numeric or string type. value is the
// generator _return made for c: genValueAs(c, t) for an untyped
// constant, genValue(c) for a typed one; for a constant neither reads
// the frame.
func constantReturn(c *node, t *itype, value func(*frame) reflect.Value) (bltn, bool) {
	// A compiled package's variable (os.Args, runtime.MemProfileRate)
	// also has an rval: the variable itself, which a return must read
	// each time. A constant's rval is never addressable.
	if !c.rval.IsValid() || c.rval.CanAddr() || t == nil {
		return nil, false
	}
	rt := t.TypeOf()
	if rt == nil {
		return nil, false
	}
	switch rt.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
	default:
		return nil, false
	}
	cv, ok := convertedConstant(value)
	if !ok || cv.Type() != rt {
		return nil, false
	}
	return func(f *frame) bltn {
		setSameKind(f.data[0], cv)
		return nil
	}, true
}

// convertedConstant returns what value, the generator of a constant
// (which reads no frame), returns, or false if it panics: the step then
// converts at every return, and panics there as it did.
func convertedConstant(value func(*frame) reflect.Value) (v reflect.Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = reflect.Value{}, false
		}
	}()
	v = value(nil)
	return v, v.IsValid()
}
