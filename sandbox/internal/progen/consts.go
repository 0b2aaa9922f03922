package progen

import (
	"go/constant"
	"go/token"
	"math"
	"math/big"
	"strconv"
)

// expr is a generated expression of type t. Constant expressions carry
// their exact value, as gc computes it, so that the generator never
// writes a constant that overflows its type or divides by zero (both
// compile errors).
type expr struct {
	text     string
	t        *typ
	c        constant.Value // non-nil: a constant
	untyped  bool           // an untyped constant, used as t
	isRune   bool           // an untyped rune constant (its default type is rune)
	nonEmpty bool           // a slice or string with an element
}

func (e expr) isConst() bool { return e.c != nil }

// representable reports whether constant c fits type t (as an untyped
// constant assigned to t, or a typed constant of t).
func representable(c constant.Value, t *typ) bool {
	u := t.u()
	switch u.kind {
	case kInt:
		i := constant.ToInt(c)
		if i.Kind() != constant.Int {
			return false
		}
		lo, hi := intRange(u)
		return constant.Compare(i, token.GEQ, lo) && constant.Compare(i, token.LEQ, hi)
	case kFloat:
		f := constant.ToFloat(c)
		if f.Kind() != constant.Float && f.Kind() != constant.Int {
			return false
		}
		v, _ := constant.Float64Val(f)
		if u.bits == 32 {
			return !math.IsInf(v, 0) && math.Abs(v) <= math.MaxFloat32
		}
		return !math.IsInf(v, 0)
	case kString:
		return c.Kind() == constant.String
	case kBool:
		return c.Kind() == constant.Bool
	case kInterface:
		// An untyped constant stored in an interface takes its default type.
		return c.Kind() != constant.Int || representable(c, tInt)
	}
	return false
}

// intRange returns the smallest and largest values of an integer type.
func intRange(t *typ) (lo, hi constant.Value) {
	if t.signed {
		max := new(big.Int).Lsh(big.NewInt(1), uint(t.bits-1))
		min := new(big.Int).Neg(max)
		max.Sub(max, big.NewInt(1))
		return constant.Make(min), constant.Make(max)
	}
	max := new(big.Int).Lsh(big.NewInt(1), uint(t.bits))
	max.Sub(max, big.NewInt(1))
	return constant.MakeInt64(0), constant.Make(max)
}

// intLiteral returns an untyped integer literal that fits t, often one of
// the values where arithmetic wraps.
func (g *gen) intLiteral(t *typ) expr {
	lo, hi := intRange(t.u())
	var v constant.Value
	switch g.pick(10) {
	case 0:
		v = hi
	case 1:
		v = lo
	case 2:
		v = constant.BinaryOp(hi, token.SUB, constant.MakeInt64(int64(g.pick(3))))
	case 3:
		v = constant.MakeInt64(int64(1) << uint(g.pick(t.u().bits-1)))
	default:
		n := int64(g.pick(20))
		if t.u().signed && g.chance(30) {
			n = -n
		}
		v = constant.MakeInt64(n)
	}
	text := v.ExactString()
	if i, ok := constant.Int64Val(v); ok && i >= 0 && g.chance(15) {
		g.use("int-literal-forms")
		switch g.pick(4) {
		case 0:
			text = "0x" + strconv.FormatInt(i, 16)
		case 1:
			text = "0b" + strconv.FormatInt(i, 2)
		case 2:
			text = "0o" + strconv.FormatInt(i, 8)
		default:
			if i >= 1000 {
				s := strconv.FormatInt(i, 10)
				text = s[:len(s)-3] + "_" + s[len(s)-3:]
			}
		}
	}
	if constant.Sign(v) < 0 {
		text = "(" + text + ")"
	}
	return expr{text: text, t: t, c: v, untyped: true}
}

var runeLiterals = []string{`'a'`, `'Z'`, `'0'`, `' '`, `'\n'`, `'\t'`, `'é'`, `'\u00e9'`, `'日'`, `'\x7f'`, `'😀'`, `'\''`}

// runeLiteral returns an untyped rune literal that fits t.
func (g *gen) runeLiteral(t *typ) (expr, bool) {
	for range 4 {
		text := pickOf(g, runeLiterals)
		c := constant.MakeFromLiteral(text, token.CHAR, 0)
		if representable(c, t) {
			return expr{text: text, t: t, c: c, untyped: true, isRune: true}, true
		}
	}
	return expr{}, false
}

