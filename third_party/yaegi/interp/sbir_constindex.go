package interp

import (
	"go/constant"
	"strconv"
)

// sbir patch 193: a constant index is checked when the program is
// compiled, as gc does: it must be an integer, not negative, and within
// the length of an array or of a constant string. `s[-1]`, `a[-1]`,
// `"abc"[5]`, `s[-1:]`, `s[-1] = x` and `s[i]` with `const i int8 = -1`
// failed when they ran ("index out of range [-1]"), after the program's
// earlier output, `make([]int, -1)` and `[]int{-1: 1}` panicked in
// reflect, `var a [-1]int` was reported as a limit of the interpreter,
// where gc refuses each program.

// constantIndexError is gc's error for constant index n, of an integer
// type, that is negative ("invalid argument: index -1 (constant of type
// int) must not be negative") or not below max, the length of the array
// or constant string indexed (plus one for a slice expression's bounds)
// when max >= 1: "invalid argument: index 5 out of bounds [0:4]".
func constantIndexError(n *node, max int) error {
	v, ok := exactValue(n)
	if !ok {
		return nil
	}
	if v = constant.ToInt(v); v.Kind() != constant.Int {
		return nil
	}
	if constant.Sign(v) < 0 {
		return n.cfgErrorf("invalid argument: index %s must not be negative", typedConstantDescription(n, v))
	}
	if i, exact := constant.Int64Val(v); max >= 1 && (!exact || i >= int64(max)) {
		return n.cfgErrorf("invalid argument: index %s out of bounds [0:%d]", v.ExactString(), max)
	}
	return nil
}

// nonIntegerIndexError is gc's error for constant index n of a type that
// is not an integer type: "invalid argument: index f (constant 1 of type
// float64) must be integer"; nil for an index that is not a constant.
func nonIntegerIndexError(n *node) error {
	v, ok := exactValue(n)
	if !ok || n.typ == nil {
		return nil
	}
	return n.cfgErrorf("invalid argument: index %s must be integer", typedConstantDescription(n, v))
}

// typedConstantDescription describes typed constant n of value v as gc
// does: `-1 (constant of type int)` when its text is its value, `i
// (constant -1 of type int8)` otherwise.
func typedConstantDescription(n *node, v constant.Value) string {
	expr, val := exprString(n), constantString(v)
	if expr == val {
		return expr + " (constant of " + typeDescription(n.typ) + ")"
	}
	return expr + " (constant " + val + " of " + typeDescription(n.typ) + ")"
}

// constantStringLen is the length of n when it is a constant string, or
// -1.
func constantStringLen(n *node) int {
	if !n.rval.IsValid() {
		return -1
	}
	if c := vConstantValue(n.rval); c != nil {
		if c.Kind() == constant.String {
			return len(constant.StringVal(c))
		}
		return -1
	}
	if n.typ != nil && isString(n.typ.TypeOf()) && n.kind != identExpr && n.kind != selectorExpr {
		return len(n.rval.String())
	}
	return -1
}

// arrayLengthError is gc's error for the negative length of an array
// type, constant node c0 (or the constant sym it names): "invalid array
// length -1 (untyped int constant)", "invalid array length n (constant -1
// of type int8)". reflect.ArrayOf panicked on it.
func arrayLengthError(c0 *node, sym *symbol, length int) error {
	v := constant.MakeInt64(int64(length))
	typ := c0.typ
	if sym != nil {
		typ = sym.typ
	}
	var desc string
	switch expr := exprString(c0); {
	case typ == nil || typ.untyped:
		desc = untypedDescription(c0, v)
	case expr == strconv.Itoa(length):
		desc = expr + " (constant of " + typeDescription(typ) + ")"
	default:
		desc = expr + " (constant " + strconv.Itoa(length) + " of " + typeDescription(typ) + ")"
	}
	return c0.cfgErrorf("invalid array length %s", desc)
}
