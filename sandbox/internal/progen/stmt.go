package progen

import (
	"go/constant"
	"go/token"
	"strings"
)

// stmts writes up to n statements into bl.
func (g *gen) stmts(bl *block, n int) {
	for i := 0; i < n && g.budget > 0; i++ {
		g.budget--
		g.fn.cost += g.multiplier()
		g.stmt(bl)
	}
}

// stmt writes one statement, picked by weight among those the context
// allows.
func (g *gen) stmt(bl *block) {
	type choice struct {
		weight int
		write  func(*block) bool
	}
	free := !g.fn.noOrder
	nest := g.fn.depth < 3
	choices := []choice{
		{14, g.define},
		{12, g.assign},
		{when(free, 14), g.print},
		{when(nest, 6), g.ifStmt},
		{when(nest, 7), g.forStmt},
		{when(nest && g.on("switch", ""), 4), g.switchStmt},
		{when(free && nest && g.on("ranges", ""), 5), g.rangeStmt},
		{when(free && g.on("slices", ""), 4), g.sliceStmt},
		{when(free && g.on("maps", ""), 4), g.mapStmt},
		{when(free, 3), g.callStmt},
		{when(free && nest && g.on("closures", ""), 3), g.closureStmt},
		{when(free && nest && g.on("labels", ""), 2), g.labelledLoops},
		{when(free && nest && g.on("goroutines", ""), 3), g.goroutines},
		{when(free && nest && g.on("defer", ""), 2), g.recoverStmt},
		{when(free && nest && g.on("interfaces", ""), 2), g.typeSwitch},
		{when(free && g.on("structs", ""), 3), g.structStmt},
		{when(nest, 1), g.nestedBlock},
		{when(free && g.on("generics", ""), 2), g.genericStmt},
		{when(free && g.on("methods", ""), 2), g.mutatorCall},
	}
	total := 0
	for _, c := range choices {
		total += c.weight
	}
	for try := 0; try < 6; try++ {
		n := g.pick(total)
		for _, c := range choices {
			if n < c.weight {
				if g.attempt(func() bool { return c.write(bl) }) {
					return
				}
				break
			}
			n -= c.weight
		}
	}
	g.define(bl)
}

func when(ok bool, w int) int {
	if ok {
		return w
	}
	return 0
}

// define declares a new local: v := e, var v T = e, or var v T.
func (g *gen) define(bl *block) bool {
	t := g.randType(0)
	name := g.name("v")
	if g.chance(15) {
		bl.line("var %s %s", name, t.name)
		g.use("var-zero")
		bl.sc.add(&variable{name: name, t: t, local: true})
		return true
	}
	e := g.expr(bl, t, 0)
	v := &variable{name: name, t: t, local: true, nonEmpty: e.nonEmpty}
	switch {
	case e.untyped && !same(defaultType(e), t), !e.untyped && g.chance(20):
		bl.line("var %s %s = %s", name, t.name, e.text)
		g.use("var-typed")
	default:
		if e.untyped && e.isRune {
			if !g.on("", "rune-constant-define") {
				bl.line("var %s %s = %s", name, t.name, e.text)
				break
			}
			g.use("rune-constant-define")
		}
		bl.line("%s := %s", name, e.text)
		g.use("define")
	}
	bl.sc.add(v)
	return true
}

// assignable returns the variables a statement may assign: locals and
// globals, not loop counters or constants.
func (g *gen) assignable(bl *block, ok func(*variable) bool) []*variable {
	return bl.sc.lookup(func(v *variable) bool {
		if v.readOnly || v.c != nil {
			return false
		}
		if !v.local && (g.fn.noOrder || !g.fn.isMain) {
			// A goroutine or a map range writes only its own variables;
			// a function only its own, so that a call in an expression
			// changes nothing the expression reads (whether Go reads x
			// before or after the call in x + f() is not specified).
			return false
		}
		return ok(v)
	})
}

// assign writes v = e, v op= e, v++ or a swap.
func (g *gen) assign(bl *block) bool {
	vs := g.assignable(bl, func(v *variable) bool { return !g.fn.noOrder || v.local })
	if len(vs) == 0 {
		return false
	}
	v := pickOf(g, vs)
	u := v.t.u()
	switch {
	case u.kind == kInt && g.chance(50):
		g.read(v) // x op= e reads x
		return g.opAssign(bl, v)
	case u.kind == kFloat && g.chance(30):
		g.read(v)
		g.use("float-op-assign")
		bl.line("%s %s %s", v.name, pickOf(g, []string{"+=", "-=", "*="}), g.expr(bl, v.t, 1).text)
		return true
	case u.kind == kString && g.chance(40):
		g.read(v)
		g.use("string-append-assign")
		if g.fn.loops > 0 {
			// Bounded: loops would grow the string without end.
			bl.line("%s += %s", v.name, g.shortString(bl, v.t).text)
			return true
		}
		bl.line("%s += %s", v.name, g.expr(bl, v.t, 2).text)
		return true
	}
	e := g.expr(bl, v.t, 0)
	if v.nonEmpty && !e.nonEmpty {
		return false // keeps the promise that indexing v is safe
	}
	if g.fn.loops > 0 && v.t.u().kind == kString && strings.Contains(e.text, v.name) {
		return false // s = s + s in a loop doubles each pass
	}
	if g.fn.loops > 0 && v.t.u().kind == kSlice && strings.Contains(e.text, v.name) {
		return false
	}
	bl.line("%s = %s", v.name, e.text)
	g.use("assign")
	return true
}

