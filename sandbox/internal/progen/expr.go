package progen

import (
	"go/constant"
	"go/token"
	"strings"
)

// maxDepth bounds the nesting of expressions.
const maxDepth = 3

// randType returns a type for a new variable: mostly basic types, then
// composites of them and the program's own types.
func (g *gen) randType(depth int) *typ {
	n := g.pick(100)
	switch {
	case n < 45 || depth > 1:
		return g.basicType()
	case n < 60 && g.on("slices", ""):
		return sliceOf(g.randType(depth + 1))
	case n < 68 && g.on("maps", ""):
		return mapOf(g.keyType(), g.randType(depth+1))
	case n < 73:
		return arrayOf(1+g.pick(4), g.randType(depth+1))
	case n < 90 && len(g.types) > 0:
		return pickOf(g, g.types)
	}
	return g.basicType()
}

func (g *gen) basicType() *typ {
	switch n := g.pick(100); {
	case n < 50:
		return pickOf(g, intTypes)
	case n < 62 && g.on("floats", ""):
		return pickOf(g, []*typ{tFloat64, tFloat64, tFloat32})
	case n < 85 && g.on("strings", ""):
		return tString
	case n < 92:
		return tBool
	}
	return tInt
}

// keyType returns a type for map keys: comparable, and not a float (NaN).
func (g *gen) keyType() *typ {
	for {
		t := g.basicType()
		if t.kind != kFloat {
			return t
		}
	}
}

// printableType returns a type whose values print the same in every run.
func (g *gen) printableType() *typ {
	for {
		if t := g.randType(0); t.printable() {
			return t
		}
	}
}

// expr returns an expression of type t, built from what is in scope.
func (g *gen) expr(bl *block, t *typ, depth int) expr {
	// Few tries below the top: each try builds subexpressions, which
	// retry in turn.
	for try := 0; try < max(1, 5-2*depth); try++ {
		var e expr
		if g.attempt(func() bool {
			var ok bool
			e, ok = g.tryExpr(bl, t, depth)
			return ok
		}) {
			return e
		}
	}
	return g.zero(bl, t)
}

func (g *gen) tryExpr(bl *block, t *typ, depth int) (expr, bool) {
	leaf := depth >= maxDepth || g.chance(25+15*depth)
	if leaf || g.chance(18) {
		if e, ok := g.varOf(bl, t); ok {
			return e, true
		}
	}
	if leaf {
		if e, ok := g.literal(t); ok {
			return e, true
		}
		return g.composite(bl, t, depth)
	}
	if g.chance(15) {
		if e, ok := g.callOf(bl, t, depth); ok {
			return e, true
		}
	}
	if g.chance(10) {
		if e, ok := g.selectorOf(bl, t, depth); ok {
			return e, true
		}
	}
	switch t.u().kind {
	case kInt:
		return g.intExpr(bl, t, depth)
	case kFloat:
		return g.floatExpr(bl, t, depth)
	case kString:
		return g.stringExpr(bl, t, depth)
	case kBool:
		return g.boolExpr(bl, t, depth)
	}
	return g.composite(bl, t, depth)
}

// varOf returns a variable of type t in scope.
func (g *gen) varOf(bl *block, t *typ) (expr, bool) {
	vs := bl.sc.lookup(func(v *variable) bool {
		if v.c != nil && v.untyped {
			// An untyped constant fits wherever its value does.
			k := t.u().kind
			return (k == kInt || k == kFloat || k == kString || k == kBool) && representable(v.c, t)
		}
		return same(v.t, t)
	})
	if len(vs) == 0 {
		return expr{}, false
	}
	v := pickOf(g, vs)
	g.read(v)
	return expr{text: v.name, t: t, nonEmpty: v.nonEmpty, c: v.c, untyped: v.untyped, isRune: v.isRune}, true
}

// nonConst returns a non-constant expression of type t, or false (and
// takes back what the expression read).
func (g *gen) nonConst(bl *block, t *typ, depth int) (expr, bool) {
	var e expr
	ok := g.attempt(func() bool {
		e = g.expr(bl, t, depth)
		return !e.isConst()
	})
	return e, ok
}

