package progen

// goroutines writes one of the concurrent patterns whose output does not
// depend on scheduling: results in per-goroutine slots, a pipeline with
// one sender, a mutex-guarded or atomic sum, results sorted after
// collection, a select with one ready case, an unbuffered hand-off.
func (g *gen) goroutines(bl *block) bool {
	g.importPkg("sync")
	switch g.pick(7) {
	case 0, 1:
		g.slots(bl)
	case 2:
		g.pipeline(bl)
	case 3:
		g.mutexSum(bl)
	case 4:
		g.collectSorted(bl)
	case 5:
		g.selectReady(bl)
	default:
		g.handoff(bl)
	}
	return true
}

// goExpr returns an expression evaluated on another goroutine: it reads
// i and what the block sees, and calls nothing that prints.
func (g *gen) goExpr(bl *block, i string, t *typ) string {
	inner := bl.child()
	inner.sc.add(&variable{name: i, t: tInt, local: true, used: true, readOnly: true})
	var e expr
	g.funcLitBody(true, func() { e = g.expr(inner, t, 1) })
	return e.text
}

func (g *gen) slots(bl *block) {
	t := g.printableType()
	wg, res, i := g.name("wg"), g.name("res"), g.name("i")
	n := 1 + g.pick(5)
	e := g.goExpr(bl, i, t)
	g.use("goroutine-waitgroup")
	bl.line("var %s sync.WaitGroup", wg)
	bl.line("%s := make([]%s, %d)", res, t.name, n)
	bl.line("for %s := range %d {", i, n)
	bl.line("\t%s.Add(1)", wg)
	bl.line("\tgo func() {")
	bl.line("\t\tdefer %s.Done()", wg)
	bl.line("\t\t%s[%s] = %s", res, i, e)
	bl.line("\t}()")
	bl.line("}")
	bl.line("%s.Wait()", wg)
	bl.line("fmt.Println(%s)", res)
	bl.sc.add(&variable{name: res, t: sliceOf(t), local: true, used: true, nonEmpty: true})
}

func (g *gen) pipeline(bl *block) {
	t := g.printableType()
	ch, i, x := g.name("ch"), g.name("i"), g.name("x")
	n := g.pick(5)
	e := g.goExpr(bl, i, t)
	g.use("goroutine-channel")
	buf := ""
	if g.chance(50) {
		buf = ", " + itoa(g.pick(3))
	}
	bl.line("%s := make(chan %s%s)", ch, t.name, buf)
	bl.line("go func() {")
	bl.line("\tdefer close(%s)", ch)
	bl.line("\t%s", rangeHead(i, e, n))
	bl.line("\t\t%s <- %s", ch, e)
	bl.line("\t}")
	bl.line("}()")
	bl.line("for %s := range %s {", x, ch)
	bl.line("\tfmt.Println(%q, %s)", "recv", x)
	bl.line("}")
}

func (g *gen) mutexSum(bl *block) {
	wg, mu, total, i := g.name("wg"), g.name("mu"), g.name("total"), g.name("i")
	n := 1 + g.pick(6)
	e := g.goExpr(bl, i, tInt)
	atomic := g.chance(40)
	g.use("goroutine-mutex")
	bl.line("var %s sync.WaitGroup", wg)
	if atomic {
		g.importPkg("sync/atomic")
		g.use("atomic")
		bl.line("var %s atomic.Int64", total)
	} else {
		bl.line("var %s sync.Mutex", mu)
		bl.line("%s := 0", total)
	}
	bl.line("%s", rangeHead(i, e, n))
	bl.line("\t%s.Add(1)", wg)
	bl.line("\tgo func() {")
	bl.line("\t\tdefer %s.Done()", wg)
	if atomic {
		bl.line("\t\t%s.Add(int64(%s))", total, e)
	} else {
		bl.line("\t\t%s.Lock()", mu)
		bl.line("\t\t%s += %s", total, e)
		bl.line("\t\t%s.Unlock()", mu)
	}
	bl.line("\t}()")
	bl.line("}")
	bl.line("%s.Wait()", wg)
	if atomic {
		bl.line("fmt.Println(%q, %s.Load())", "total", total)
		return
	}
	bl.line("fmt.Println(%q, %s)", "total", total)
	bl.sc.add(&variable{name: total, t: tInt, local: true, used: true})
}

