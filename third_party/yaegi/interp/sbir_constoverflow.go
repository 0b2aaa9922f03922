package interp

import (
	"go/constant"
	"go/token"
	"reflect"
	"strings"
)

// intRepresentable reports whether integer constant x is a value of
// integer kind k: within [-2^(n-1), 2^(n-1)-1] for a signed kind of n
// bits, [0, 2^n-1] for an unsigned one (sbir patch 180). Upstream compared
// the constant's bit length with the kind's size for signed kinds too, so
// 200 (8 bits) was taken for an int8 and wrapped to -56 where gc refuses
// the program.
func intRepresentable(x constant.Value, k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, ok := constant.Int64Val(x)
		if !ok {
			return false
		}
		n := bitlen[k]
		return n == 64 || -1<<(n-1) <= i && i < 1<<(n-1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		_, ok := constant.Uint64Val(x)
		return ok && constant.BitLen(x) <= bitlen[k]
	}
	return false
}

// constantValue is the exact value of constant node n: its constant.Value,
// or a rune literal's code point. It reports false for any other node.
func constantValue(n *node) (constant.Value, bool) {
	if !n.rval.IsValid() {
		return nil, false
	}
	switch v := n.rval.Interface().(type) {
	case constant.Value:
		return v, true
	case rune:
		if n.typ != nil && n.typ.untyped {
			return constant.MakeInt64(int64(v)), true
		}
	}
	return nil, false
}

// constantFits reports whether numeric constant node n, untyped or a
// folded constant expression, has a value of type typ; true when either
// is not numeric (sbir patch 180). A value that does not fit is an error
// in gc, where the interpreter wrapped it.
func constantFits(n *node, typ *itype) bool {
	c, ok := constantValue(n)
	if !ok || typ == nil || typ.untyped {
		return true
	}
	t := typ.TypeOf()
	if t == nil || !isNumber(t) {
		return true
	}
	switch c.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return representableConst(c, t)
	}
	return true
}

// fitFailure is gc's word for a numeric constant that is not a value of
// type t: "truncated" for a non-integer given to an integer type (gc says
// so of 200.0 given to an int8 too), "overflows" otherwise.
func fitFailure(c constant.Value, t reflect.Type) string {
	if c.Kind() != constant.Int && isInt(t) {
		return "truncated"
	}
	return "overflows"
}

// constantDescription describes constant node n as gc does: `200
// (untyped int constant)`, `1 << 63 (untyped int constant
// 9223372036854775808)`, `c (constant 300 of type int16)`.
func constantDescription(n *node, c constant.Value) string {
	if n.typ == nil || n.typ.untyped {
		return untypedDescription(n, c)
	}
	return exprString(n) + " (constant " + constantString(c) + " of type " + n.typ.id() + ")"
}

// constantString is c as gc prints a constant's value.
func constantString(c constant.Value) string {
	if c.Kind() == constant.Int {
		return c.ExactString()
	}
	return c.String()
}

// untypedDescription describes untyped constant node n of value c as gc
// does: `200 (untyped int constant)`, `100 + 100 (untyped int constant 200)`.
func untypedDescription(n *node, c constant.Value) string {
	expr, val := exprString(n), constantString(c)
	{
		k := map[constant.Kind]string{constant.Int: "int", constant.Float: "float", constant.Complex: "complex"}[c.Kind()]
		if n.typ != nil && n.typ.cat == int32T {
			k = "rune"
		}
		kind := "untyped " + k + " constant"
		if expr == val {
			return expr + " (" + kind + ")"
		}
		return expr + " (" + kind + " " + val + ")"
	}
}

// exprString is the source text of constant expression n, as gc prints
// it, or "constant" for a node it does not print.
func exprString(n *node) string {
	switch n.kind {
	case basicLit, identExpr:
		return n.ident
	case parenExpr:
		return "(" + exprString(n.child[0]) + ")"
	case unaryExpr:
		return n.action.String() + exprString(n.child[0])
	case binaryExpr:
		return exprString(n.child[0]) + " " + n.action.String() + " " + exprString(n.child[1])
	case selectorExpr:
		return exprString(n.child[0]) + "." + exprString(n.child[1])
	case callExpr: // sbir patch 190: int8(1) + 2, len(s) * 2
		args := make([]string, len(n.child)-1)
		for i, c := range n.child[1:] {
			args[i] = exprString(c)
		}
		return exprString(n.child[0]) + "(" + strings.Join(args, ", ") + ")"
	case indexExpr:
		return exprString(n.child[0]) + "[" + exprString(n.child[1]) + "]"
	case starExpr:
		return "*" + exprString(n.child[0])
	}
	return "constant"
}