// zero returns the zero value of t, written out.
func (g *gen) zero(bl *block, t *typ) expr {
	if e, ok := g.literal(t); ok {
		return e
	}
	switch t.u().kind {
	case kSlice, kMap, kPointer, kFunc, kChan, kInterface:
		name := t.name
		if strings.HasPrefix(name, "*") || strings.HasPrefix(name, "func") || strings.HasPrefix(name, "chan") {
			name = "(" + name + ")"
		}
		return expr{text: name + "(nil)", t: t}
	}
	return expr{text: t.name + "{}", t: t}
}

// binary makes x op y of type t, folding constants; false when gc would
// refuse the result.
func binary(x, y expr, op token.Token, t *typ) (expr, bool) {
	e := expr{text: "(" + x.text + " " + op.String() + " " + y.text + ")", t: t}
	if x.isConst() && y.isConst() {
		c, ok := constBinary(x, y, op, t)
		if !ok {
			return expr{}, false
		}
		e.c, e.untyped = c, x.untyped && y.untyped
		e.isRune = e.untyped && (x.isRune || y.isRune)
		if e.untyped && !representable(c, t) {
			return expr{}, false
		}
	}
	return e, true
}

// typed makes an untyped constant typed, so that it cannot take another
// type from its context (a shift's left operand, a conversion).
func typed(e expr) expr {
	if !e.untyped {
		return e
	}
	c := e.c
	if e.t.u().kind == kInt {
		c = constant.ToInt(c)
	}
	return expr{text: e.t.name + "(" + e.text + ")", t: e.t, c: c}
}

func (g *gen) intExpr(bl *block, t *typ, depth int) (expr, bool) {
	switch g.pick(12) {
	case 0, 1, 2:
		op := pickOf(g, []token.Token{token.ADD, token.SUB, token.MUL, token.ADD, token.MUL})
		g.use("int-arith")
		return binary(g.expr(bl, t, depth+1), g.expr(bl, t, depth+1), op, t)
	case 3:
		op := pickOf(g, []token.Token{token.AND, token.OR, token.XOR, token.AND_NOT})
		g.use("int-bitwise")
		return binary(g.expr(bl, t, depth+1), g.expr(bl, t, depth+1), op, t)
	case 4:
		// Division by an odd number: never zero, and x / -1 wraps at
		// the minimum (spec), which is worth seeing.
		op := pickOf(g, []token.Token{token.QUO, token.REM})
		g.use("int-division")
		d, ok := binary(g.expr(bl, t, depth+1), expr{text: "1", t: t, c: constant.MakeInt64(1), untyped: true}, token.OR, t)
		if !ok {
			return expr{}, false
		}
		return binary(g.expr(bl, t, depth+1), d, op, t)
	case 5:
		return g.shift(bl, t, depth)
	case 6:
		x := g.expr(bl, t, depth+1)
		op := pickOf(g, []string{"-", "^", "+"})
		if x.isConst() {
			if op == "^" && x.c.Kind() != constant.Int {
				return expr{}, false
			}
			c := constant.UnaryOp(map[string]token.Token{"-": token.SUB, "^": token.XOR, "+": token.ADD}[op], x.c, 0)
			if op == "^" && !x.untyped && !t.u().signed {
				c = constant.UnaryOp(token.XOR, x.c, uint(t.u().bits))
			}
			if !representable(c, t) {
				return expr{}, false
			}
			return expr{text: "(" + op + x.text + ")", t: t, c: c, untyped: x.untyped, isRune: x.isRune}, true
		}
		g.use("int-unary")
		return expr{text: "(" + op + x.text + ")", t: t}, true
	case 7:
		return g.intConversion(bl, t, depth)
	case 8:
		return g.lenOf(bl, t, depth)
	case 9:
		if !g.on("", "min-max") {
			return expr{}, false
		}
		g.use("min-max")
		x, y := g.expr(bl, t, depth+1), g.expr(bl, t, depth+1)
		if x.isConst() && y.isConst() {
			return expr{}, false
		}
		return expr{text: pickOf(g, []string{"min", "max"}) + "(" + x.text + ", " + y.text + ")", t: t}, true
	case 10:
		return g.byteOrRune(bl, t, depth)
	}
	return g.literal(t)
}

