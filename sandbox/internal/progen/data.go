package progen

// sliceStmt appends, copies, assigns elements, aliases or sorts a slice.
func (g *gen) sliceStmt(bl *block) bool {
	vs := g.assignable(bl, func(v *variable) bool { return v.t.u().kind == kSlice })
	if len(vs) == 0 {
		return false
	}
	v := pickOf(g, vs)
	elem := v.t.u().elem
	if !g.sliceOp(bl, v, elem) {
		return false
	}
	g.read(v)
	return true
}

// sliceOp writes one operation on slice v; false when it cannot.
func (g *gen) sliceOp(bl *block, v *variable, elem *typ) bool {
	switch g.pick(7) {
	case 0, 1:
		g.use("append")
		bl.line("%s = append(%s, %s)", v.name, v.name, g.expr(bl, elem, 1).text)
		if g.chance(30) && g.on("", "append-cap-growth") {
			g.use("append-cap-growth")
			bl.line("fmt.Println(len(%s), cap(%s))", v.name, v.name)
		}
	case 2:
		if g.fn.loops > 0 {
			return false
		}
		g.use("append-spread")
		other := g.expr(bl, v.t, 1)
		bl.line("%s = append(%s, %s...)", v.name, v.name, other.text)
	case 3:
		n, dst := g.name("n"), g.name("dst")
		g.use("copy")
		bl.line("%s := make(%s, %d)", dst, v.t.name, g.pick(4))
		bl.line("%s := copy(%s, %s)", n, dst, v.name)
		bl.line("fmt.Println(%s, %s)", n, printIf(dst, v.t))
	case 4:
		if !v.nonEmpty {
			return false
		}
		g.use("slice-index-assign")
		bl.line("%s[%s] = %s", v.name, g.index(bl, v.name, 1), g.expr(bl, elem, 1).text)
	case 5:
		// A slice of v shares its array until an append outgrows it.
		if !v.t.printable() || !g.on("", "slice-alias") {
			return false
		}
		w := g.name("w")
		g.use("slice-alias")
		bl.line("%s := %s[:len(%s)/2]", w, v.name, v.name)
		bl.line("%s = append(%s, %s)", w, w, g.expr(bl, elem, 1).text)
		bl.line("fmt.Println(%s, %s, len(%s))", v.name, w, w)
		bl.sc.add(&variable{name: w, t: v.t, local: true, used: true, nonEmpty: true})
	default:
		if !elem.ordered() || elem.isNamed() && !g.on("", "") {
			return false
		}
		g.importPkg("slices")
		g.use("slices-pkg")
		switch g.pick(3) {
		case 0:
			bl.line("slices.Sort(%s)", v.name)
		case 1:
			bl.line("slices.Reverse(%s)", v.name)
		default:
			bl.line("fmt.Println(slices.Contains(%s, %s), slices.Index(%s, %s))", v.name, g.expr(bl, elem, 1).text, v.name, g.expr(bl, elem, 1).text)
		}
	}
	return true
}

// printIf names a value to print, or its length when it would print
// addresses.
func printIf(name string, t *typ) string {
	if t.printable() {
		return name
	}
	return "len(" + name + ")"
}

// mapStmt writes, deletes, reads with comma-ok or counts in a map.
func (g *gen) mapStmt(bl *block) bool {
	vs := bl.sc.lookup(func(v *variable) bool { return v.t.u().kind == kMap && v.nonEmpty })
	if len(vs) == 0 {
		return false
	}
	m := pickOf(g, vs)
	u := m.t.u()
	switch g.pick(5) {
	case 0, 1:
		g.use("map-assign")
		bl.line("%s[%s] = %s", m.name, g.expr(bl, u.key, 1).text, g.expr(bl, u.elem, 1).text)
	case 2:
		g.use("map-delete")
		bl.line("delete(%s, %s)", m.name, g.expr(bl, u.key, 1).text)
	case 3:
		val, ok := g.name("v"), g.name("ok")
		g.use("map-comma-ok")
		bl.line("%s, %s := %s[%s]", val, ok, m.name, g.expr(bl, u.key, 1).text)
		bl.line("fmt.Println(%s, %s)", printIf(val, u.elem), ok)
		bl.sc.add(&variable{name: val, t: u.elem, local: true, used: true})
		bl.sc.add(&variable{name: ok, t: tBool, local: true, used: true})
	default:
		if u.elem.u().kind != kInt {
			return false
		}
		g.use("map-inc")
		bl.line("%s[%s]++", m.name, g.expr(bl, u.key, 1).text)
	}
	g.read(m)
	return true
}

