package progen

import "strings"

// callOf returns a call whose single result has type t: a function of
// the program, a func value in scope, a method, or a generic function.
func (g *gen) callOf(bl *block, t *typ, depth int) (expr, bool) {
	var cands []func() (expr, bool)
	pure := g.fn != nil && g.fn.noOrder
	for _, f := range g.funcs {
		if len(f.results) == 1 && same(f.results[0], t) && !pure && g.affordable(f) {
			cands = append(cands, func() (expr, bool) {
				g.use("call")
				g.charge(f)
				return expr{text: f.name + "(" + g.args(bl, f.params, depth) + ")", t: t}, true
			})
		}
	}
	for _, v := range bl.sc.lookup(func(v *variable) bool {
		return !pure && v.nonEmpty && v.t.u().kind == kFunc && v.t.u().result != nil && same(v.t.u().result, t)
	}) {
		cands = append(cands, func() (expr, bool) {
			g.read(v)
			g.use("call-func-value")
			return expr{text: v.name + "(" + g.args(bl, v.t.u().params, depth) + ")", t: t}, true
		})
	}
	for _, v := range bl.sc.lookup(func(v *variable) bool {
		k := v.t.u().kind
		return (v.nonEmpty || k != kPointer && k != kInterface) && len(v.t.methodSet(v.c == nil)) > 0
	}) {
		for _, m := range v.t.methodSet(v.c == nil) {
			if m.result == nil || !same(m.result, t) {
				continue
			}
			cands = append(cands, func() (expr, bool) {
				g.read(v)
				g.use("method-call")
				if v.t.u().kind == kInterface {
					g.use("interface-method-call")
				}
				return expr{text: v.name + "." + m.name + "(" + g.args(bl, m.params, depth) + ")", t: t}, true
			})
		}
	}
	cands = append(cands, g.genericCalls(bl, t, depth)...)
	if len(cands) == 0 {
		return expr{}, false
	}
	return pickOf(g, cands)()
}

// args writes arguments for parameters of the given types.
func (g *gen) args(bl *block, params []*typ, depth int) string {
	var as []string
	for _, p := range params {
		as = append(as, g.expr(bl, p, depth+1).text)
	}
	return strings.Join(as, ", ")
}

// selectorOf reads a field, an element or a map entry of type t.
func (g *gen) selectorOf(bl *block, t *typ, depth int) (expr, bool) {
	var cands []func() (expr, bool)
	for _, v := range bl.sc.lookup(func(v *variable) bool { return true }) {
		u := v.t.u()
		if u.kind == kPointer && u.elem.u().kind == kStruct {
			if !v.nonEmpty {
				continue
			}
			u = u.elem.u()
		}
		switch u.kind {
		case kStruct:
			for _, f := range promoted(u) {
				if same(f.t, t) {
					cands = append(cands, func() (expr, bool) {
						g.read(v)
						g.use("field")
						if f.embedded {
							g.use("promoted-field")
						}
						return expr{text: v.name + "." + f.name, t: t}, true
					})
				}
			}
		case kArray:
			if same(u.elem, t) {
				cands = append(cands, func() (expr, bool) {
					g.read(v)
					g.use("array-index")
					return expr{text: v.name + "[" + g.arrayIndex(bl, u.length, depth) + "]", t: t}, true
				})
			}
		case kSlice:
			if same(u.elem, t) && v.nonEmpty {
				cands = append(cands, func() (expr, bool) {
					g.read(v)
					g.use("slice-index")
					return expr{text: v.name + "[" + g.index(bl, v.name, depth) + "]", t: t}, true
				})
			}
		case kMap:
			if same(u.elem, t) {
				cands = append(cands, func() (expr, bool) {
					g.read(v)
					g.use("map-index")
					return expr{text: v.name + "[" + g.expr(bl, u.key, depth+1).text + "]", t: t}, true
				})
			}
		}
	}
	if len(cands) == 0 {
		return expr{}, false
	}
	return pickOf(g, cands)()
}

// promoted returns the fields a selector reaches on a struct: its own,
// and those of its embedded structs (one level) that neither its own
// fields nor another embedded struct's at the same depth shadow or make
// ambiguous.
func promoted(u *typ) []field {
	var fs []field
	own := map[string]bool{}
	for _, f := range u.fields {
		fs = append(fs, f)
		own[f.name] = true
	}
	count := map[string]int{}
	for _, f := range u.fields {
		if f.embedded && f.t.u().kind == kStruct {
			for _, inner := range f.t.u().fields {
				count[inner.name]++
			}
		}
	}
	for _, f := range u.fields {
		if !f.embedded || f.t.u().kind != kStruct {
			continue
		}
		for _, inner := range f.t.u().fields {
			if !own[inner.name] && count[inner.name] == 1 {
				fs = append(fs, field{name: inner.name, t: inner.t, embedded: true})
			}
		}
	}
	return fs
}

// arrayIndex returns an index into an array of length n: a constant, or
// an expression reduced modulo n.
func (g *gen) arrayIndex(bl *block, n, depth int) string {
	if g.chance(60) {
		return itoa(g.pick(n))
	}
	x, ok := g.nonConst(bl, pickOf(g, []*typ{tInt, tUint8, tInt16}), depth+1)
	if !ok {
		return "0"
	}
	return "uint(" + x.text + ")%" + itoa(n)
}