// shift writes x << s or x >> s with x typed and s never negative.
func (g *gen) shift(bl *block, t *typ, depth int) (expr, bool) {
	g.use("shift")
	x := typed(g.expr(bl, t, depth+1))
	op := pickOf(g, []token.Token{token.SHL, token.SHR})
	var s expr
	if g.chance(50) {
		s = expr{text: itoa(g.pick(t.u().bits + 4)), t: tUint, untyped: true}
		s.c = constant.MakeFromLiteral(s.text, token.INT, 0)
	} else {
		ct := pickOf(g, intTypes)
		s = g.expr(bl, ct, depth+1)
		if s.isConst() {
			return expr{}, false
		}
		if ct.signed {
			s.text = "(" + s.text + " & 15)"
		}
	}
	if x.isConst() && s.isConst() {
		return binary(x, s, op, t)
	}
	return expr{text: "(" + x.text + " " + op.String() + " " + s.text + ")", t: t}, true
}

// intConversion converts another integer (wrapping) or a float's integral
// constant to t.
func (g *gen) intConversion(bl *block, t *typ, depth int) (expr, bool) {
	from := pickOf(g, intTypes)
	x := g.expr(bl, from, depth+1)
	if x.isConst() {
		if !representable(x.c, t) {
			return expr{}, false
		}
		return expr{text: t.name + "(" + x.text + ")", t: t, c: constant.ToInt(x.c)}, true
	}
	g.use("int-conversion")
	return expr{text: t.name + "(" + x.text + ")", t: t}, true
}

// lenOf is len or cap of something in scope, converted to t.
func (g *gen) lenOf(bl *block, t *typ, depth int) (expr, bool) {
	vs := bl.sc.lookup(func(v *variable) bool {
		k := v.t.u().kind
		return k == kSlice || k == kString || k == kMap || k == kArray || k == kChan
	})
	if len(vs) == 0 {
		return expr{}, false
	}
	v := pickOf(g, vs)
	g.read(v)
	fn := "len"
	if k := v.t.u().kind; (k == kSlice || k == kChan) && g.chance(30) {
		fn = "cap"
		g.use("cap")
	}
	text := fn + "(" + v.name + ")"
	var c constant.Value
	switch {
	case v.t.u().kind == kArray:
		c = constant.MakeInt64(int64(v.t.u().length)) // len of an array is a constant
	case v.c != nil && v.c.Kind() == constant.String:
		c = constant.MakeInt64(int64(len(constant.StringVal(v.c)))) // so is len of a constant string
	}
	if c != nil {
		if !representable(c, t) {
			return expr{}, false
		}
		if same(t, tInt) {
			return expr{text: text, t: t, c: c}, true
		}
		return expr{text: t.name + "(" + text + ")", t: t, c: c}, true
	}
	if same(t, tInt) {
		return expr{text: text, t: t}, true
	}
	return expr{text: t.name + "(" + text + ")", t: t}, true
}

// byteOrRune reads a byte of a non-empty string or slice element.
func (g *gen) byteOrRune(bl *block, t *typ, depth int) (expr, bool) {
	vs := bl.sc.lookup(func(v *variable) bool { return v.nonEmpty && v.t.u().kind == kString })
	if len(vs) == 0 || !g.on("strings", "") {
		return expr{}, false
	}
	v := pickOf(g, vs)
	g.read(v)
	g.use("string-index")
	idx := g.index(bl, v.name, depth)
	text := v.name + "[" + idx + "]"
	if !same(t, tByte) {
		text = t.name + "(" + text + ")"
	}
	return expr{text: text, t: t}, true
}

// index returns an index into the non-empty sequence named seq.
func (g *gen) index(bl *block, seq string, depth int) string {
	if g.chance(30) {
		return "0"
	}
	if g.chance(20) {
		return "len(" + seq + ")-1"
	}
	x, ok := g.nonConst(bl, pickOf(g, []*typ{tInt, tUint8, tInt64, tUint}), depth+1)
	if !ok {
		return "0"
	}
	return "int(uint(" + x.text + ") % uint(len(" + seq + ")))"
}