// constantUseError is gc's error for constant node n given to type typ in
// context ("variable declaration", "argument to f", ...) when its value
// is not one of typ: "cannot use 200 (untyped int constant) as int8 value
// in variable declaration (overflows)". It is nil when the value fits.
func constantUseError(n *node, typ *itype, context string) error {
	if constantFits(n, typ) {
		return nil
	}
	c, _ := constantValue(n)
	if context != "" {
		context = " in " + context
	}
	return fitErrorf(n, "cannot use %s as %s value%s (%s)", constantDescription(n, c), typ.id(), context, fitFailure(c, typ.TypeOf()))
}

// constantOperandError is gc's error for untyped constant operand n of an
// operation with an operand of type typ whose value is not one of typ:
// "200 (untyped int constant) overflows int8".
func constantOperandError(n *node, typ *itype) error {
	if n.typ == nil || !n.typ.untyped || constantFits(n, typ) {
		return nil
	}
	c, _ := constantValue(n)
	if fitFailure(c, typ.TypeOf()) == "truncated" {
		return fitErrorf(n, "%s truncated to %s", constantDescription(n, c), typ.id())
	}
	return fitErrorf(n, "%s overflows %s", constantDescription(n, c), typ.id())
}

// assignContext is gc's name for the assignment of the values of assign
// or define node a: a variable or constant declaration, or an assignment.
func assignContext(a *node) string {
	switch {
	case a.anc != nil && a.anc.kind == varDecl:
		return "variable declaration"
	case a.anc != nil && a.anc.kind == constDecl:
		return "constant declaration"
	}
	return "assignment"
}

// foldedConstantError is gc's error for binary expression n of constants,
// just folded, whose exact value is not one of its type (sbir patch 180).
// An operation of untyped constants assigned to a typed variable takes
// the variable's type from the cfg's context (`var i int8 = 100 + 100`):
// its value is converted where it is used, at run time, and wrapped there
// (-56) where gc refuses the program.
func foldedConstantError(n *node) error {
	c, ok := constantValue(n)
	if !ok || n.typ == nil || n.typ.untyped || constantFits(n, n.typ) {
		return nil
	}
	c0, c1 := n.child[0], n.child[1]
	untyped := c0.typ != nil && c0.typ.untyped && (isShiftNode(n) || c1.typ != nil && c1.typ.untyped)
	if untyped {
		switch a := n.anc; a.kind {
		case assignStmt, defineStmt:
			d := untypedDescription(n, c)
			return fitErrorf(n, "cannot use %s as %s value in %s (%s)", d, n.typ.id(), assignContext(a), fitFailure(c, n.typ.TypeOf()))
		}
	}
	return fitErrorf(n, "%s (constant %s of type %s) overflows %s", exprString(n), c.ExactString(), n.typ.id(), n.typ.id())
}

// argumentContext is gc's context for argument n of a call: "argument to
// f", "argument to fmt.Println", or "argument" when the function is not
// named by an identifier.
func argumentContext(n *node) string {
	call := n.anc
	if call == nil || len(call.child) == 0 {
		return "argument"
	}
	switch f := call.child[0]; {
	case f.kind == identExpr:
		return "argument to " + f.ident
	case f.kind == selectorExpr && f.child[0].kind == identExpr:
		return "argument to " + f.child[0].ident + "." + f.child[1].ident
	}
	return "argument"
}

// constantConversionError is gc's error for the conversion of numeric
// constant n of value c to numeric type typ when the value is not one of
// typ: "constant 200 overflows int8", or "cannot convert 1.5 (untyped
// float constant) to type int8 (truncated)" (sbir patch 180).
func constantConversionError(n *node, c constant.Value, typ *itype) error {
	if c == nil || !isConstType(typ) || constantFits(n, typ) {
		return nil
	}
	t := typ.TypeOf()
	if !isNumber(t) || n.typ == nil || !isNumber(n.typ.TypeOf()) {
		return nil
	}
	if fitFailure(c, t) == "truncated" && constant.ToInt(c).Kind() != constant.Int {
		return fitErrorf(n, "cannot convert %s to type %s (truncated)", constantDescription(n, c), typ.id())
	}
	return fitErrorf(n, "constant %s overflows %s", constantString(c), typ.id())
}

