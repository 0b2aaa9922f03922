package interp

import (
	"reflect"
	"unicode"
)

// sbir patch S19: runes (int32) in the int tier, and calls of unicode's
// classification and case functions.
//
// strings.FieldsFunc's and strings.Map's functions take a rune, and test
// it with unicode.IsLetter or unicode.ToLower: bench/lang/fieldsfunc's
// closure (`if unicode.IsLetter(r) || r == '-' { return false };
// separators++; return true`) ran in the interpreter's frames, once per
// character, level with CPython. The tier now computes on int32 too, in
// its int64 registers: a value of a 32-bit type is kept sign-extended,
// and every operation whose result is of such a type (+, -, *, /, %, &,
// |, ^, &^, <<, >>, unary - and ^, x op= y, x++ and x--) is truncated to
// 32 bits and extended again, so it wraps as gc's int32 code does
// (MinInt32 / -1 is MinInt32, with no panic; a shift count of 32 or more
// leaves 0 or -1). Comparisons of sign-extended values are int32's.
// Conversions, and slices and fields of int32 read at their address, are
// still not in the tier: int32 values come from parameters, constants,
// variables (read and written through reflect) and these operations.
//
// A call of one of unicode's functions below runs in the tier as a Go
// call: each is total (defined for every rune, invalid ones included),
// pure and never panics, so a function calling one stays pure and may
// still write outside it (sbir_inttier_outer.go).

// intKindNarrow is intKind, also taking int32 (rune), and reporting
// whether t is that narrow type.
func intKindNarrow(t *itype) (ok, isBool, narrow bool) {
	if ok, isBool := intKind(t); ok {
		return true, isBool, false
	}
	if t == nil || t.cat == builtinT || t.cat == funcT {
		return false, false, false
	}
	if rt := t.TypeOf(); rt != nil && rt.Kind() == reflect.Int32 {
		return true, false, true
	}
	return false, false, false
}

// isNarrow reports whether t is an int32 type of the tier.
func isNarrow(t *itype) bool {
	_, _, narrow := intKindNarrow(t)
	return narrow
}

// narrowed returns e, the result of an operation of type t, wrapped to
// 32 bits when t is narrow.
func narrowed(t *itype, e intExpr) intExpr {
	if e == nil || !isNarrow(t) {
		return e
	}
	return func(r []int64, t *intRun) int64 { return int64(int32(e(r, t))) }
}

// unicodeRuneBool and unicodeRuneRune are the functions of package
// unicode a function of the tier may call.
var (
	unicodeRuneBool = map[string]func(rune) bool{
		"IsControl": unicode.IsControl, "IsDigit": unicode.IsDigit, "IsGraphic": unicode.IsGraphic,
		"IsLetter": unicode.IsLetter, "IsLower": unicode.IsLower, "IsMark": unicode.IsMark,
		"IsNumber": unicode.IsNumber, "IsPrint": unicode.IsPrint, "IsPunct": unicode.IsPunct,
		"IsSpace": unicode.IsSpace, "IsSymbol": unicode.IsSymbol, "IsTitle": unicode.IsTitle,
		"IsUpper": unicode.IsUpper,
	}
	unicodeRuneRune = map[string]func(rune) rune{
		"SimpleFold": unicode.SimpleFold, "ToLower": unicode.ToLower, "ToTitle": unicode.ToTitle,
		"ToUpper": unicode.ToUpper,
	}
)

// binCall compiles n, a call of one of unicode's functions above with a
// rune argument. The function called is the one the interpreter's symbol
// table gives for the name (the program's own view of the package), of
// the signature the name has in package unicode.
func (c *intCompiler) binCall(n *node) (intExpr, bool) {
	c0 := n.child[0]
	if len(n.child) != 2 || len(c0.child) != 2 || c0.child[0].sym == nil || c0.child[0].sym.typ == nil ||
		c0.child[0].sym.typ.path != "unicode" || !c0.rval.IsValid() || c0.rval.Kind() != reflect.Func {
		return nil, false
	}
	name := c0.child[1].ident
	_, isBool := unicodeRuneBool[name]
	_, isRune := unicodeRuneRune[name]
	if !isBool && !isRune {
		return nil, false
	}
	if ok, _, narrow := intKindNarrow(n.child[1].typ); !ok || !narrow {
		return nil, false
	}
	a, ok := c.intExpr(n.child[1])
	if !ok {
		return nil, false
	}
	switch f := c0.rval.Interface().(type) {
	case func(rune) bool:
		if !isBool {
			return nil, false
		}
		return func(r []int64, t *intRun) int64 { return b2i(f(rune(a(r, t)))) }, true
	case func(rune) rune:
		if !isRune {
			return nil, false
		}
		return func(r []int64, t *intRun) int64 { return int64(f(rune(a(r, t)))) }, true
	}
	return nil, false
}