func (g *gen) collectSorted(bl *block) {
	t := pickOf(g, []*typ{tInt, tString, tInt64, tFloat64})
	if t.kind == kString && !g.on("strings", "") {
		t = tInt
	}
	ch, i, out := g.name("ch"), g.name("i"), g.name("out")
	n := 1 + g.pick(5)
	e := g.goExpr(bl, i, t)
	g.importPkg("slices")
	g.use("goroutine-collect")
	bl.line("%s := make(chan %s, %d)", ch, t.name, n)
	bl.line("%s", rangeHead(i, e, n))
	bl.line("\tgo func() { %s <- %s }()", ch, e)
	bl.line("}")
	bl.line("var %s []%s", out, t.name)
	bl.line("for range %d {", n)
	bl.line("\t%s = append(%s, <-%s)", out, out, ch)
	bl.line("}")
	bl.line("slices.Sort(%s)", out)
	bl.line("fmt.Println(%s)", out)
	bl.sc.add(&variable{name: out, t: sliceOf(t), local: true, used: true})
}

// selectReady writes a select where exactly one case can proceed, or
// none and a default.
func (g *gen) selectReady(bl *block) {
	a, b := g.name("ca"), g.name("cb")
	t := g.printableType()
	g.use("select")
	bl.line("%s := make(chan %s, 1)", a, t.name)
	bl.line("%s := make(chan %s, 1)", b, t.name)
	ready := g.pick(3)
	switch ready {
	case 0:
		bl.line("%s <- %s", a, g.expr(bl, t, 1).text)
	case 1:
		bl.line("%s <- %s", b, g.expr(bl, t, 1).text)
	}
	x := g.name("x")
	bl.line("select {")
	bl.line("case %s := <-%s:", x, a)
	bl.line("\tfmt.Println(%q, %s)", "a", x)
	bl.line("case %s := <-%s:", x, b)
	bl.line("\tfmt.Println(%q, %s)", "b", x)
	if ready == 2 {
		g.use("select-default")
		bl.line("default:")
		bl.line("\tfmt.Println(%q)", "none ready")
	}
	bl.line("}")
	if ready == 2 {
		return
	}
	// Nothing ready now: the default runs.
	bl.line("select {")
	bl.line("case %s := <-%s:", x, a)
	bl.line("\tfmt.Println(%q, %s)", "again a", x)
	bl.line("default:")
	bl.line("\tfmt.Println(%q)", "empty")
	bl.line("}")
}

// handoff sends values over an unbuffered channel to a goroutine that
// prints them, and waits for it.
func (g *gen) handoff(bl *block) {
	t := g.printableType()
	ch, done, x := g.name("ch"), g.name("done"), g.name("x")
	g.use("goroutine-handoff")
	bl.line("%s := make(chan %s)", ch, t.name)
	bl.line("%s := make(chan struct{})", done)
	bl.line("go func() {")
	bl.line("\tfor %s := range %s {", x, ch)
	bl.line("\t\tfmt.Println(%q, %s)", "got", x)
	bl.line("\t}")
	bl.line("\tclose(%s)", done)
	bl.line("}()")
	for range 1 + g.pick(3) {
		bl.line("%s <- %s", ch, g.expr(bl, t, 1).text)
	}
	bl.line("close(%s)", ch)
	bl.line("<-%s", done)
}

// rangeHead writes "for i := range n {", without i when e does not use it.
func rangeHead(i, e string, n int) string {
	if mentions(e, i) {
		return "for " + i + " := range " + itoa(n) + " {"
	}
	return "for range " + itoa(n) + " {"
}
