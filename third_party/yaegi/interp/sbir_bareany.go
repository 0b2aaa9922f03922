package interp

import "reflect"

// sbir patch 204: compiled code other than fmt, the encoders and the
// containers gets a value of a defined type without methods bare.
//
// Patch 200 keeps such a value in an `any` as a valueInterface. Compiled
// functions that read what they are given (text/template, log, binary)
// cannot see the interpreter's wrapper: `tmpl.Execute(w, x)` with
// `var x any = code(5)` printed the wrapper's fields, where it printed 5
// before patch 200 (and gc prints 5). A type without methods has nothing
// a compiled function could call, so such code gets the bare value, as it
// did before; a template's data is unwrapped at every depth (slices,
// arrays, maps, struct fields), as a template only reads it.

// bareHeld returns the value a valueInterface v holds when v is one of a
// defined type without methods, v otherwise.
func bareHeld(v reflect.Value) (reflect.Value, bool) {
	vi, ok := heldVI(v)
	if !ok || vi.node == nil || vi.node.typ == nil || len(vi.node.typ.method) > 0 || !isIndistinctDefined(vi.node.typ) {
		return v, false
	}
	return vi.value, true
}

// genBareAny returns the value of c, an `any` argument of a compiled
// function, with a valueInterface of a type without methods unwrapped.
func genBareAny(c *node) func(*frame) reflect.Value {
	value := genValue(c)
	return func(f *frame) reflect.Value {
		v := value(f)
		if !v.IsValid() || v.Kind() != reflect.Interface || v.IsNil() {
			return v
		}
		if b, ok := bareHeld(v.Elem()); ok {
			return b
		}
		return v
	}
}

// bareData returns v with every valueInterface of a type without methods
// it holds, at any depth, replaced by the value it holds; v itself when
// it holds none. Pointers are not followed.
func bareData(v reflect.Value, depth int) (reflect.Value, bool) {
	if !v.IsValid() || depth > 32 {
		return v, false
	}
	if b, ok := bareHeld(v); ok {
		if bb, ok2 := bareData(b, depth+1); ok2 {
			b = bb
		}
		return b, true
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e := v.Elem()
		if b, ok := bareHeld(e); ok {
			if bb, ok2 := bareData(b, depth+1); ok2 {
				b = bb
			}
			return b, true
		}
		if b, ok := bareData(e, depth+1); ok {
			return b, true
		}
		return v, false
	case reflect.Slice, reflect.Array:
		if !hasInterfacePart(v.Type().Elem(), 0) && v.Type().Elem().Kind() != reflect.Slice && v.Type().Elem().Kind() != reflect.Map {
			return v, false
		}
		var c reflect.Value
		for i := 0; i < v.Len(); i++ {
			b, ok := bareData(v.Index(i), depth+1)
			if !ok {
				continue
			}
			if !c.IsValid() {
				c = copyContainer(v)
			}
			setCanon(c.Index(i), b)
		}
		return c, c.IsValid()
	case reflect.Map:
		et := v.Type().Elem()
		if !hasInterfacePart(et, 0) && et.Kind() != reflect.Slice && et.Kind() != reflect.Map {
			return v, false
		}
		var c reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			if _, ok := bareData(iter.Value(), depth+1); ok {
				c = reflect.MakeMapWithSize(v.Type(), v.Len())
				break
			}
		}
		if !c.IsValid() {
			return v, false
		}
		iter = v.MapRange()
		for iter.Next() {
			e := iter.Value()
			if b, ok := bareData(e, depth+1); ok {
				n := reflect.New(et).Elem()
				setCanon(n, b)
				e = n
			}
			c.SetMapIndex(iter.Key(), e)
		}
		return c, true
	case reflect.Struct:
		if !hasInterfacePart(v.Type(), 0) {
			return v, false
		}
		var c reflect.Value
		for i := 0; i < v.NumField(); i++ {
			b, ok := bareData(v.Field(i), depth+1)
			if !ok {
				continue
			}
			if !c.IsValid() {
				c = reflect.New(v.Type()).Elem()
				c.Set(v)
			}
			if f := c.Field(i); f.CanSet() {
				setCanon(f, b)
			}
		}
		return c, c.IsValid()
	}
	return v, false
}

// copyContainer returns a copy of the slice or array v.
func copyContainer(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Array {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		return c
	}
	c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(c, v)
	return c
}

// bareDataCall wraps call, a template's Execute, so that its data (the
// last argument) is read without the interpreter's wrappers.
func bareDataCall(call func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	return func(fn reflect.Value, in []reflect.Value) []reflect.Value {
		if l := len(in) - 1; l >= 0 {
			if b, ok := bareData(in[l], 0); ok {
				if in[l].Kind() == reflect.Interface && b.Type() != in[l].Type() {
					w := reflect.New(in[l].Type()).Elem()
					w.Set(b)
					b = w
				}
				in[l] = b
			}
		}
		return call(fn, in)
	}
}

// BareValues returns v with every value of a defined type without
// methods that the interpreter keeps in an interface (sbir patch 200),
// at any depth of v (slices, arrays, maps, struct fields; not behind
// pointers), replaced by the value itself: host code that reads an
// evaluation's value by reflection (a notebook's display of a cell's
// value) sees `[1 2]` for []any{code(1), 2}, as before patch 200, not
// the interpreter's wrapper. It returns v itself when v holds none.
func BareValues(v reflect.Value) reflect.Value {
	if b, ok := bareData(v, 0); ok {
		return b
	}
	return v
}

// bareArgsCall wraps call so that every argument is read without the
// interpreter's wrappers of values of types without methods, at every
// depth (bareData). For functions that only read their arguments.
func bareArgsCall(call func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	return func(fn reflect.Value, in []reflect.Value) []reflect.Value {
		for i, a := range in {
			if b, ok := bareData(a, 0); ok {
				if a.Kind() == reflect.Interface && b.Type() != a.Type() {
					w := reflect.New(a.Type()).Elem()
					w.Set(b)
					b = w
				}
				in[i] = b
			}
		}
		return call(fn, in)
	}
}
