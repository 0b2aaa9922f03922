package interp

import "reflect"

// sbir patch 200: a value of a defined type whose underlying type is a
// boolean, numeric or string type keeps its type in an empty interface,
// and == tells it from a value of its underlying type.
//
// The interpreter represents such a value by the reflect value of its
// underlying type (reflect cannot make named types). Stored in an `any`
// it was a bare int or string when its type had no methods (assignments,
// returns, arguments, composite literals, append, any(x)), so
// `any(code(1)) == any(1)` was true, %T printed `int`, and map keys of
// both were one key; with methods it was a valueInterface, which
// records the type, but == compared a valueInterface with a bare value
// by value alone (`h(1) == any(1)` true for a celsius). gc answers false.
//
// Such values are now stored as valueInterfaces wherever a value of a
// type with methods is (keepsTypeInAny), and == holds a value recorded
// with a defined non-struct type unequal to a bare value. A constant of
// such a type compared with an interface, and a case of a switch on an
// interface, carries its type (genComparedValue). A value that reaches
// an interface bare by another path (through compiled code that is not a
// container, patch 203) is still its underlying type.
//
// sbir patch 201: structs and arrays holding interfaces compare the
// interfaces they hold as == compares interfaces (equalHeld): Go's ==
// compared the valueInterfaces in them by node and pointer, so
// holder{h(1)} == holder{h(1)} was false and [2]any{code(1), 2} ==
// [2]any{1, 2} true.

// keepsTypeInAny reports whether a value of type t stored in an empty
// interface must be a valueInterface recording t (sbir patch 200).
func keepsTypeInAny(t *itype) bool {
	if t == nil {
		return false
	}
	return len(t.method) > 0 || isBasicDefined(t)
}

// isBasicDefined reports whether t is a defined type of interpreted code
// whose underlying type is a boolean, numeric or string type.
func isBasicDefined(t *itype) bool {
	if !isIndistinctDefined(t) {
		return false
	}
	rt := safeRefType(t)
	if rt == nil {
		return false
	}
	switch rt.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	}
	return false
}

// heldDefinedType reports whether x, an operand of == that
// unwrapValueInterface found wrapped, holds a value of a defined
// non-struct type (sbir patch 200).
func heldDefinedType(x any) bool {
	t := heldType(x)
	return t != nil && isIndistinctDefined(t)
}

// heldType returns the interpreted type of the value x holds when x is a
// valueInterface, a typedOperand or a wrapper recording its type, nil
// otherwise.
func heldType(x any) *itype {
	switch o := x.(type) {
	case typedOperand:
		if o.v.IsValid() && o.v.CanInterface() {
			if vi, ok := o.v.Interface().(valueInterface); ok {
				return heldType(vi)
			}
		}
		return o.t
	case valueInterface:
		for {
			if o.node == nil || o.node.typ == nil || !o.value.IsValid() {
				return nil
			}
			v := o.value
			for v.Kind() == reflect.Interface && !v.IsNil() {
				v = v.Elem()
			}
			if v.Kind() == reflect.Interface || !v.CanInterface() {
				return nil
			}
			inner, ok := v.Interface().(valueInterface)
			if !ok {
				if _, t, ok := wrappedValue(v); ok {
					return t
				}
				return o.node.typ
			}
			o = inner
		}
	}
	if _, t, ok := wrappedValue(reflect.ValueOf(x)); ok {
		return t
	}
	return nil
}

// equalHeld reports whether a == b for two values held by interfaces
// (sbir patch 201). A struct or an array with interface fields or
// elements holds valueInterfaces there, which Go's == compares by the
// node and the reflect.Value's pointer: holder{h(1)} == holder{h(1)} was
// false. Such values are compared field by field, each interface with
// sbirEqualValues, as gc compares them.
func equalHeld(a, b any) bool {
	if a == nil || b == nil {
		return a == b
	}
	ta := reflect.TypeOf(a)
	if ta != reflect.TypeOf(b) || !hasInterfacePart(ta, 0) {
		return a == b
	}
	return equalValues(reflect.ValueOf(a), reflect.ValueOf(b))
}

