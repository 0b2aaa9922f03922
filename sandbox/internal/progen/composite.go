package progen

import (
	"go/constant"
	"strings"
)

// composite returns an expression of a composite type t.
func (g *gen) composite(bl *block, t *typ, depth int) (expr, bool) {
	switch t.u().kind {
	case kSlice:
		return g.sliceExpr(bl, t, depth)
	case kArray:
		return g.elements(bl, t, depth, t.u().length), true
	case kMap:
		return g.mapExpr(bl, t, depth)
	case kStruct:
		return g.structLit(bl, t, depth), true
	case kPointer:
		return g.pointerExpr(bl, t, depth)
	case kFunc:
		return g.funcLit(bl, t, depth), true
	case kInterface:
		return g.ifaceValue(bl, t, depth)
	case kChan:
		g.use("chan")
		return expr{text: "make(" + t.name + ", " + itoa(1+g.pick(4)) + ")", t: t, nonEmpty: true}, true
	}
	if e, ok := g.literal(t); ok {
		return e, true
	}
	return expr{}, false
}

// elements writes a slice or array literal with up to n elements.
func (g *gen) elements(bl *block, t *typ, depth, n int) expr {
	var parts []string
	k := g.pick(n + 1)
	if t.u().kind == kSlice {
		k = g.pick(5)
	}
	keyed := t.u().kind == kArray && k > 0 && g.chance(20)
	for i := 0; i < k; i++ {
		e := g.expr(bl, t.u().elem, depth+1)
		if keyed {
			parts = append(parts, itoa(n-1-i)+": "+e.text)
			g.use("keyed-array-literal")
			continue
		}
		parts = append(parts, e.text)
	}
	g.use("composite-literal")
	return expr{text: t.name + "{" + strings.Join(parts, ", ") + "}", t: t, nonEmpty: k > 0 && t.u().kind == kSlice}
}

func (g *gen) sliceExpr(bl *block, t *typ, depth int) (expr, bool) {
	elem := t.u().elem
	switch g.pick(8) {
	case 0, 1, 2:
		return g.elements(bl, t, depth, 0), true
	case 3:
		g.use("make-slice")
		n := g.pick(4)
		if g.chance(50) {
			return expr{text: "make(" + t.name + ", " + itoa(n) + ", " + itoa(n+g.pick(5)) + ")", t: t, nonEmpty: n > 0}, true
		}
		return expr{text: "make(" + t.name + ", " + itoa(n) + ")", t: t, nonEmpty: n > 0}, true
	case 4:
		if depth >= maxDepth || g.fn != nil && g.fn.noOrder {
			return g.elements(bl, t, depth, 0), true
		}
		g.use("append")
		x := g.expr(bl, t, depth+1)
		e := g.expr(bl, elem, depth+1)
		return expr{text: "append(" + x.text + ", " + e.text + ")", t: t, nonEmpty: true}, true
	case 5:
		return g.reslice(bl, t)
	case 6:
		if t.isNamed() {
			return expr{}, false
		}
		if same(elem, tByte) || same(elem, tRune) {
			g.use("string-to-bytes-runes")
			s := g.expr(bl, tString, depth+1)
			return expr{text: t.name + "(" + s.text + ")", t: t, nonEmpty: s.nonEmpty}, true
		}
		if same(elem, tString) {
			g.importPkg("strings")
			g.use("strings-pkg")
			s := g.expr(bl, tString, depth+1)
			if g.chance(50) {
				return expr{text: "strings.Split(" + s.text + ", \",\")", t: t, nonEmpty: true}, true
			}
			return expr{text: "strings.Fields(" + s.text + ")", t: t}, true
		}
	}
	return g.elements(bl, t, depth, 0), true
}

// reslice slices a slice in scope at indices that are always in range.
func (g *gen) reslice(bl *block, t *typ) (expr, bool) {
	vs := bl.sc.lookup(func(v *variable) bool { return same(v.t, t) })
	if len(vs) == 0 {
		return expr{}, false
	}
	v := pickOf(g, vs)
	g.read(v)
	g.use("reslice")
	n := v.name
	lo, hi := "len("+n+")/"+itoa(2+g.pick(3)), "len("+n+")-len("+n+")/"+itoa(2+g.pick(3))
	switch g.pick(5) {
	case 0:
		return expr{text: n + "[" + lo + ":]", t: t}, true
	case 1:
		return expr{text: n + "[:" + hi + "]", t: t}, true
	case 2:
		g.use("full-slice-expr")
		return expr{text: n + "[" + lo + ":" + hi + ":" + hi + "]", t: t}, true
	case 3:
		g.use("reslice-to-cap")
		return expr{text: n + "[:cap(" + n + ")]", t: t, nonEmpty: v.nonEmpty}, true
	}
	return expr{text: n + "[" + lo + ":" + hi + "]", t: t}, true
}

