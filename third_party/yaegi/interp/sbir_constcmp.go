package interp

import (
	"go/constant"
	"go/token"
	"reflect"
)

// compareTokens are the comparison actions constant folding handles.
var compareTokens = map[action]token.Token{
	aEqual: token.EQL, aNotEqual: token.NEQ,
	aLower: token.LSS, aLowerEqual: token.LEQ,
	aGreater: token.GTR, aGreaterEqual: token.GEQ,
}

// compareConst folds a comparison of two constants, exactly, as gc does
// (sbir patch 43). Without it the operands were converted to int64 at run
// time, so `5 > 18446744073709551614` failed to compile with "constant
// ... overflows int64", and a constant declared from a comparison
// (`const ok bool = 1 < 2`, `const b = true != false`) was false.
func compareConst(n *node) {
	c0, ok0 := constantOf(n.child[0])
	c1, ok1 := constantOf(n.child[1])
	if !ok0 || !ok1 {
		return
	}
	// The comparison's type is bool (cfg gives it one), and its users read
	// the value as a bool.
	v := reflect.ValueOf(constant.Compare(c0, compareTokens[n.action], c1))
	if t := n.typ.TypeOf(); t != nil && t.Kind() == reflect.Bool {
		v = v.Convert(t)
	}
	n.rval = v
}

// constantOf returns the value of a constant operand (untyped: a
// constant.Value; typed, or true and false: a basic value).
func constantOf(n *node) (constant.Value, bool) {
	v := n.rval
	if !v.IsValid() || n.typ == nil || n.typ.cat == nilT {
		return nil, false
	}
	if isConstantValue(v.Type()) {
		c := vConstantValue(v)
		return c, c != nil && c.Kind() != constant.Unknown
	}
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool()), true
	case reflect.String:
		return constant.MakeString(v.String()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float()), true
	}
	return nil, false
}

// constBool returns the value of a boolean condition known at compile
// time (sbir patch 43).
func constBool(n *node) (value, ok bool) {
	if !n.rval.IsValid() || !isBool(n.typ) {
		return false, false
	}
	if n.rval.Kind() == reflect.Bool {
		return n.rval.Bool(), true
	}
	if c := vConstantValue(n.rval); c != nil && c.Kind() == constant.Bool {
		return constant.BoolVal(c), true
	}
	return false, false
}

// logicalConst folds && or || of two constants (sbir patch 111), as
// compareConst folds comparisons: the operator had no constant folding, so
// a constant declared with one (const debug = true || verbose, const ok =
// 1 < 2 && 2 < 3) had no value and read as false, as did the constants
// declared from it (const quiet = !debug). It reports whether n now holds
// its value in n.rval.
func logicalConst(n *node) bool {
	b0, ok0 := constBool(n.child[0])
	b1, ok1 := constBool(n.child[1])
	if !ok0 || !ok1 || isInterface(n.typ) {
		return false
	}
	b := b0 && b1
	if n.action == aLor {
		b = b0 || b1
	}
	// The users of a boolean constant read it as a bool (constBool, if
	// statements), of the operands' type when it is a defined one.
	v := reflect.ValueOf(b)
	if t := n.typ.TypeOf(); t != nil && t.Kind() == reflect.Bool {
		v = v.Convert(t)
	}
	n.rval = v
	return true
}

// logicalType is the type of x && y or x || y, n (sbir patch 112): the
// operands' type, which is the typed one's when the other is untyped
// (true && f, a < b || f, with f of a defined type Flag, are Flags, as in
// gc). The left operand's type was taken alone, so true && f was a bool:
// %T printed bool, and a method of Flag was not found on it.
func logicalType(n *node) *itype {
	typeOf := func(c *node) *itype { return c.typ }
	c0, c1 := n.child[0], n.child[1]
	if c1.typ != nil && isUntypedBoolExpr(c0, typeOf) && !isUntypedBoolExpr(c1, typeOf) {
		return c1.typ
	}
	return c0.typ
}

// isUntypedBoolExpr reports whether the boolean expression n is untyped in Go:
// a comparison, or !, && or || of untyped operands, which the interpreter
// may have typed bool; else whether typeOf, its type, says so.
func isUntypedBoolExpr(n *node, typeOf func(*node) *itype) bool {
	for n.kind == parenExpr {
		n = n.lastChild()
	}
	switch n.kind {
	case binaryExpr:
		if _, ok := compareTokens[n.action]; ok {
			return true
		}
	case unaryExpr:
		if n.action == aNot {
			return isUntypedBoolExpr(n.child[0], typeOf)
		}
	case landExpr, lorExpr:
		return isUntypedBoolExpr(n.child[0], typeOf) && isUntypedBoolExpr(n.child[1], typeOf)
	}
	t := typeOf(n)
	return t != nil && t.untyped
}

// uintConstant converts an untyped integer constant to the unsigned type
// t exactly: convertConstantValue goes through int64, which holds no
// value above 1<<63 - 1 (sbir patch 45).
func uintConstant(v reflect.Value, t reflect.Type) (reflect.Value, bool) {
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		return reflect.Value{}, false
	}
	c := vConstantValue(v)
	if c == nil {
		return reflect.Value{}, false
	}
	u, exact := constant.Uint64Val(constant.ToInt(c))
	if !exact {
		return reflect.Value{}, false
	}
	return reflect.ValueOf(u).Convert(t), true
}

// floatConstant converts an untyped integer constant to the float or
// complex type t through its exact value, as gc does: convertConstantValue
// goes through int64, which holds no value beyond 64 bits, so
// var f float64 = 1 << 70 failed to compile (sbir patch 46).
func floatConstant(v reflect.Value, t reflect.Type) (reflect.Value, bool) {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
	default:
		return reflect.Value{}, false
	}
	c := vConstantValue(v)
	if c == nil || c.Kind() != constant.Int {
		return reflect.Value{}, false
	}
	switch t.Kind() {
	case reflect.Complex64:
		// sbir patch 105: reflect converts no integer to a complex number
		// (return 3 from a func() complex128 failed to compile); the
		// constant is rounded once, to the part's own precision.
		f, _ := constant.Float32Val(constant.ToFloat(c))
		return reflect.ValueOf(complex(f, 0)).Convert(t), true
	case reflect.Complex128:
		f, _ := constant.Float64Val(constant.ToFloat(c))
		return reflect.ValueOf(complex(f, 0)).Convert(t), true
	}
	if _, exact := constant.Int64Val(c); exact {
		return reflect.Value{}, false // int64 already converts exactly
	}
	f, _ := constant.Float64Val(constant.ToFloat(c))
	return reflect.ValueOf(f).Convert(t), true
}

func init() {
	for a := range compareTokens {
		constOp[a] = compareConst
	}
}
