package progen

import (
	"go/constant"
	"strings"
)

// declareTypes declares the program's named types and their methods.
func (g *gen) declareTypes() {
	if g.on("structs", "") {
		for range 1 + g.pick(3) {
			g.declareStruct()
		}
	}
	if g.on("methods", "") {
		for range 1 + g.pick(2) {
			g.declareNamedBasic()
		}
	}
	if g.on("interfaces", "") && len(g.types) > 0 {
		g.declareInterface()
	}
}

func (g *gen) declareStruct() {
	t := &typ{kind: kStruct, name: g.name("S")}
	u := &typ{kind: kStruct}
	var lines []string
	for i := range 1 + g.pick(4) {
		f := field{name: string(rune('a' + i)), t: g.fieldType()}
		if i > 0 && g.chance(15) {
			if emb := g.structTypes(); len(emb) > 0 && g.on("", "embedded-struct") {
				e := pickOf(g, emb)
				if !hasField(u, e.name) {
					f = field{name: e.name, t: e, embedded: true}
					g.use("embedded-struct")
					u.fields = append(u.fields, f)
					lines = append(lines, "\t"+e.name)
					continue
				}
			}
		}
		u.fields = append(u.fields, f)
		lines = append(lines, "\t"+f.name+" "+f.t.name)
	}
	t.under = u
	g.decls = append(g.decls, "type "+t.name+" struct {\n"+strings.Join(lines, "\n")+"\n}\n")
	g.types = append(g.types, t)
	if g.on("methods", "") {
		g.declareMethods(t)
	}
}

func hasField(u *typ, name string) bool {
	for _, f := range u.fields {
		if f.name == name {
			return true
		}
	}
	return false
}

// fieldType is a basic type, a slice of one, or an earlier named type.
func (g *gen) fieldType() *typ {
	switch n := g.pick(10); {
	case n < 6:
		return g.basicType()
	case n < 8 && g.on("slices", ""):
		return sliceOf(g.basicType())
	case len(g.types) > 0:
		return pickOf(g, g.types)
	}
	return g.basicType()
}

func (g *gen) structTypes() []*typ {
	var out []*typ
	for _, t := range g.types {
		if t.u().kind == kStruct {
			out = append(out, t)
		}
	}
	return out
}

// declareNamedBasic declares a named integer, float, string or slice type.
func (g *gen) declareNamedBasic() {
	var under *typ
	switch g.pick(5) {
	case 0, 1:
		under = pickOf(g, intTypes)
	case 2:
		under = tString
	case 3:
		under = tFloat64
	default:
		under = sliceOf(pickOf(g, []*typ{tInt, tString, tInt8}))
	}
	t := &typ{kind: under.kind, name: g.name("N"), under: under}
	g.decls = append(g.decls, "type "+t.name+" "+under.name+"\n")
	g.types = append(g.types, t)
	g.declareMethods(t)
}

// declareMethods gives t a getter with a value receiver, a mutator with a
// pointer receiver, and sometimes a String method.
func (g *gen) declareMethods(t *typ) {
	g.use("method-decl")
	for range 1 + g.pick(2) {
		g.declareMethod(t, g.chance(40))
	}
	if g.chance(40) && t.u().kind != kSlice {
		g.declareString(t)
	}
}

func (g *gen) declareMethod(t *typ, ptr bool) {
	recv := g.name("r")
	m := method{name: g.name("M"), ptr: ptr}
	bl := &block{indent: 1, sc: &scope{parent: g.globals}}
	rt := t
	if ptr {
		rt = ptrTo(t)
		g.use("pointer-receiver")
	}
	bl.sc.add(&variable{name: recv, t: rt, used: true, local: true})
	var params []string
	for range g.pick(2) {
		p := g.basicType()
		v := bl.sc.add(&variable{name: g.name("p"), t: p, used: true, local: true, readOnly: true})
		m.params = append(m.params, p)
		params = append(params, v.name+" "+p.name)
	}
	saved := g.fn
	g.fn = &fnCtx{noOrder: true, depth: 1}
	defer func() { g.fn = saved }()
	head := "func (" + recv + " " + rt.name + ") " + m.name + "(" + strings.Join(params, ", ") + ")"
	if ptr && t.u().kind == kStruct {
		// A mutator: assigns a field through the pointer, returns nothing.
		f := pickOf(g, t.u().fields)
		if f.embedded {
			g.decls = append(g.decls, head+" {}\n")
			t.methods = append(t.methods, m)
			return
		}
		e := g.expr(bl, f.t, 1)
		g.decls = append(g.decls, head+" {\n\t"+recv+"."+f.name+" = "+e.text+"\n}\n")
		t.methods = append(t.methods, m)
		return
	}
	m.result = g.basicType()
	e := g.expr(bl, m.result, 1)
	g.decls = append(g.decls, head+" "+m.result.name+" {\n\treturn "+e.text+"\n}\n")
	t.methods = append(t.methods, m)
}

// declareString gives t a String method, which fmt calls to print it.
func (g *gen) declareString(t *typ) {
	recv := g.name("r")
	var body string
	switch u := t.u(); u.kind {
	case kStruct:
		f := u.fields[0]
		if f.embedded || !f.t.printable() {
			return
		}
		body = `"<" + fmt.Sprint(` + recv + "." + f.name + `) + ">"`
	case kString:
		body = `"«" + string(` + recv + `) + "»"`
	case kInt:
		body = `fmt.Sprintf("#%d", ` + u.name + "(" + recv + "))"
	case kFloat:
		body = `fmt.Sprintf("~%.1f", float64(` + recv + "))"
	default:
		return
	}
	g.use("stringer")
	t.stringer = true
	t.methods = append(t.methods, method{name: "String", result: tString})
	g.decls = append(g.decls, "func ("+recv+" "+t.name+") String() string {\n\treturn "+body+"\n}\n")
}