func (g *gen) mapExpr(bl *block, t *typ, depth int) (expr, bool) {
	if g.chance(30) {
		g.use("make-map")
		return expr{text: "make(" + t.name + ")", t: t, nonEmpty: true}, true
	}
	u := t.u()
	var parts []string
	var keys []constant.Value
	for i := 0; i < g.pick(5); i++ {
		// Constant keys only: which of two equal non-constant keys wins
		// is up to the compiler, and two equal constants do not compile.
		k, ok := g.literal(u.key)
		if !ok || containsConst(keys, k.c) {
			continue
		}
		keys = append(keys, k.c)
		parts = append(parts, k.text+": "+g.expr(bl, u.elem, depth+1).text)
	}
	g.use("map-literal")
	return expr{text: t.name + "{" + strings.Join(parts, ", ") + "}", t: t, nonEmpty: true}, true
}

func (g *gen) structLit(bl *block, t *typ, depth int) expr {
	u := t.u()
	var parts []string
	positional := g.chance(30)
	for _, f := range u.fields {
		if !positional && g.chance(30) {
			continue
		}
		e := g.expr(bl, f.t, depth+1)
		if positional {
			parts = append(parts, e.text)
			continue
		}
		name := f.name
		if f.embedded {
			name = f.t.name
		}
		parts = append(parts, name+": "+e.text)
	}
	g.use("struct-literal")
	return expr{text: t.name + "{" + strings.Join(parts, ", ") + "}", t: t}
}

func (g *gen) pointerExpr(bl *block, t *typ, depth int) (expr, bool) {
	elem := t.elem
	if g.chance(50) {
		vs := bl.sc.lookup(func(v *variable) bool { return same(v.t, elem) })
		if len(vs) > 0 {
			v := pickOf(g, vs)
			g.read(v)
			g.use("address-of")
			return expr{text: "&" + v.name, t: t, nonEmpty: true}, true
		}
	}
	if elem.u().kind == kStruct {
		e := g.structLit(bl, elem, depth)
		g.use("address-of-literal")
		return expr{text: "&" + e.text, t: t, nonEmpty: true}, true
	}
	g.use("new")
	return expr{text: "new(" + elem.name + ")", t: t, nonEmpty: true}, true
}

// ifaceValue returns a value to store in an interface type: a printable
// value for any, a value of a type implementing a declared interface.
func (g *gen) ifaceValue(bl *block, t *typ, depth int) (expr, bool) {
	if len(t.u().methods) == 0 {
		vt := g.printableType()
		e := g.expr(bl, vt, depth+1)
		if e.untyped {
			e = typed(e)
		}
		return expr{text: e.text, t: t, nonEmpty: true}, true
	}
	var impl []*typ
	for _, nt := range g.types {
		if nt.implements(t) {
			impl = append(impl, nt)
		}
		if p := ptrTo(nt); p.implements(t) {
			impl = append(impl, p)
		}
	}
	if len(impl) == 0 {
		return expr{}, false
	}
	vt := pickOf(g, impl)
	g.use("interface-value")
	e := g.expr(bl, vt, depth+1)
	if vt.kind == kPointer && !e.nonEmpty {
		e, _ = g.pointerExpr(bl, vt, depth+1)
	}
	if e.untyped {
		e = typed(e)
	}
	return expr{text: e.text, t: t, nonEmpty: true}, true
}

// funcLit writes a function literal of type t whose body returns an
// expression over its parameters and what it captures.
func (g *gen) funcLit(bl *block, t *typ, depth int) expr {
	inner := bl.child()
	var params []string
	for _, p := range t.u().params {
		v := inner.sc.add(&variable{name: g.name("a"), t: p, local: true, used: true})
		params = append(params, v.name+" "+p.name)
	}
	text := "func(" + strings.Join(params, ", ") + ")"
	g.use("func-literal")
	if t.u().result == nil {
		return expr{text: text + " {}", t: t, nonEmpty: true}
	}
	var body expr
	if g.fn == nil {
		body = g.expr(inner, t.u().result, depth+1)
	} else {
		g.repeat(5, func() { // called for each element, perhaps
			g.funcLitBody(false, func() { body = g.expr(inner, t.u().result, depth+1) })
		})
	}
	return expr{text: text + " " + t.u().result.name + " { return " + body.text + " }", t: t, nonEmpty: true}
}