// shortString is a string expression that stays short.
func (g *gen) shortString(bl *block, t *typ) expr {
	if e, ok := g.literal(t); ok && g.chance(50) {
		return e
	}
	x, ok := g.nonConst(bl, tRune, 2)
	if !ok || !same(t, tString) {
		e, _ := g.literal(t)
		return e
	}
	return expr{text: "string(" + x.text + ")", t: t}
}

func (g *gen) opAssign(bl *block, v *variable) bool {
	switch g.pick(6) {
	case 0:
		g.use("inc-dec")
		bl.line("%s%s", v.name, pickOf(g, []string{"++", "--"}))
	case 1:
		g.use("int-op-assign")
		op := pickOf(g, []string{"/=", "%="})
		d := g.expr(bl, v.t, 2)
		if d.isConst() {
			if d.c.Kind() != constant.Int {
				return false
			}
			c := constant.BinaryOp(d.c, token.OR, constant.MakeInt64(1))
			if !representable(c, v.t) {
				return false
			}
		}
		bl.line("%s %s (%s | 1)", v.name, op, d.text)
	case 2:
		g.use("shift-assign")
		bl.line("%s %s %d", v.name, pickOf(g, []string{"<<=", ">>="}), g.pick(v.t.u().bits+2))
	default:
		g.use("int-op-assign")
		e := g.expr(bl, v.t, 1)
		bl.line("%s %s %s", v.name, pickOf(g, []string{"+=", "-=", "*=", "&=", "|=", "^=", "&^="}), e.text)
	}
	return true
}

// print writes a line of output with fmt.
func (g *gen) print(bl *block) bool {
	n := 1 + g.pick(3)
	var es []expr
	builtin := g.chance(10) && g.on("", "println-builtin")
	for range n {
		t := g.printableType()
		if builtin {
			t = g.basicType()
		}
		es = append(es, typed(g.expr(bl, t, 0)))
	}
	if builtin {
		g.use("println-builtin")
		bl.line("println(%s)", joinText(es))
		return true
	}
	switch g.pick(10) {
	case 0, 1, 2, 3:
		g.use("println")
		bl.line("fmt.Println(%s)", joinText(es))
	case 4:
		g.use("print")
		bl.line("fmt.Print(%s, \"\\n\")", joinText(es))
	case 5:
		g.use("print")
		bl.line("fmt.Print(%s)", joinText(es))
		bl.line("fmt.Println()")
	default:
		g.use("printf")
		var verbs []string
		for _, e := range es {
			verbs = append(verbs, strings.Trim(g.verbFor(e.t), `"`))
		}
		bl.line("fmt.Printf(%q, %s)", strings.Join(verbs, " ")+"\n", joinText(es))
	}
	return true
}

func joinText(es []expr) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.text)
	}
	return strings.Join(parts, ", ")
}

func (g *gen) ifStmt(bl *block) bool {
	g.fn.depth++
	defer func() { g.fn.depth-- }()
	if g.chance(20) {
		// if with an init statement.
		t := g.basicType()
		inner := bl.child()
		name := g.name("v")
		e := g.expr(bl, t, 1)
		if e.untyped && !same(defaultType(e), t) {
			e = typed(e)
		}
		inner.sc.add(&variable{name: name, t: t, local: true})
		c := g.expr(inner, tBool, 1)
		g.use("if-init")
		bl.line("if %s := %s; %s {", name, e.text, c.text)
		g.stmts(inner, 1+g.pick(3))
		bl.b.WriteString(inner.close())
		bl.line("}")
		return true
	}
	g.use("if")
	bl.line("if %s {", g.expr(bl, tBool, 0).text)
	g.body(bl, 1+g.pick(3))
	if g.chance(40) {
		if g.chance(40) {
			g.use("else-if")
			bl.line("} else if %s {", g.expr(bl, tBool, 1).text)
			g.body(bl, 1+g.pick(2))
		}
		bl.line("} else {")
		g.body(bl, 1+g.pick(2))
	}
	bl.line("}")
	return true
}

// body writes a nested block of n statements (without its braces).
func (g *gen) body(bl *block, n int) {
	inner := bl.child()
	g.stmts(inner, n)
	bl.b.WriteString(inner.close())
}

func (g *gen) nestedBlock(bl *block) bool {
	g.fn.depth++
	defer func() { g.fn.depth-- }()
	g.use("block")
	bl.line("{")
	g.body(bl, 1+g.pick(3))
	bl.line("}")
	return true
}