var floatLiterals = []string{"0.1", "1.5", "2.25", "0.5", "3.0", "1e3", "2.5e-3", "1e-7", "100.125", "6.02e23", "3.", ".75", "1e300", "0.3"}

func (g *gen) floatLiteral(t *typ) expr {
	for {
		text := pickOf(g, floatLiterals)
		c := constant.MakeFromLiteral(text, token.FLOAT, 0)
		if g.chance(25) {
			c = constant.UnaryOp(token.SUB, c, 0)
			text = "(-" + text + ")"
		}
		if representable(c, t) {
			return expr{text: text, t: t, c: c, untyped: true}
		}
	}
}

var stringLiterals = []string{
	`""`, `"a"`, `"go"`, `"hello, world"`, `"héllo"`, `"日本語"`, `"a\tb"`, `"line\n"`, `"\u00e9t\u00e9"`,
	`"😀 ok"`, `"\xff\xfe"`, `"x"`, `"abc"`, `"Gopher"`, "`raw\\n`", `"12"`, `"-7"`, `"a,b,c"`, `"  pad  "`,
}

func (g *gen) stringLiteral(t *typ) expr {
	text := pickOf(g, stringLiterals)
	c := constant.MakeFromLiteral(text, token.STRING, 0)
	return expr{text: text, t: t, c: c, untyped: true, nonEmpty: constant.StringVal(c) != ""}
}

// literal returns a constant of type t's underlying kind, or false.
func (g *gen) literal(t *typ) (expr, bool) {
	switch t.u().kind {
	case kInt:
		if (same(t.u(), tRune) || same(t.u(), tInt32) || same(t.u(), tUint8)) && g.chance(25) {
			if e, ok := g.runeLiteral(t); ok {
				return e, true
			}
		}
		return g.intLiteral(t), true
	case kFloat:
		if g.chance(30) {
			e := g.intLiteral(tInt16)
			e.t = t
			return e, true
		}
		return g.floatLiteral(t), true
	case kString:
		return g.stringLiteral(t), true
	case kBool:
		if g.chance(50) {
			return expr{text: "true", t: t, c: constant.MakeBool(true), untyped: true}, true
		}
		return expr{text: "false", t: t, c: constant.MakeBool(false), untyped: true}, true
	}
	return expr{}, false
}

// constBinary folds a binary operation on two constants, as gc does. It
// returns false when gc would refuse it (division by zero, overflow of a
// typed constant, a shift too large).
func constBinary(x, y expr, op token.Token, t *typ) (constant.Value, bool) {
	bothInt := x.c.Kind() == constant.Int && y.c.Kind() == constant.Int
	intOp := bothInt && (t.u().kind == kInt || x.untyped && y.untyped)
	switch op {
	case token.QUO, token.REM:
		if constant.Sign(y.c) == 0 {
			return nil, false
		}
		if op == token.QUO && intOp {
			op = token.QUO_ASSIGN
		}
		if op == token.REM && (x.c.Kind() != constant.Int || y.c.Kind() != constant.Int) {
			return nil, false
		}
	case token.SHL, token.SHR:
		s, ok := constant.Uint64Val(constant.ToInt(y.c))
		if !ok || s > 64 || x.c.Kind() != constant.Int {
			return nil, false
		}
		v := constant.Shift(x.c, op, uint(s))
		return v, representable(v, t)
	case token.AND, token.OR, token.XOR, token.AND_NOT:
		if x.c.Kind() != constant.Int || y.c.Kind() != constant.Int {
			return nil, false
		}
	}
	if op.IsOperator() && (op == token.EQL || op == token.NEQ || op == token.LSS || op == token.LEQ || op == token.GTR || op == token.GEQ) {
		return constant.MakeBool(constant.Compare(x.c, op, y.c)), true
	}
	v := constant.BinaryOp(x.c, op, y.c)
	if v.Kind() == constant.Unknown {
		return nil, false
	}
	if t.u().kind == kInt && !x.untyped && !y.untyped {
		v = constant.ToInt(v)
	}
	if !x.untyped || !y.untyped {
		// A typed constant operation must fit its type exactly.
		if t.u().kind == kFloat {
			v = roundFloat(v, t)
		}
		return v, representable(v, t)
	}
	return v, representable(v, t)
}

// roundFloat rounds a float constant to t's precision, as a typed float
// constant is.
func roundFloat(v constant.Value, t *typ) constant.Value {
	f, _ := constant.Float64Val(constant.ToFloat(v))
	if t.u().bits == 32 {
		return constant.MakeFloat64(float64(float32(f)))
	}
	return constant.MakeFloat64(f)
}