// declareInterface declares an interface with some methods of a declared
// type, so that something implements it.
func (g *gen) declareInterface() {
	var withMethods []*typ
	for _, t := range g.types {
		if len(t.methods) > 0 {
			withMethods = append(withMethods, t)
		}
	}
	if len(withMethods) == 0 {
		return
	}
	from := pickOf(g, withMethods)
	it := &typ{kind: kInterface, name: g.name("I")}
	u := &typ{kind: kInterface}
	var lines []string
	for _, m := range from.methods {
		if len(u.methods) > 0 && g.chance(40) {
			continue
		}
		u.methods = append(u.methods, m)
		var ps []string
		for _, p := range m.params {
			ps = append(ps, p.name)
		}
		res := ""
		if m.result != nil {
			res = " " + m.result.name
		}
		lines = append(lines, "\t"+m.name+"("+strings.Join(ps, ", ")+")"+res)
	}
	it.under = u
	g.use("interface-decl")
	g.decls = append(g.decls, "type "+it.name+" interface {\n"+strings.Join(lines, "\n")+"\n}\n")
	g.ifaces = append(g.ifaces, it)
}

// declareConsts declares untyped and typed constants, and iota blocks.
func (g *gen) declareConsts() {
	if !g.on("consts", "") {
		return
	}
	bl := &block{sc: g.globals}
	for range 1 + g.pick(3) {
		t := g.basicType()
		e, ok := g.literal(t)
		if !ok {
			continue
		}
		// An expression over literals and earlier constants.
		if g.chance(60) {
			if x, ok := g.tryExpr(bl, t, 1); ok && x.isConst() && (t.u().kind != kBool || g.on("", "const-bool-expression")) {
				e = x
				if t.u().kind == kBool {
					g.use("const-bool-expression")
				}
			}
		}
		name := g.name("C")
		v := &variable{name: name, t: t, readOnly: true, c: e.c, untyped: e.untyped, isRune: e.isRune, nonEmpty: e.nonEmpty}
		if e.untyped && g.chance(50) {
			// Typed: the constant is a T.
			if !representable(e.c, t) {
				continue
			}
			g.decls = append(g.decls, "const "+name+" "+t.name+" = "+e.text+"\n")
			v.untyped = false
			g.use("typed-const")
		} else {
			if e.untyped {
				v.t = defaultType(e)
			}
			g.decls = append(g.decls, "const "+name+" = "+e.text+"\n")
			g.use("untyped-const")
		}
		g.globals.add(v)
	}
	if g.chance(50) {
		g.declareIota()
	}
}

// defaultType is the type an untyped constant takes in a := definition.
func defaultType(e expr) *typ {
	switch e.c.Kind() {
	case constant.Int:
		if e.isRune {
			return tRune
		}
		return tInt
	case constant.Float:
		return tFloat64
	case constant.String:
		return tString
	case constant.Bool:
		return tBool
	}
	return e.t
}

// declareIota declares an enumeration: a named integer type with iota
// constants, which programs print with %v and %d.
func (g *gen) declareIota() {
	t := &typ{kind: kInt, name: g.name("E"), under: pickOf(g, []*typ{tInt, tUint8, tInt64})}
	g.decls = append(g.decls, "type "+t.name+" "+t.under.name+"\n")
	g.types = append(g.types, t)
	n := 2 + g.pick(4)
	form := pickOf(g, []string{"iota", "iota + 1", "1 << iota", "iota * 10"})
	var lines []string
	for i := range n {
		name := g.name("K")
		var val int64
		switch form {
		case "iota":
			val = int64(i)
		case "iota + 1":
			val = int64(i + 1)
		case "1 << iota":
			val = int64(1) << i
		default:
			val = int64(i * 10)
		}
		if i == 0 {
			lines = append(lines, "\t"+name+" "+t.name+" = "+form)
		} else {
			lines = append(lines, "\t"+name)
		}
		g.globals.add(&variable{name: name, t: t, readOnly: true, c: constant.MakeInt64(val)})
	}
	g.use("iota")
	g.decls = append(g.decls, "const (\n"+strings.Join(lines, "\n")+"\n)\n")
	if g.chance(50) && g.on("methods", "") {
		g.declareString(t)
	}
}

// declareGlobals declares package-level variables with initial values
// that call nothing that prints.
func (g *gen) declareGlobals() {
	bl := &block{sc: g.globals}
	saved := g.fn
	g.fn = &fnCtx{noOrder: true}
	defer func() { g.fn = saved }()
	for range g.pick(4) {
		t := g.randType(0)
		name := g.name("g")
		if g.chance(25) {
			g.decls = append(g.decls, "var "+name+" "+t.name+"\n")
			g.globals.add(&variable{name: name, t: t})
			g.use("global-zero")
			continue
		}
		e := g.expr(bl, t, 1)
		g.decls = append(g.decls, "var "+name+" "+t.name+" = "+e.text+"\n")
		g.globals.add(&variable{name: name, t: t, nonEmpty: e.nonEmpty})
		g.use("global")
	}
}
