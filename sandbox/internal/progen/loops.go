package progen

// forStmt writes a loop with a constant bound whose counter the body
// cannot assign, in one of the forms of the for statement.
func (g *gen) forStmt(bl *block) bool {
	g.fn.depth++
	g.fn.loops++
	defer func() { g.fn.depth--; g.fn.loops-- }()
	inner := bl.child()
	i := g.name("i")
	k := g.pick(5)
	ct := tInt
	if g.chance(20) {
		ct = pickOf(g, []*typ{tInt8, tUint8, tInt64, tUint})
	}
	inner.sc.add(&variable{name: i, t: ct, readOnly: true, local: true, used: true})
	init := i + " := 0"
	if !same(ct, tInt) {
		init = i + " := " + ct.name + "(0)"
	}
	switch g.pick(6) {
	case 0, 1:
		g.use("for-3-clause")
		bl.line("for %s; %s < %d; %s++ {", init, i, k, i)
	case 2:
		g.use("for-3-clause")
		bl.line("for %s := %d; %s > 0; %s-- {", i, k, i, i)
		if !same(ct, tInt) {
			inner.sc.vars[0].t = tInt
		}
	case 3:
		// The counter advances first, so continue cannot skip it.
		g.use("for-cond-only")
		bl.line("%s := 0", i)
		inner.sc.vars[0].t = tInt
		bl.line("for %s < %d {", i, k)
		inner.line("%s++", i)
	case 4:
		g.use("for-break")
		bl.line("%s := 0", i)
		inner.sc.vars[0].t = tInt
		bl.line("for {")
		inner.line("if %s >= %d {", i, k)
		inner.line("\tbreak")
		inner.line("}")
		inner.line("%s++", i)
	default:
		if !g.on("", "for-no-cond-no-post") {
			return false
		}
		g.use("for-no-cond-no-post")
		inner.sc.vars[0].t = tInt
		bl.line("for %s := 0; ; {", i)
		inner.line("if %s >= %d {", i, k)
		inner.line("\tbreak")
		inner.line("}")
		inner.line("%s++", i)
	}
	g.repeat(k, func() { g.loopBody(inner) })
	bl.b.WriteString(inner.close())
	bl.line("}")
	return true
}

// loopBody writes a loop's statements, sometimes with a break or continue
// under a condition.
func (g *gen) loopBody(inner *block) {
	g.stmts(inner, 1+g.pick(3))
	if g.chance(25) {
		g.use("break-continue")
		inner.line("if %s {", g.expr(inner, tBool, 1).text)
		inner.line("\t%s", pickOf(g, []string{"break", "continue"}))
		inner.line("}")
		g.stmts(inner, 1)
	}
}

// rangeStmt writes one of the range forms.
func (g *gen) rangeStmt(bl *block) bool {
	g.fn.depth++
	g.fn.loops++
	defer func() { g.fn.depth--; g.fn.loops-- }()
	switch g.pick(8) {
	case 0, 1:
		return g.rangeInt(bl)
	case 2, 3:
		return g.rangeSeq(bl)
	case 4:
		return g.rangeString(bl)
	case 5:
		return g.rangeMap(bl)
	case 6:
		return g.rangeChan(bl)
	default:
		return g.rangeFunc(bl)
	}
}

func (g *gen) rangeInt(bl *block) bool {
	inner := bl.child()
	n := g.pick(5)
	if g.chance(20) {
		g.use("range-int-no-var")
		bl.line("for range %d {", n)
	} else {
		i := g.name("i")
		inner.sc.add(&variable{name: i, t: tInt, readOnly: true, local: true})
		g.use("range-int")
		bl.line("for %s := range %d {", i, n)
	}
	g.repeat(n, func() { g.loopBody(inner) })
	bl.b.WriteString(inner.close())
	bl.line("}")
	return true
}