func (g *gen) floatExpr(bl *block, t *typ, depth int) (expr, bool) {
	switch g.pick(8) {
	case 0, 1, 2:
		g.use("float-arith")
		op := pickOf(g, []token.Token{token.ADD, token.SUB, token.MUL})
		return binary(g.expr(bl, t, depth+1), g.expr(bl, t, depth+1), op, t)
	case 3:
		g.use("float-division")
		x, y := g.expr(bl, t, depth+1), g.expr(bl, t, depth+1)
		if y.isConst() && constant.Sign(y.c) == 0 {
			return expr{}, false
		}
		if x.untyped && y.untyped && x.c.Kind() == constant.Int && y.c.Kind() == constant.Int {
			if !g.on("", "untyped-int-division-as-float") {
				return expr{}, false
			}
			g.use("untyped-int-division-as-float")
		}
		return binary(x, y, token.QUO, t)
	case 4, 5:
		from := pickOf(g, append(intTypes, tFloat64, tFloat32))
		x := g.expr(bl, from, depth+1)
		if x.isConst() {
			return expr{}, false
		}
		g.use("float-conversion")
		return expr{text: t.name + "(" + x.text + ")", t: t}, true
	case 6:
		if !same(t, tFloat64) {
			return expr{}, false
		}
		g.importPkg("math")
		g.use("math")
		x := g.expr(bl, tFloat64, depth+1)
		f := pickOf(g, []string{"math.Abs", "math.Floor", "math.Ceil", "math.Trunc", "math.Sqrt", "math.Round"})
		if x.isConst() {
			return expr{}, false
		}
		return expr{text: f + "(" + x.text + ")", t: t}, true
	}
	return g.literal(t)
}

func (g *gen) stringExpr(bl *block, t *typ, depth int) (expr, bool) {
	if !same(t, tString) {
		// A named string type: convert a string.
		x := g.expr(bl, tString, depth+1)
		return expr{text: t.name + "(" + x.text + ")", t: t, c: x.c, nonEmpty: x.nonEmpty}, true
	}
	switch g.pick(11) {
	case 0, 1:
		g.use("string-concat")
		x, y := g.expr(bl, t, depth+1), g.expr(bl, t, depth+1)
		e, ok := binary(x, y, token.ADD, t)
		e.nonEmpty = x.nonEmpty || y.nonEmpty
		return e, ok
	case 2:
		g.use("rune-to-string")
		x, ok := g.nonConst(bl, tRune, depth+1)
		if !ok {
			return g.literal(t)
		}
		return expr{text: "string(" + x.text + ")", t: t, nonEmpty: true}, true
	case 3:
		g.importPkg("strconv")
		g.use("strconv")
		x := g.expr(bl, tInt, depth+1)
		return expr{text: "strconv.Itoa(" + x.text + ")", t: t, nonEmpty: true}, true
	case 4:
		x := typed(g.expr(bl, g.printableType(), depth+1))
		g.use("sprint")
		if g.chance(50) {
			return expr{text: "fmt.Sprint(" + x.text + ")", t: t}, true
		}
		return expr{text: "fmt.Sprintf(" + g.verbFor(x.t) + ", " + x.text + ")", t: t}, true
	case 5:
		g.importPkg("strings")
		g.use("strings-pkg")
		x := g.expr(bl, t, depth+1)
		f := pickOf(g, []string{"strings.ToUpper", "strings.ToLower", "strings.TrimSpace", "strings.ToTitle"})
		return expr{text: f + "(" + x.text + ")", t: t}, true
	case 6:
		g.importPkg("strings")
		g.use("strings-pkg")
		x := g.expr(bl, t, depth+1)
		return expr{text: "strings.Repeat(" + x.text + ", " + itoa(g.pick(4)) + ")", t: t}, true
	case 7:
		return g.substring(bl, t, depth)
	case 8:
		return g.bytesToString(bl, t)
	}
	return g.literal(t)
}

// substring slices a string in scope at indices that are always in range.
func (g *gen) substring(bl *block, t *typ, depth int) (expr, bool) {
	vs := bl.sc.lookup(func(v *variable) bool { return same(v.t, tString) })
	if len(vs) == 0 {
		return expr{}, false
	}
	v := pickOf(g, vs)
	g.read(v)
	g.use("string-slice")
	lo, hi := "len("+v.name+")/"+itoa(2+g.pick(3)), "len("+v.name+")-len("+v.name+")/"+itoa(2+g.pick(3))
	switch g.pick(3) {
	case 0:
		return expr{text: v.name + "[" + lo + ":]", t: t}, true
	case 1:
		return expr{text: v.name + "[:" + hi + "]", t: t}, true
	}
	return expr{text: v.name + "[" + lo + ":" + hi + "]", t: t}, true
}