// structStmt assigns fields, copies structs, takes pointers, calls
// mutators, and stores values in interfaces.
func (g *gen) structStmt(bl *block) bool {
	vs := g.assignable(bl, func(v *variable) bool { return v.t.isNamed() && v.t.u().kind == kStruct })
	if len(vs) == 0 {
		return false
	}
	v := pickOf(g, vs)
	fields := promoted(v.t.u())
	f := pickOf(g, fields)
	if !g.structOp(bl, v, f) {
		return false
	}
	g.read(v)
	return true
}

// structOp writes one operation on struct variable v and its field f.
func (g *gen) structOp(bl *block, v *variable, f field) bool {
	switch g.pick(5) {
	case 0, 1:
		g.use("field-assign")
		bl.line("%s.%s = %s", v.name, f.name, g.expr(bl, f.t, 1).text)
	case 2:
		if !v.t.printable() {
			return false
		}
		c := g.name("c")
		g.use("struct-copy")
		bl.line("%s := %s", c, v.name)
		bl.line("%s.%s = %s", c, f.name, g.expr(bl, f.t, 1).text)
		bl.line("fmt.Println(%s, %s)", v.name, c)
		if v.t.comparable() {
			bl.line("fmt.Println(%s == %s)", v.name, c)
		}
		bl.sc.add(&variable{name: c, t: v.t, local: true, used: true})
	case 3:
		p := g.name("p")
		g.use("pointer-alias")
		bl.line("%s := &%s", p, v.name)
		bl.line("%s.%s = %s", p, f.name, g.expr(bl, f.t, 1).text)
		if f.t.printable() {
			bl.line("fmt.Println(%s.%s)", v.name, f.name)
		}
		bl.sc.add(&variable{name: p, t: ptrTo(v.t), local: true, used: true, nonEmpty: true})
	default:
		return g.ifaceCopy(bl, v, f)
	}
	return true
}

// mutatorCall calls a method without result (a pointer receiver's
// mutator) on an addressable variable, then prints the variable.
func (g *gen) mutatorCall(bl *block) bool {
	vs := g.assignable(bl, func(v *variable) bool { return v.t.isNamed() })
	for _, v := range vs {
		for _, m := range v.t.methodSet(true) {
			if m.result != nil {
				continue
			}
			g.read(v)
			g.use("mutator-call")
			bl.line("%s.%s(%s)", v.name, m.name, g.args(bl, m.params, 1))
			if v.t.printable() {
				bl.line("fmt.Println(%s)", v.name)
			}
			return true
		}
	}
	return false
}

// ifaceCopy stores a struct in an interface, changes the struct, and
// calls the interface's method: the interface holds a copy.
func (g *gen) ifaceCopy(bl *block, v *variable, f field) bool {
	for _, it := range g.ifaces {
		if !v.t.implements(it) || !g.on("", "iface-holds-copy") {
			continue
		}
		var m *method
		for i := range it.u().methods {
			if it.u().methods[i].result != nil && it.u().methods[i].result.printable() {
				m = &it.u().methods[i]
			}
		}
		if m == nil {
			return false
		}
		i := g.name("i")
		g.use("iface-holds-copy")
		bl.line("var %s %s = %s", i, it.name, v.name)
		bl.line("%s.%s = %s", v.name, f.name, g.expr(bl, f.t, 1).text)
		bl.line("fmt.Println(%s.%s(%s))", i, m.name, g.args(bl, m.params, 1))
		bl.sc.add(&variable{name: i, t: it, local: true, used: true, nonEmpty: true})
		return true
	}
	return false
}