// rangeSeq ranges over a slice or an array (or a pointer to one).
func (g *gen) rangeSeq(bl *block) bool {
	vs := bl.sc.lookup(func(v *variable) bool {
		k := v.t.u().kind
		return k == kSlice || k == kArray
	})
	if len(vs) == 0 {
		return false
	}
	v := pickOf(g, vs)
	g.read(v)
	inner := bl.child()
	i, x := g.name("i"), g.name("x")
	over := v.name
	if v.t.u().kind == kArray && g.chance(25) {
		over = "&" + v.name
		g.use("range-array-pointer")
	}
	key := &variable{name: i, t: tInt, readOnly: true, local: true}
	val := &variable{name: x, t: v.t.u().elem, local: true}
	switch g.pick(4) {
	case 0:
		bl.line("for %s := range %s {", i, over)
		inner.sc.add(key)
	case 1:
		bl.line("for _, %s := range %s {", x, over)
		inner.sc.add(val)
	default:
		bl.line("for %s, %s := range %s {", i, x, over)
		inner.sc.add(key)
		inner.sc.add(val)
		if g.on("", "range-key-assign") && g.chance(15) {
			// Assigning the key changes nothing about the iteration.
			g.use("range-key-assign")
			inner.line("%s += %d", i, 1+g.pick(3))
		}
	}
	g.use("range-slice")
	g.repeat(8, func() { g.loopBody(inner) })
	bl.b.WriteString(inner.close())
	bl.line("}")
	return true
}

func (g *gen) rangeString(bl *block) bool {
	if !g.on("strings", "") {
		return false
	}
	s := g.expr(bl, tString, 1)
	inner := bl.child()
	i, r := g.name("i"), g.name("r")
	inner.sc.add(&variable{name: i, t: tInt, readOnly: true, local: true})
	inner.sc.add(&variable{name: r, t: tRune, local: true})
	g.use("range-string")
	bl.line("for %s, %s := range %s {", i, r, s.text)
	g.repeat(8, func() { g.loopBody(inner) })
	bl.b.WriteString(inner.close())
	bl.line("}")
	return true
}

// rangeMap folds a map in an order-independent way: wrapping sums,
// counts, a maximum, or its keys sorted after the loop.
func (g *gen) rangeMap(bl *block) bool {
	vs := bl.sc.lookup(func(v *variable) bool { return v.t.u().kind == kMap })
	if len(vs) == 0 {
		return false
	}
	m := pickOf(g, vs)
	g.read(m)
	kt, vt := m.t.u().key, m.t.u().elem
	k, v := g.name("k"), g.name("x")
	acc := g.name("acc")
	g.use("range-map")
	if kt.ordered() && g.chance(40) {
		keys := g.name("keys")
		g.importPkg("slices")
		bl.line("%s := make([]%s, 0, len(%s))", keys, kt.name, m.name)
		bl.line("for %s := range %s {", k, m.name)
		bl.line("\t%s = append(%s, %s)", keys, keys, k)
		bl.line("}")
		bl.line("slices.Sort(%s)", keys)
		bl.line("fmt.Println(%s)", keys)
		g.use("sorted-keys")
		bl.sc.add(&variable{name: keys, t: sliceOf(kt), local: true, used: true})
		return true
	}
	bl.line("%s := 0", acc)
	bl.line("for %s, %s := range %s {", k, v, m.name)
	inner := bl.child()
	inner.sc.add(&variable{name: k, t: kt, local: true, readOnly: true})
	inner.sc.add(&variable{name: v, t: vt, local: true, readOnly: true})
	saved := g.fn.noOrder
	g.fn.noOrder = true
	e := g.expr(inner, tInt, 1)
	g.fn.noOrder = saved
	inner.line("%s %s %s", acc, pickOf(g, []string{"+=", "^=", "-="}), e.text)
	if g.chance(30) {
		inner.line("%s++", acc)
	}
	if g.chance(20) && m.nonEmpty {
		g.use("delete-in-range")
		inner.line("delete(%s, %s)", m.name, k)
	}
	bl.b.WriteString(inner.close())
	bl.line("}")
	bl.line("fmt.Println(%q, %s, len(%s))", "fold", acc, m.name)
	bl.sc.add(&variable{name: acc, t: tInt, local: true, used: true})
	return true
}

