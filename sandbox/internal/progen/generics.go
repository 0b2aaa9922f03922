package progen

// genericSet names the generic declarations of a program ("" when not
// declared).
type genericSet struct {
	mapFn, filter, sum, number, max, reduce, stack, pair string
}

// declareGenerics declares some generic functions and types the way users
// write them: map, filter and reduce over slices, a sum over a numeric
// constraint, a maximum over cmp.Ordered, a stack and a pair.
func (g *gen) declareGenerics() {
	if !g.on("generics", "") {
		return
	}
	gs := &g.generic
	if g.chance(60) {
		gs.mapFn = g.name("Map")
		g.decls = append(g.decls, "func "+gs.mapFn+"[T, U any](xs []T, f func(T) U) []U {\n"+
			"\tout := make([]U, 0, len(xs))\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\n")
	}
	if g.chance(50) {
		gs.filter = g.name("Filter")
		g.decls = append(g.decls, "func "+gs.filter+"[T any](xs []T, keep func(T) bool) []T {\n"+
			"\tvar out []T\n\tfor _, x := range xs {\n\t\tif keep(x) {\n\t\t\tout = append(out, x)\n\t\t}\n\t}\n\treturn out\n}\n")
	}
	if g.chance(50) {
		gs.number = g.name("Number")
		gs.sum = g.name("Sum")
		g.decls = append(g.decls, "type "+gs.number+" interface {\n\t~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64\n}\n",
			"func "+gs.sum+"[T "+gs.number+"](xs ...T) T {\n\tvar s T\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n")
	}
	if g.chance(50) {
		gs.max = g.name("Max")
		g.importPkg("cmp")
		g.decls = append(g.decls, "func "+gs.max+"[T cmp.Ordered](a, b T) T {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n")
	}
	if g.chance(40) {
		gs.reduce = g.name("Reduce")
		g.decls = append(g.decls, "func "+gs.reduce+"[T, A any](xs []T, init A, f func(A, T) A) A {\n"+
			"\tacc := init\n\tfor _, x := range xs {\n\t\tacc = f(acc, x)\n\t}\n\treturn acc\n}\n")
	}
	if g.chance(40) {
		gs.stack = g.name("Stack")
		s := gs.stack
		g.decls = append(g.decls, "type "+s+"[T any] struct {\n\titems []T\n}\n",
			"func (s *"+s+"[T]) Push(v T) {\n\ts.items = append(s.items, v)\n}\n",
			"func (s *"+s+"[T]) Pop() (T, bool) {\n\tvar zero T\n\tif len(s.items) == 0 {\n\t\treturn zero, false\n\t}\n"+
				"\tv := s.items[len(s.items)-1]\n\ts.items = s.items[:len(s.items)-1]\n\treturn v, true\n}\n",
			"func (s "+s+"[T]) Len() int {\n\treturn len(s.items)\n}\n")
	}
	if g.chance(30) {
		gs.pair = g.name("Pair")
		g.decls = append(g.decls, "type "+gs.pair+"[K comparable, V any] struct {\n\tKey K\n\tVal V\n}\n",
			"func (p "+gs.pair+"[K, V]) String() string {\n\treturn fmt.Sprintf(\"%v=%v\", p.Key, p.Val)\n}\n")
	}
}

// genericCalls returns ways to call a generic function with result type t.
func (g *gen) genericCalls(bl *block, t *typ, depth int) []func() (expr, bool) {
	gs := &g.generic
	u := t.u()
	var cands []func() (expr, bool)
	if gs.mapFn != "" && u.kind == kSlice && !t.isNamed() {
		cands = append(cands, func() (expr, bool) {
			from := g.basicType()
			xs := g.expr(bl, sliceOf(from), depth+1)
			f := g.funcLit(bl, funcOf([]*typ{from}, u.elem), depth+1)
			g.use("generic-call")
			inst := ""
			if g.chance(30) {
				inst = "[" + from.name + ", " + u.elem.name + "]"
				g.use("generic-explicit")
			}
			return expr{text: gs.mapFn + inst + "(" + xs.text + ", " + f.text + ")", t: t}, true
		})
	}
	if gs.filter != "" && u.kind == kSlice && !t.isNamed() {
		cands = append(cands, func() (expr, bool) {
			xs := g.expr(bl, t, depth+1)
			f := g.funcLit(bl, funcOf([]*typ{u.elem}, tBool), depth+1)
			g.use("generic-call")
			return expr{text: gs.filter + "(" + xs.text + ", " + f.text + ")", t: t}, true
		})
	}
	if gs.sum != "" && (u.kind == kInt || u.kind == kFloat) {
		cands = append(cands, func() (expr, bool) {
			var args []string
			for range 1 + g.pick(3) {
				args = append(args, typed(g.expr(bl, t, depth+1)).text)
			}
			g.use("generic-constraint")
			return expr{text: gs.sum + "(" + joinStrings(args) + ")", t: t}, true
		})
	}
	if gs.max != "" && t.ordered() {
		cands = append(cands, func() (expr, bool) {
			a, b := typed(g.expr(bl, t, depth+1)), g.expr(bl, t, depth+1)
			g.use("generic-ordered")
			return expr{text: gs.max + "(" + a.text + ", " + b.text + ")", t: t}, true
		})
	}
	if gs.reduce != "" && !g.fn.noOrder {
		cands = append(cands, func() (expr, bool) {
			from := g.basicType()
			xs := g.expr(bl, sliceOf(from), depth+1)
			init := g.expr(bl, t, depth+1)
			if init.untyped {
				init = typed(init)
			}
			f := g.funcLit(bl, funcOf([]*typ{t, from}, t), depth+1)
			g.use("generic-call")
			return expr{text: gs.reduce + "(" + xs.text + ", " + init.text + ", " + f.text + ")", t: t}, true
		})
	}
	return cands
}

func joinStrings(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// genericStmt uses the generic types: pushes and pops a stack, prints a
// pair through its String method.
func (g *gen) genericStmt(bl *block) bool {
	gs := &g.generic
	switch {
	case gs.stack != "" && g.chance(60):
		t := g.printableType()
		s := g.name("st")
		g.use("generic-type")
		bl.line("var %s %s[%s]", s, gs.stack, t.name)
		for range 1 + g.pick(3) {
			bl.line("%s.Push(%s)", s, g.expr(bl, t, 1).text)
		}
		v, ok := g.name("v"), g.name("ok")
		bl.line("%s, %s := %s.Pop()", v, ok, s)
		bl.line("fmt.Println(%s, %s, %s.Len())", v, ok, s)
		return true
	case gs.pair != "":
		k, v := g.keyType(), g.printableType()
		g.use("generic-type")
		bl.line("fmt.Println(%s[%s, %s]{%s, %s})", gs.pair, k.name, v.name, g.expr(bl, k, 1).text, g.expr(bl, v, 1).text)
		return true
	}
	return false
}
