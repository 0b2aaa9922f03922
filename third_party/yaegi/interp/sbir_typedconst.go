package interp

import (
	"go/constant"
	"go/token"
)

// sbir patch 191: an operation or a conversion of typed constants whose
// exact value is not one of its type is a compile error, as in gc. A
// typed constant holds a value of its type (`const c int8 = 100` is an
// int8), and the compiler folded `c + 100`, `c << 8`, `-c` and
// `int8(c)` in that type, wrapped: they printed -56, 0, -128 and 44
// where gc refuses the program ("c + 100 (constant 200 of type int8)
// overflows int8", "constant 300 overflows int8"). Patch 180 checks
// untyped constants only.

// maxConstantShift bounds the count of a typed constant shift computed
// exactly here: the value of a larger one is not computed (gc reports
// such a count itself, in other words).
const maxConstantShift = 1074

// typedConstantOpError is gc's error for binary expression n of constant
// operands, one of them typed, when its exact value is not one of the
// type of its typed operand: "c + 100 (constant 200 of type int8)
// overflows int8". It is nil when the value fits, for an untyped
// operation (patch 180 checks those), a comparison, and an operation that
// is not numeric.
func typedConstantOpError(n *node) error {
	t := operationType(n)
	if t == nil || !isConstType(t) || !isNumber(t.TypeOf()) {
		return nil
	}
	x, ok0 := exactValue(n.child[0])
	y, ok1 := exactValue(n.child[1])
	if !ok0 || !ok1 {
		return nil
	}
	v, ok := exactBinaryOp(n.action, x, y, isInt(t.TypeOf()))
	if !ok || representableConst(v, t.TypeOf()) {
		return nil
	}
	return typedOverflowError(n, v, t)
}

// exactBinaryOp is x op y computed exactly: integer division for integer
// operands (intOp), the count of a shift at most maxConstantShift. It
// reports false for an operation it does not compute, and for a division
// by zero, which the type check reports.
func exactBinaryOp(a action, x, y constant.Value, intOp bool) (constant.Value, bool) {
	if intOp {
		if x, y = constant.ToInt(x), constant.ToInt(y); x.Kind() != constant.Int || y.Kind() != constant.Int {
			return nil, false
		}
	}
	tok, ok := constantTokens[a]
	if !ok {
		return nil, false
	}
	switch tok {
	case token.SHL, token.SHR:
		s, ok := constant.Uint64Val(constant.ToInt(y))
		if x = constant.ToInt(x); !ok || x.Kind() != constant.Int || s > maxConstantShift {
			return nil, false
		}
		return constant.Shift(x, tok, uint(s)), true
	case token.QUO, token.REM:
		if constant.Sign(y) == 0 {
			return nil, false
		}
		if intOp && tok == token.QUO {
			tok = token.QUO_ASSIGN // integer division
		}
	case token.AND, token.OR, token.XOR, token.AND_NOT:
		if !intOp {
			return nil, false
		}
	}
	return constant.BinaryOp(x, tok, y), true
}

// typedConstantNegError is gc's error for -c of typed numeric constant c
// when its value is not one of c's type: "-c (constant 128 of type int8)
// overflows int8", "-c (constant -1 of type uint8) overflows uint8".
func typedConstantNegError(n *node) error {
	if n.action != aNeg {
		return nil
	}
	t := operationType(n)
	if t == nil || !isConstType(t) || !isNumber(t.TypeOf()) {
		return nil
	}
	x, ok := exactValue(n.child[0])
	if !ok {
		return nil
	}
	v := constant.UnaryOp(token.SUB, x, 0)
	if representableConst(v, t.TypeOf()) {
		return nil
	}
	return typedOverflowError(n, v, t)
}

// typedOverflowError is gc's error for typed constant expression n of
// exact value v that is not one of its type t; gc names the underlying
// type of a defined one: "w * 2 (constant 200 of int8 type W) overflows
// int8".
func typedOverflowError(n *node, v constant.Value, t *itype) error {
	return fitErrorf(n, "%s (constant %s of %s) overflows %s", exprString(n), constantString(v), typeDescription(t), t.TypeOf().Kind())
}

// typedConversionError is gc's error for the conversion of typed numeric
// constant n to numeric type typ when n's value is not one of typ: an
// integer to an integer type is "constant 300 overflows int8", any other
// "cannot convert f (constant 1.5 of type float64) to type int". It is
// nil for an untyped constant (patch 180 checks those) and for a value
// that is not a constant.
func typedConversionError(n *node, typ *itype) error {
	if n.typ == nil || n.typ.untyped || !n.rval.IsValid() || !isConstType(typ) || vConstantValue(n.rval) != nil {
		return nil
	}
	t := typ.TypeOf()
	if !isNumber(t) || !isNumber(n.typ.TypeOf()) {
		return nil
	}
	c, ok := exactValue(n)
	if !ok || representableConst(c, t) {
		return nil
	}
	if isInt(t) && isInt(n.typ.TypeOf()) {
		return fitErrorf(n, "constant %s overflows %s", constantString(c), localTypeName(typ))
	}
	return fitErrorf(n, "cannot convert %s (constant %s of %s) to type %s", exprString(n), constantString(c), typeDescription(n.typ), localTypeName(typ))
}