// hasInterfacePart reports whether t is an interface type or a struct or
// array type with interface parts.
func hasInterfacePart(t reflect.Type, depth int) bool {
	if depth > 64 {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return hasInterfacePart(t.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasInterfacePart(t.Field(i).Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// equalValues compares a and b, of one type, as == does, with the
// interfaces they hold compared by sbirEqualValues.
func equalValues(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if !a.CanInterface() || !b.CanInterface() {
			return a.Elem().Equal(b.Elem())
		}
		return sbirEqualValues(a.Elem().Interface(), b.Elem().Interface())
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !equalValues(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		t := a.Type()
		for i := 0; i < a.NumField(); i++ {
			if t.Field(i).Name == "_" {
				continue // gc's == skips blank fields
			}
			if !equalValues(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	if a.CanInterface() && b.CanInterface() {
		return a.Interface() == b.Interface()
	}
	return a.Equal(b)
}

// otherOperand returns the operand of the comparison c belongs to that
// is not c, or nil.
func otherOperand(c *node) *node {
	n := c.anc
	if n == nil || len(n.child) != 2 {
		return nil
	}
	if n.child[0] == c {
		return n.child[1]
	}
	if n.child[1] == c {
		return n.child[0]
	}
	return nil
}

// genComparedValue returns the value of c, an operand of == or != or a
// case of a switch, compared with a value of type other (nil when not
// known): a typedOperand when c has a concrete interpreted type and other
// is an interface (sbir patch 65), c's value otherwise. Two concrete
// operands (p&1 != 0 with p of a defined type) compare their values. A
// constant operand is typed too when its type is a defined non-struct
// type (sbir patch 200: err == ErrStr with `const ErrStr =
// StrErr("str")`; any(code(1)) == code(1)), since the interface may
// hold a value of its underlying type.
func genComparedValue(c *node, other *itype) func(*frame) reflect.Value {
	value := genValue(c)
	t := c.typ
	if t == nil || t.untyped || t.cat == nilT || t.cat == valueT || isInterface(t) {
		return value
	}
	if other != nil && !isInterface(other) {
		return value
	}
	if c.rval.IsValid() {
		if !isIndistinctDefined(t) {
			return value
		}
		v := reflect.ValueOf(typedOperand{t, c.rval})
		return func(*frame) reflect.Value { return v }
	}
	return func(f *frame) reflect.Value {
		return reflect.ValueOf(typedOperand{t, value(f)})
	}
}

// equalConstant returns the value of the constant operand c of == or !=
// as genComparedValue gives it.
func equalConstant(c *node) any {
	var other *itype
	if o := otherOperand(c); o != nil {
		other = o.typ
	}
	return genComparedValue(c, other)(nil).Interface()
}

// concreteOperand returns, for an arithmetic operation n assigned,
// defined or returned as an empty interface, the operand whose type the
// result has when that type keeps its type in an interface. nodeType
// gives such an operation the interface type, with the operands' type as
// its val, so the result was stored bare (`var j any = c * 2`, `return
// c + 1` from a func returning any: %T int for a celsius or a code).
func concreteOperand(n *node) *node {
	if n.kind != binaryExpr || n.typ == nil || !isEmptyInterface(n.typ) || n.typ.val == nil || !isArithmeticAction(n) {
		return nil
	}
	for _, c := range n.child {
		if c.typ != nil && !c.typ.untyped && c.typ.id() == n.typ.val.id() && keepsTypeInAny(c.typ) {
			return c
		}
	}
	return nil
}

// genHeldValue returns the value of n, whose frame slot may be an
// interface, as the concrete value the interface holds.
func genHeldValue(n *node) func(*frame) reflect.Value {
	value := genValue(n)
	return func(f *frame) reflect.Value {
		v := value(f)
		if v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		return v
	}
}

// genSentValue returns the value v a select case sends on the channel
// ch, converted to the channel's element type as a send statement
// converts it (sbir patch 200: `case ch <- c:` on a chan any stored a
// value of a defined type bare, where `ch <- c` keeps its type).
func genSentValue(ch, v *node) func(*frame) reflect.Value {
	t := ch.typ
	for t != nil && t.cat == linkedT && t.val != nil {
		t = t.val
	}
	if t == nil || (t.cat != chanT && t.cat != chanSendT) || t.val == nil || !isEmptyInterface(t.val) {
		return genValue(v)
	}
	return genDestValue(t.val, v)
}
