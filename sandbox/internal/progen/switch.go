package progen

import (
	"go/constant"
	"go/token"
	"strings"
)

// switchStmt writes an expression switch (with a tag, an init statement
// or none) whose cases are distinct constants, with fallthrough and a
// default clause that need not be last.
func (g *gen) switchStmt(bl *block) bool {
	g.fn.depth++
	defer func() { g.fn.depth-- }()
	if g.chance(30) {
		return g.taglessSwitch(bl)
	}
	t := pickOf(g, []*typ{tInt, tInt8, tUint16, tString, tRune, tInt64})
	if t.kind == kString && !g.on("strings", "") {
		t = tInt
	}
	tag := g.expr(bl, t, 1)
	if tag.isConst() {
		tag = typed(tag)
	}
	head := "switch " + tag.text + " {"
	if g.chance(20) {
		x := g.name("v")
		g.use("switch-init")
		head = "switch " + x + " := " + tag.text + "; " + x + " {"
		bl.sc.add(&variable{name: x, t: t, local: true, used: true})
		defer func() { bl.sc.vars = bl.sc.vars[:len(bl.sc.vars)-1] }()
	}
	g.use("switch")
	bl.line("%s", head)
	var seen []constant.Value
	var heads []string
	for range 1 + g.pick(4) {
		var vals []string
		for range 1 + g.pick(2) {
			lit, _ := g.literal(t)
			if lit.c == nil || containsConst(seen, lit.c) {
				continue
			}
			seen = append(seen, lit.c)
			vals = append(vals, lit.text)
		}
		if len(vals) > 0 {
			heads = append(heads, "case "+strings.Join(vals, ", ")+":")
		}
	}
	defaultAt := -1
	if g.chance(60) {
		defaultAt = g.pick(len(heads) + 1)
		heads = append(heads[:defaultAt], append([]string{"default:"}, heads[defaultAt:]...)...)
		if defaultAt < len(heads)-1 {
			g.use("default-not-last")
		}
	}
	for i, h := range heads {
		last := i == len(heads)-1
		// A fallthrough anywhere in a switch whose default clause is not
		// the last one (the kernel moves such a default clause: a
		// fallthrough into it, out of it or between the clauses after it
		// lands elsewhere).
		middleDefault := defaultAt >= 0 && defaultAt != len(heads)-1
		g.clause(bl, h, !last, middleDefault)
	}
	bl.line("}")
	return true
}

// clause writes a case clause's statements, ending in fallthrough when it
// may (a clause is followed by another).
func (g *gen) clause(bl *block, head string, canFall, middleDefault bool) {
	bl.line("%s", head)
	inner := bl.child()
	g.stmts(inner, 1+g.pick(2))
	if canFall && g.chance(30) {
		if middleDefault && !g.on("", "fallthrough-into-default") {
			bl.b.WriteString(inner.close())
			return
		}
		g.use("fallthrough")
		if middleDefault {
			g.use("fallthrough-into-default")
		}
		bl.b.WriteString(inner.close())
		bl.line("\tfallthrough")
		return
	}
	bl.b.WriteString(inner.close())
}

func containsConst(seen []constant.Value, c constant.Value) bool {
	for _, s := range seen {
		if constant.Compare(s, token.EQL, c) {
			return true
		}
	}
	return false
}

// taglessSwitch writes switch { case cond: ... } with a default.
func (g *gen) taglessSwitch(bl *block) bool {
	g.use("switch-tagless")
	bl.line("switch {")
	for range 1 + g.pick(3) {
		g.clause(bl, "case "+g.expr(bl, tBool, 1).text+":", false, false)
	}
	if g.chance(50) {
		g.clause(bl, "default:", false, false)
	}
	bl.line("}")
	return true
}

// typeSwitch stores a value in an any and switches on its type.
func (g *gen) typeSwitch(bl *block) bool {
	g.fn.depth++
	defer func() { g.fn.depth-- }()
	defined := g.on("", "type-switch-defined")
	pickType := func() *typ {
		for {
			if t := g.printableType(); defined || !t.mentionsDefined() {
				return t
			}
		}
	}
	vt := pickType()
	e := g.expr(bl, vt, 1)
	if e.untyped {
		e = typed(e)
	}
	a, x := g.name("a"), g.name("x")
	bl.line("var %s any = %s", a, e.text)
	bl.sc.add(&variable{name: a, t: tAny, local: true, used: true, nonEmpty: true})
	g.use("type-switch")
	bl.line("switch %s := %s.(type) {", x, a)
	cases := []*typ{vt}
	for range g.pick(3) {
		cases = append(cases, pickType())
	}
	for _, c := range cases {
		if c.mentionsDefined() {
			g.use("type-switch-defined")
			break
		}
	}
	g.r.Shuffle(len(cases), func(i, j int) { cases[i], cases[j] = cases[j], cases[i] })
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[canonical(c.name)] {
			continue
		}
		seen[canonical(c.name)] = true
		bl.line("case %s:", c.name)
		inner := bl.child()
		inner.sc.add(&variable{name: x, t: c, local: true, used: true})
		inner.line("fmt.Println(%q, %s)", c.name, x)
		g.stmts(inner, g.pick(2))
		bl.b.WriteString(inner.close())
	}
	bl.line("default:")
	bl.line("\tfmt.Printf(\"other %%T\\n\", %s)", x)
	bl.line("}")
	return true
}