// bytesToString converts a []byte or []rune in scope to a string.
func (g *gen) bytesToString(bl *block, t *typ) (expr, bool) {
	vs := bl.sc.lookup(func(v *variable) bool {
		return v.t.kind == kSlice && !v.t.isNamed() && (same(v.t.elem, tByte) || same(v.t.elem, tRune))
	})
	if len(vs) == 0 {
		return expr{}, false
	}
	v := pickOf(g, vs)
	g.read(v)
	g.use("bytes-runes-string")
	return expr{text: "string(" + v.name + ")", t: t}, true
}

func (g *gen) boolExpr(bl *block, t *typ, depth int) (expr, bool) {
	switch g.pick(6) {
	case 0, 1, 2:
		ct := g.randType(1)
		for !ct.comparable() || ct.u().kind == kInterface {
			ct = g.basicType()
		}
		ops := []token.Token{token.EQL, token.NEQ}
		if ct.ordered() {
			ops = append(ops, token.LSS, token.LEQ, token.GTR, token.GEQ)
		}
		x, y := g.expr(bl, ct, depth+1), g.expr(bl, ct, depth+1)
		g.use("compare")
		e, ok := binary(x, y, pickOf(g, ops), t)
		if ok && e.isConst() {
			e.untyped = x.untyped && y.untyped
		}
		return e, ok
	case 3:
		op := pickOf(g, []token.Token{token.LAND, token.LOR})
		x, y := g.expr(bl, t, depth+1), g.expr(bl, t, depth+1)
		g.use("logical")
		return expr{text: "(" + x.text + " " + op.String() + " " + y.text + ")", t: t, c: foldLogical(x, y, op), untyped: x.untyped && y.untyped}, true
	case 4:
		x := g.expr(bl, t, depth+1)
		var c constant.Value
		if x.isConst() {
			c = constant.UnaryOp(token.NOT, x.c, 0)
		}
		return expr{text: "(!" + x.text + ")", t: t, c: c, untyped: x.untyped}, true
	}
	if g.on("strings", "") {
		g.importPkg("strings")
		g.use("strings-pkg")
		x, y := g.expr(bl, tString, depth+1), g.expr(bl, tString, depth+1)
		f := pickOf(g, []string{"strings.Contains", "strings.HasPrefix", "strings.HasSuffix"})
		return expr{text: f + "(" + x.text + ", " + y.text + ")", t: t}, true
	}
	return g.literal(t)
}

func foldLogical(x, y expr, op token.Token) constant.Value {
	if !x.isConst() || !y.isConst() {
		return nil
	}
	a, b := constant.BoolVal(x.c), constant.BoolVal(y.c)
	if op == token.LAND {
		return constant.MakeBool(a && b)
	}
	return constant.MakeBool(a || b)
}

// verbFor returns a quoted Printf format with a verb that suits t.
func (g *gen) verbFor(t *typ) string {
	verbs := []string{"%v", "%v", "%+v"}
	switch u := t.u(); {
	case t.stringer:
		verbs = []string{"%v", "%s"}
	case u.kind == kInt:
		verbs = append(verbs, "%d", "%x", "%X", "%o", "%b", "%08d", "%+d", "%-5d|", "%#x")
		if same(u, tRune) || same(u, tInt32) {
			verbs = append(verbs, "%c", "%q", "%U")
		}
	case u.kind == kFloat:
		verbs = append(verbs, "%.2f", "%e", "%g", "%8.3f", "%.0f", "%G")
	case u.kind == kString:
		verbs = append(verbs, "%s", "%q", "%x", "%10s|", "%-6s|", "%.2s")
	case u.kind == kBool:
		verbs = append(verbs, "%t")
	case u.kind == kStruct || u.kind == kSlice || u.kind == kMap || u.kind == kArray:
		if g.on("", "gosyntax-verb") && (!t.definedNonStruct() || g.on("", "gosyntax-defined")) {
			verbs = append(verbs, "%#v")
		}
	}
	v := pickOf(g, verbs)
	if v == "%#v" {
		g.use("gosyntax-verb")
		if t.definedNonStruct() {
			g.use("gosyntax-defined")
		}
	}
	if g.chance(10) && !t.stringer {
		v = "%T"
		g.use("type-verb")
	}
	return `"` + v + `"`
}

func itoa(n int) string {
	return strings.TrimSpace(constant.MakeInt64(int64(n)).ExactString())
}
