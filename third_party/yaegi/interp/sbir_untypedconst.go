package interp

import (
	"go/constant"
	"reflect"
)

// nestedUntypedConstant reports whether binary expression n is an untyped
// constant operation inside a larger expression: its operands are untyped
// constants (a shift's count may have any type) and constant folding
// computes it. Such an operation is an untyped constant, computed exactly
// (sbir patch 150). The cfg's pre-order gives every binary expression of
// an assigned value the destination's type, for context; kept on a nested
// constant operation, that type makes the enclosing operation convert its
// other untyped operand to it, which then folds in the typed arithmetic:
// `var f float32 = 1<<60 + 1<<36 + 1` added 1 in float32, rounding
// 2^60+2^36 first (1.1529215e+18, where gc rounds the exact sum once,
// 1.1529216e+18). The outermost operation keeps its context type: its
// exact result is converted once, where it is used.
func nestedUntypedConstant(n *node) bool {
	switch n.anc.kind {
	case binaryExpr, unaryExpr, parenExpr:
	default:
		return false
	}
	if constOp[n.action] == nil || isBoolAction(n) {
		return false
	}
	c0, c1 := n.child[0], n.child[1]
	if !c0.rval.IsValid() || c0.typ == nil || !c0.typ.untyped || !isConstantValue(c0.rval.Type()) {
		return false
	}
	if !c1.rval.IsValid() || c1.typ == nil {
		return false
	}
	return isShiftNode(n) || c1.typ.untyped && isConstantValue(c1.rval.Type())
}

// exactConstant converts numeric constant c to a value of numeric type t
// rounded once, as gc converts a constant (sbir patch 150). It reports
// false when it leaves the conversion to the caller: c is not numeric, t
// is not a numeric type, c is an integer given to an integer type, or c
// has no exact value of that kind (an integer type's with a fraction).
// convertConstantValue converted a float constant through float64 and
// then to t, rounding twice (2^60+2^36+1 is 2^60+2^36 as a float64, which
// float32 rounds to even, 2^60, where gc rounds the exact value up), lost
// the low bits of integral float constants given to int64 and uint64
// (`1<<60 + 1 + 0.0`), and failed on a float constant given to complex64.
func exactConstant(c constant.Value, t reflect.Type) (reflect.Value, bool) {
	switch c.Kind() {
	case constant.Int, constant.Float, constant.Complex:
	default:
		return reflect.Value{}, false
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		if c = constant.ToFloat(c); c.Kind() != constant.Float {
			return reflect.Value{}, false
		}
		return reflect.ValueOf(roundFloat(c, t.Kind() == reflect.Float32)).Convert(t), true
	case reflect.Complex64, reflect.Complex128:
		if c = constant.ToComplex(c); c.Kind() != constant.Complex {
			return reflect.Value{}, false
		}
		f32 := t.Kind() == reflect.Complex64
		z := complex(roundFloat(constant.Real(c), f32), roundFloat(constant.Imag(c), f32))
		return reflect.ValueOf(z).Convert(t), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if c.Kind() == constant.Int {
			return reflect.Value{}, false
		}
		if i, ok := constant.Int64Val(constant.ToInt(c)); ok {
			return reflect.ValueOf(i).Convert(t), true
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if c.Kind() == constant.Int {
			return reflect.Value{}, false
		}
		if u, ok := constant.Uint64Val(constant.ToInt(c)); ok {
			return reflect.ValueOf(u).Convert(t), true
		}
	}
	return reflect.Value{}, false
}

// roundFloat is real constant c rounded once to float32 (when f32) or
// float64 precision, as a float64.
func roundFloat(c constant.Value, f32 bool) float64 {
	if f32 {
		f, _ := constant.Float32Val(c)
		return float64(f)
	}
	f, _ := constant.Float64Val(c)
	return f
}
