package progen

// panicKind is a way to panic, with the construct that names it. The
// runtime errors print gc's messages ("index out of range [5] with
// length 3"), which a recover prints and an uncaught panic reports.
type panicKind struct {
	construct string
	// setup writes statements that make the panic happen; it returns
	// false when the program has nothing to build it from.
	write func(g *gen, bl *block) bool
}

// panicMessages are what programs panic with: valid UTF-8 and not empty
// (gc writes a panic's bytes as they are, and the kernel's error
// messages are text).
var panicMessages = []string{`"boom"`, `"bad input"`, `"négatif"`, `"日本"`, `"x = 3"`, `"unreachable"`}

var panicKinds = []panicKind{
	{"panic-string", func(g *gen, bl *block) bool {
		bl.line("panic(%s)", pickOf(g, panicMessages))
		return true
	}},
	{"panic-sprintf", func(g *gen, bl *block) bool {
		bl.line("panic(fmt.Sprintf(%q, %s))", "bad value %v", g.expr(bl, tInt, 1).text)
		return true
	}},
	{"panic-error", func(g *gen, bl *block) bool {
		g.importPkg("errors")
		bl.line("panic(errors.New(%s))", pickOf(g, panicMessages))
		return true
	}},
	{"panic-errorf", func(g *gen, bl *block) bool {
		bl.line("panic(fmt.Errorf(%q, %s))", "failed: %w", "fmt.Errorf(\"inner\")")
		return true
	}},
	{"panic-int", func(g *gen, bl *block) bool {
		bl.line("panic(%s)", typed(g.intLiteral(tInt)).text)
		return true
	}},
	{"panic-named-value", func(g *gen, bl *block) bool {
		for _, t := range g.types {
			if u := t.u(); (u.kind == kInt || u.kind == kString) && !t.stringer {
				bl.line("panic(%s(%s))", t.name, g.expr(bl, u, 1).text)
				return true
			}
		}
		return false
	}},
	{"panic-index", func(g *gen, bl *block) bool {
		xs, k := g.name("xs"), g.name("k")
		bl.line("%s := []int{%d, %d}", xs, g.pick(9), g.pick(9))
		bl.line("%s := %d", k, 2+g.pick(5))
		bl.line("fmt.Println(%s[%s])", xs, k)
		return true
	}},
	{"panic-slice-bounds", func(g *gen, bl *block) bool {
		xs, k := g.name("xs"), g.name("k")
		bl.line("%s := make([]int, 2, %d)", xs, 2+g.pick(3))
		bl.line("%s := %d", k, 5+g.pick(5))
		bl.line("fmt.Println(%s[:%s])", xs, k)
		return true
	}},
	{"panic-nil-map", func(g *gen, bl *block) bool {
		m := g.name("m")
		bl.line("var %s map[string]int", m)
		bl.line("%s[%q] = 1", m, "k")
		return true
	}},
	{"panic-divide", func(g *gen, bl *block) bool {
		z := g.name("z")
		bl.line("%s := %d", z, 0)
		bl.line("fmt.Println(%d / %s)", 1+g.pick(9), z)
		return true
	}},
	{"panic-type-assert", func(g *gen, bl *block) bool {
		a := g.name("a")
		bl.line("var %s any = %s", a, pickOf(g, panicMessages))
		bl.line("fmt.Println(%s.(int))", a)
		return true
	}},
	{"panic-nil-deref", func(g *gen, bl *block) bool {
		for _, t := range g.structTypes() {
			p := g.name("p")
			bl.line("var %s *%s", p, t.name)
			bl.line("fmt.Println(%s.%s)", p, t.u().fields[0].name)
			return t.u().fields[0].t.printable() || true
		}
		p := g.name("p")
		bl.line("var %s *int", p)
		bl.line("fmt.Println(*%s)", p)
		return true
	}},
	{"panic-closed-chan", func(g *gen, bl *block) bool {
		c := g.name("c")
		bl.line("%s := make(chan int, 1)", c)
		bl.line("close(%s)", c)
		bl.line("%s <- 1", c)
		return true
	}},
}

// writePanic writes one of the panics the program allows; false when it
// allows none.
func (g *gen) writePanic(bl *block) (string, bool) {
	for try := 0; try < 6; try++ {
		k := pickOf(g, panicKinds)
		if g.opts.Avoid[k.construct] {
			continue
		}
		if k.write(g, bl) {
			g.use(k.construct)
			return k.construct, true
		}
	}
	return "", false
}

// recoverStmt runs statements and a panic in a function literal whose
// deferred call recovers and prints what it recovered.
func (g *gen) recoverStmt(bl *block) bool {
	g.use("recover")
	r := g.name("r")
	bl.line("func() {")
	bl.line("\tdefer func() {")
	bl.line("\t\t%s := recover()", r)
	bl.line("\t\tfmt.Println(%q, %s)", "recovered:", r)
	if g.chance(30) {
		g.use("recover-error-value")
		bl.line("\t\tif e, ok := %s.(error); ok {", r)
		bl.line("\t\t\tfmt.Println(%q, e.Error())", "error:")
		bl.line("\t\t}")
	}
	bl.line("\t}()")
	inner := bl.child()
	g.funcLitBody(false, func() {
		g.stmts(inner, g.pick(3))
		if _, ok := g.writePanic(inner); !ok {
			inner.line("panic(%q)", "fallback")
		}
	})
	bl.b.WriteString(inner.close())
	bl.line("}()")
	return true
}

// ending writes how main ends: mostly by returning, sometimes by an
// uncaught panic, a deadlock or os.Exit.
func (g *gen) ending(bl *block) {
	if !g.on("panics", "") {
		return
	}
	switch g.pick(6) {
	case 0, 1, 2:
		g.use("uncaught-panic")
		g.writePanic(bl)
	case 3:
		if !g.on("", "os-exit") {
			return
		}
		g.importPkg("os")
		g.use("os-exit")
		bl.line("os.Exit(%d)", 1+g.pick(5))
	case 4:
		if !g.on("", "deadlock") {
			return
		}
		c := g.name("c")
		g.use("deadlock")
		bl.line("%s := make(chan int)", c)
		bl.line("%s <- 1", c)
	}
}
