package progen

import "strings"

// declareFuncs declares the program's functions. Each may call only the
// functions declared before it, so every call terminates; a recursive
// function recurses on a decreasing bound.
func (g *gen) declareFuncs() {
	n := 1 + g.pick(4)
	for range n {
		if g.budget <= 10 {
			break
		}
		switch {
		case g.chance(15):
			g.declareRecursive()
		default:
			g.declareFunc()
		}
	}
}

// declareFunc declares a function with parameters, zero to two results
// (sometimes named), a body, and sometimes a deferred call that changes a
// named result.
func (g *gen) declareFunc() {
	f := &fn{name: g.name("f")}
	bl := &block{indent: 1, sc: &scope{parent: g.globals}}
	var params []string
	for range g.pick(4) {
		t := g.randType(1)
		v := bl.sc.add(&variable{name: g.name("p"), t: t, local: true, used: true})
		f.params = append(f.params, t)
		params = append(params, v.name+" "+t.name)
	}
	for range g.pick(3) {
		f.results = append(f.results, g.randType(1))
	}
	ctx := &fnCtx{results: f.results}
	named := len(f.results) > 0 && g.chance(35) && g.on("", "named-result")
	var res string
	switch {
	case named:
		g.use("named-result")
		var rs []string
		for _, t := range f.results {
			v := bl.sc.add(&variable{name: g.name("res"), t: t, local: true, used: true})
			ctx.named = append(ctx.named, v)
			rs = append(rs, v.name+" "+t.name)
		}
		res = " (" + strings.Join(rs, ", ") + ")"
	case len(f.results) == 1:
		res = " " + f.results[0].name
	case len(f.results) == 2:
		res = " (" + f.results[0].name + ", " + f.results[1].name + ")"
	}
	saved := g.fn
	g.fn = ctx
	defer func() { g.fn = saved }()
	if named && g.on("defer", "") && g.chance(50) {
		g.deferOnResult(bl, ctx)
	}
	g.stmts(bl, 2+g.pick(5))
	bl.flushUnused()
	g.ret(bl, ctx)
	text := "func " + f.name + "(" + strings.Join(params, ", ") + ")" + res + " {\n" + bl.b.String() + "}\n"
	g.decls = append(g.decls, text)
	f.cost = ctx.cost
	g.funcs = append(g.funcs, f)
}

// ret writes the final return: naked for named results (which may not
// have been assigned on every path: they start at zero on each call).
func (g *gen) ret(bl *block, ctx *fnCtx) {
	if len(ctx.results) == 0 {
		return
	}
	if len(ctx.named) > 0 {
		if g.chance(50) {
			// Assign a named result on one path only.
			v := pickOf(g, ctx.named)
			if g.on("", "named-result-partial") {
				g.use("named-result-partial")
				bl.line("if %s {", g.expr(bl, tBool, 1).text)
				bl.line("\t%s = %s", v.name, g.expr(bl, v.t, 1).text)
				bl.line("}")
			} else {
				bl.line("%s = %s", v.name, g.expr(bl, v.t, 1).text)
			}
		}
		g.use("naked-return")
		bl.line("return")
		return
	}
	var es []string
	for _, t := range ctx.results {
		es = append(es, g.expr(bl, t, 1).text)
	}
	bl.line("return %s", strings.Join(es, ", "))
}

// deferOnResult defers a call that changes a named result after the
// return statement set it.
func (g *gen) deferOnResult(bl *block, ctx *fnCtx) {
	var ints []*variable
	for _, v := range ctx.named {
		if v.t.u().kind == kInt || v.t.u().kind == kString {
			ints = append(ints, v)
		}
	}
	if len(ints) == 0 {
		return
	}
	v := pickOf(g, ints)
	g.use("defer-named-result")
	bl.line("defer func() {")
	if v.t.u().kind == kString {
		bl.line("\t%s += %q", v.name, "!")
	} else {
		bl.line("\t%s *= 2", v.name)
	}
	bl.line("}()")
}

// declareRecursive declares func rN(n int, acc T) T, which recurses
// until n reaches zero.
func (g *gen) declareRecursive() {
	t := pickOf(g, []*typ{tInt, tInt64, tString, tUint8})
	if t.kind == kString && !g.on("strings", "") {
		t = tInt
	}
	name := g.name("rec")
	n, acc := g.name("n"), g.name("acc")
	bl := &block{indent: 1, sc: &scope{parent: g.globals}}
	bl.sc.add(&variable{name: n, t: tInt, local: true, used: true, readOnly: true})
	bl.sc.add(&variable{name: acc, t: t, local: true, used: true})
	saved := g.fn
	g.fn = &fnCtx{results: []*typ{t}, noOrder: true, depth: 1}
	step := g.expr(bl, t, 1)
	g.fn = saved
	g.use("recursion")
	if t.kind == kString {
		step.text = "string(" + acc + "[len(" + acc + ")/2:]) + " + `"x"`
	}
	text := "func " + name + "(" + n + " int, " + acc + " " + t.name + ") " + t.name + " {\n" +
		"\tif " + n + " <= 0 || " + n + " > 12 {\n\t\treturn " + acc + "\n\t}\n" +
		"\treturn " + name + "(" + n + "-1, " + step.text + ")\n}\n"
	g.decls = append(g.decls, text)
	g.funcs = append(g.funcs, &fn{name: name, params: []*typ{tInt, t}, results: []*typ{t}, cost: 12})
}

// mainBody writes main's statements and its ending.
func (g *gen) mainBody() string {
	bl := &block{indent: 1, sc: &scope{parent: g.globals}}
	g.fn = &fnCtx{isMain: true}
	for g.budget > 0 {
		g.budget--
		g.stmt(bl)
	}
	g.ending(bl)
	return bl.close()
}