// rangeChan fills a buffered channel, closes it and ranges over it.
func (g *gen) rangeChan(bl *block) bool {
	t := g.printableType()
	ch, x := g.name("ch"), g.name("x")
	n := 1 + g.pick(4)
	g.use("range-chan")
	bl.line("%s := make(chan %s, %d)", ch, t.name, n)
	for range n {
		bl.line("%s <- %s", ch, g.expr(bl, t, 1).text)
	}
	bl.line("close(%s)", ch)
	bl.line("for %s := range %s {", x, ch)
	inner := bl.child()
	inner.sc.add(&variable{name: x, t: t, local: true, used: true})
	g.repeat(n, func() { g.stmts(inner, 1+g.pick(2)) })
	inner.line("fmt.Println(%s)", x)
	bl.b.WriteString(inner.close())
	bl.line("}")
	bl.sc.add(&variable{name: ch, t: chanOf(t), local: true, used: true})
	return true
}

// rangeFunc ranges over an iterator function, sometimes leaving early.
func (g *gen) rangeFunc(bl *block) bool {
	if !g.on("", "range-func") {
		return false
	}
	t := g.printableType()
	seq, yield, x := g.name("seq"), g.name("yield"), g.name("x")
	n := 1 + g.pick(4)
	g.use("range-func")
	bl.line("%s := func(%s func(%s) bool) {", seq, yield, t.name)
	for range n {
		bl.line("\tif !%s(%s) {", yield, g.expr(bl, t, 1).text)
		bl.line("\t\treturn")
		bl.line("\t}")
	}
	bl.line("}")
	bl.line("for %s := range %s {", x, seq)
	inner := bl.child()
	inner.sc.add(&variable{name: x, t: t, local: true, used: true})
	inner.line("fmt.Println(%q, %s)", "yielded", x)
	if g.chance(40) {
		g.use("range-func-break")
		inner.line("if %s {", g.expr(inner, tBool, 1).text)
		inner.line("\tbreak")
		inner.line("}")
	}
	g.repeat(n, func() { g.stmts(inner, g.pick(2)) })
	bl.b.WriteString(inner.close())
	bl.line("}")
	bl.sc.add(&variable{name: seq, t: funcOf([]*typ{funcOf([]*typ{t}, tBool)}, nil), local: true, used: true})
	return true
}

// labelledLoops writes two nested loops whose inner one continues or
// breaks the outer one by its label.
func (g *gen) labelledLoops(bl *block) bool {
	g.fn.depth += 2
	g.fn.loops += 2
	defer func() { g.fn.depth -= 2; g.fn.loops -= 2 }()
	label := g.name("L")
	i, j := g.name("i"), g.name("j")
	n, m := 1+g.pick(4), 1+g.pick(4)
	g.use("labelled-break-continue")
	bl.line("%s:", label)
	bl.line("for %s := range %d {", i, n)
	outer := bl.child()
	outer.sc.add(&variable{name: i, t: tInt, readOnly: true, local: true})
	outer.line("for %s := 0; %s < %d; %s++ {", j, j, m, j)
	inner := outer.child()
	inner.sc.add(&variable{name: j, t: tInt, readOnly: true, local: true, used: true})
	inner.line("if %s {", g.expr(inner, tBool, 1).text)
	inner.line("\t%s %s", pickOf(g, []string{"continue", "break"}), label)
	inner.line("}")
	g.repeat(n*m, func() { g.stmts(inner, 1+g.pick(2)) })
	outer.b.WriteString(inner.close())
	outer.line("}")
	g.repeat(n, func() { g.stmts(outer, g.pick(2)) })
	bl.b.WriteString(outer.close())
	bl.line("}")
	return true
}