// callStmt calls a function of the program for its effects, or one with
// two results.
func (g *gen) callStmt(bl *block) bool {
	if len(g.funcs) == 0 {
		return false
	}
	f := pickOf(g, g.funcs)
	if !g.affordable(f) {
		return false
	}
	g.charge(f)
	call := f.name + "(" + g.args(bl, f.params, 1) + ")"
	g.use("call")
	switch len(f.results) {
	case 0:
		bl.line("%s", call)
	case 2:
		a, b := g.name("v"), g.name("v")
		g.use("multi-value")
		bl.line("%s, %s := %s", a, b, call)
		bl.sc.add(&variable{name: a, t: f.results[0], local: true})
		bl.sc.add(&variable{name: b, t: f.results[1], local: true})
	default:
		if !f.results[0].printable() {
			bl.line("_ = %s", call)
			return true
		}
		bl.line("fmt.Println(%s)", call)
	}
	return true
}

// closureStmt writes closures: a counter over a captured variable, a
// closure per loop iteration (each captures its own iteration's
// variable), an immediately called literal with deferred prints, or a
// method value.
func (g *gen) closureStmt(bl *block) bool {
	switch g.pick(4) {
	case 0:
		c, inc := g.name("c"), g.name("inc")
		t := pickOf(g, []*typ{tInt, tInt8, tUint16})
		g.use("closure-counter")
		bl.line("%s := %s(0)", c, t.name)
		bl.line("%s := func() %s {", inc, t.name)
		bl.line("\t%s += %s", c, g.expr(bl, t, 2).text)
		bl.line("\treturn %s", c)
		bl.line("}")
		first := g.name("n")
		bl.line("%s := %s()", first, inc)
		bl.line("fmt.Println(%s, %s())", first, inc)
		bl.line("fmt.Println(%s)", c)
		bl.sc.add(&variable{name: first, t: t, local: true, used: true})
		bl.sc.add(&variable{name: c, t: t, local: true, used: true})
		// inc stays out of scope: a call of it in an expression that also
		// reads c would depend on the order Go leaves unspecified.
	case 1:
		if !g.on("", "loopvar-capture") {
			return false
		}
		fs, i := g.name("fs"), g.name("i")
		g.use("loopvar-capture")
		bl.line("var %s []func() int", fs)
		bl.line("for %s := 0; %s < %d; %s++ {", i, i, 1+g.pick(4), i)
		bl.line("\t%s = append(%s, func() int { return %s * %d })", fs, fs, i, 1+g.pick(5))
		bl.line("}")
		f := g.name("f")
		bl.line("for _, %s := range %s {", f, fs)
		bl.line("\tfmt.Print(%s(), \" \")", f)
		bl.line("}")
		bl.line("fmt.Println()")
	case 2:
		g.use("defer-order")
		bl.line("func() {")
		for k := range 1 + g.pick(3) {
			bl.line("\tdefer fmt.Println(%q, %s)", "deferred", itoa(k))
		}
		inner := bl.child()
		g.funcLitBody(false, func() { g.stmts(inner, 1+g.pick(2)) })
		bl.b.WriteString(inner.close())
		bl.line("}()")
	default:
		return g.methodValue(bl)
	}
	return true
}

// methodValue binds a method to a value, or calls a method expression.
func (g *gen) methodValue(bl *block) bool {
	vs := bl.sc.lookup(func(v *variable) bool { return v.t.isNamed() && len(v.t.methodSet(false)) > 0 })
	if len(vs) == 0 {
		return false
	}
	v := pickOf(g, vs)
	var ms []method
	for _, m := range v.t.methodSet(false) {
		if m.result != nil && m.result.printable() {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return false
	}
	m := pickOf(g, ms)
	g.read(v)
	if g.chance(50) {
		f := g.name("mv")
		g.use("method-value")
		bl.line("%s := %s.%s", f, v.name, m.name)
		bl.line("fmt.Println(%s(%s))", f, g.args(bl, m.params, 1))
		bl.sc.add(&variable{name: f, t: funcOf(m.params, m.result), local: true, used: true, nonEmpty: true})
		return true
	}
	if !g.on("", "method-expression") {
		return false
	}
	g.use("method-expression")
	args := g.args(bl, m.params, 1)
	if args != "" {
		args = ", " + args
	}
	bl.line("fmt.Println(%s.%s(%s%s))", v.t.name, m.name, v.name, args)
	return true
}