// constantTokens are the go/constant operators of the binary actions on
// numbers.
var constantTokens = map[action]token.Token{
	aAdd: token.ADD, aSub: token.SUB, aMul: token.MUL, aQuo: token.QUO, aRem: token.REM,
	aAnd: token.AND, aOr: token.OR, aXor: token.XOR, aAndNot: token.AND_NOT,
	aShl: token.SHL, aShr: token.SHR,
}

// interfaceConstantError is gc's error for binary expression n of untyped
// constants given to an interface when its exact value is not one of its
// default type (sbir patch 180): `var x any = 1 << 64`. Such an operation
// takes the interface's type and is computed at run time, in int, where
// 1 << 64 was 0 and 1 + 1<<64 failed with "constant ... overflows int64".
// Its value is checked here only; its computation is unchanged.
func interfaceConstantError(n *node) error {
	if n.typ == nil || !isInterface(n.typ) {
		return nil
	}
	c0, c1 := n.child[0], n.child[1]
	x, ok0 := constantValue(c0)
	tok, ok := constantTokens[n.action]
	if !ok || !ok0 || c0.typ == nil || !c0.typ.untyped || c1.typ == nil {
		return nil
	}
	var v constant.Value
	if tok == token.SHL || tok == token.SHR {
		// The type check has made the count a uint.
		s, ok := shiftCount(c1)
		if x = constant.ToInt(x); !ok || x.Kind() != constant.Int || s > 1<<16 {
			return nil
		}
		v = constant.Shift(x, tok, uint(s))
	} else {
		y, ok := constantValue(c1)
		if !ok || !c1.typ.untyped {
			return nil
		}
		if tok == token.QUO && x.Kind() == constant.Int && y.Kind() == constant.Int {
			tok = token.QUO_ASSIGN // integer division
		}
		if constant.Sign(y) == 0 && (tok == token.QUO || tok == token.QUO_ASSIGN || tok == token.REM) {
			return nil // division by zero, reported by the type check
		}
		v = constant.BinaryOp(x, tok, y)
	}
	t := untypedDefault(v, c0.typ.cat == int32T || c1.typ.cat == int32T)
	if t == nil || representableConst(v, t) {
		return nil
	}
	context := ""
	switch a := n.anc; a.kind {
	case assignStmt, defineStmt:
		context = " in " + assignContext(a)
	case returnStmt:
		context = " in return statement"
	}
	d := untypedDescription(n, v)
	return fitErrorf(n, "cannot use %s as %s value%s (%s)", d, t.Kind(), context, fitFailure(v, t))
}

// untypedDefault is the default type of untyped numeric constant v, int32
// for an integer rune constant; nil for other constants.
func untypedDefault(v constant.Value, isRune bool) reflect.Type {
	switch v.Kind() {
	case constant.Int:
		if isRune {
			return reflect.TypeOf(int32(0))
		}
		return reflect.TypeOf(0)
	case constant.Float:
		return reflect.TypeOf(0.0)
	case constant.Complex:
		return reflect.TypeOf(0i)
	}
	return nil
}

// shiftCount is the value of constant shift count n, a constant.Value or
// an integer the type check converted it to.
func shiftCount(n *node) (uint64, bool) {
	if c, ok := constantValue(n); ok {
		return constant.Uint64Val(constant.ToInt(c))
	}
	switch v := n.rval; v.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Int() >= 0 {
			return uint64(v.Int()), true
		}
	}
	return 0, false
}

// constantFitError is the error of a constant that is not a value of the
// type it is given (sbir patch 180). It is final: gta reports it for a
// constant declaration, where it lets other errors be retried once the
// names they use are declared.
type constantFitError struct{ error }

// fitErrorf is n.cfgErrorf for a constantFitError.
func fitErrorf(n *node, format string, a ...any) error {
	e := n.cfgErrorf(format, a...)
	e.error = constantFitError{e.error}
	return e
}

// isConstantFitError reports whether err is a constantFitError.
func isConstantFitError(err error) bool {
	e, ok := err.(*cfgError)
	if !ok {
		return false
	}
	_, ok = e.error.(constantFitError)
	return ok
}
