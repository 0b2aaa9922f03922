package interp

import (
	"reflect"
	"strings"
	"sync/atomic"
)

// adot produces an AST dot(1) directed acyclic graph for the given node. For debugging only.
// func (n *node) adot() { n.astDot(dotWriter(n.interp.dotCmd), n.ident) }

// genAST returns a new AST where generic types are replaced by instantiated types.
func genAST(sc *scope, root *node, types []*itype) (*node, bool, error) {
	typeParam := map[string]*node{}
	pindex := 0
	tname := ""
	rtname := ""
	recvrPtr := false
	fixNodes := []*node{}
	var gtree func(*node, *node) (*node, error)
	sname := root.child[0].ident + "["
	if root.kind == funcDecl {
		sname = root.child[1].ident + "["
	}

	// Input type parameters must be resolved prior AST generation, as compilation
	// of generated AST may occur in a different scope.
	for _, t := range types {
		sname += t.id() + ","
	}
	sname = strings.TrimSuffix(sname, ",") + "]"

	gtree = func(n, anc *node) (*node, error) {
		nod := copyNode(n, anc, false)
		switch n.kind {
		case funcDecl, funcType:
			nod.val = nod

		case identExpr:
			// Replace generic type by instantiated one.
			nt, ok := typeParam[n.ident]
			if !ok {
				break
			}
			nod = copyNode(nt, anc, true)
			nod.typ = nt.typ

		case indexExpr, indexListExpr: // sbir patch 8g: indexListExpr too
			// Catch a possible recursive generic type definition
			if root.kind != typeSpec {
				break
			}
			if root.child[0].ident != n.child[0].ident {
				break
			}
			nod := copyNode(n.child[0], anc, false)
			fixNodes = append(fixNodes, nod)
			return nod, nil

		case fieldList:
			//  Node is the type parameters list of a generic function.
			if root.kind == funcDecl && n.anc == root.child[2] && childPos(n) == 0 {
				// Fill the types lookup table used for type substitution.
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						t, err := nodeType(c.interp, sc, c.child[l])
						if err != nil {
							return nil, err
						}
						if err := checkConstraint(types[pindex], t); err != nil {
							return nil, err
						}
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = types[pindex].id()
						typeParam[cc.ident].typ = types[pindex]
						pindex++
					}
				}
				// Skip type parameters specification, so generated func doesn't look generic.
				return nod, nil
			}

			// Node is the receiver of a generic method.
			if root.kind == funcDecl && n.anc == root && childPos(n) == 0 && len(n.child) > 0 {
				rtn := n.child[0].child[1]
				// Method receiver is a generic type if it takes some type parameters.
				if rtn.kind == indexExpr || rtn.kind == indexListExpr || (rtn.kind == starExpr && (rtn.child[0].kind == indexExpr || rtn.child[0].kind == indexListExpr)) {
					if rtn.kind == starExpr {
						// Method receiver is a pointer on a generic type.
						rtn = rtn.child[0]
						recvrPtr = true
					}
					rtname = rtn.child[0].ident + "["
					for _, cc := range rtn.child[1:] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = it.id()
						typeParam[cc.ident].typ = it
						rtname += it.id() + ","
						pindex++
					}
					rtname = strings.TrimSuffix(rtname, ",") + "]"
				}
			}

			// Node is the type parameters list of a generic type.
			if root.kind == typeSpec && n.anc == root && childPos(n) == 1 {
				// Fill the types lookup table used for type substitution.
				tname = n.anc.child[0].ident + "["
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						t, err := nodeType(c.interp, sc, c.child[l])
						if err != nil {
							return nil, err
						}
						if err := checkConstraint(types[pindex], t); err != nil {
							return nil, err
						}
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = it.id()
						typeParam[cc.ident].typ = it
						tname += it.id() + ","
						pindex++
					}
				}
				tname = strings.TrimSuffix(tname, ",") + "]"
				return nod, nil
			}
		}

		for _, c := range n.child {
			gn, err := gtree(c, nod)
			if err != nil {
				return nil, err
			}
			nod.child = append(nod.child, gn)
		}
		return nod, nil
	}

	if nod, found := root.interp.generic[sname]; found {
		return nod, true, nil
	}

	r, err := gtree(root, root.anc)
	if err != nil {
		return nil, false, err
	}
	root.interp.generic[sname] = r
	r.param = append(r.param, types...)
	if tname != "" {
		for _, nod := range fixNodes {
			nod.ident = tname
		}
		r.child[0].ident = tname
	}
	if rtname != "" {
		// Replace method receiver type by synthetized ident.
		nod := r.child[0].child[0].child[1]
		if recvrPtr {
			nod = nod.child[0]
		}
		nod.kind = identExpr
		nod.ident = rtname
		nod.child = nil
	}
	// r.adot() // Used for debugging only.
	return r, false, nil
}

func copyNode(n, anc *node, recursive bool) *node {
	var i interface{}
	nindex := atomic.AddInt64(&n.interp.nindex, 1)
	nod := &node{
		debug:  n.debug,
		anc:    anc,
		interp: n.interp,
		index:  nindex,
		level:  n.level,
		nleft:  n.nleft,
		nright: n.nright,
		kind:   n.kind,
		pos:    n.pos,
		src:    n.src, // sbir patch 12b
		action: n.action,
		gen:    n.gen,
		val:    &i,
		rval:   n.rval,
		ident:  n.ident,
		meta:   n.meta,
	}
	nod.start = nod
	if recursive {
		for _, c := range n.child {
			nod.child = append(nod.child, copyNode(c, nod, true))
		}
	}
	return nod
}

func inferTypesFromCall(sc *scope, fun *node, args []*node) ([]*itype, error) {
	ftn := fun.typ.node
	// Fill the map of parameter types, indexed by type param ident.
	paramTypes := map[string]*itype{}
	for _, c := range ftn.child[0].child {
		typ, err := nodeType(fun.interp, sc, c.lastChild())
		if err != nil {
			// sbir patch 2: a constraint naming another type
			// parameter (S ~[]E) has no type in the caller's scope.
			continue
		}
		for _, cc := range c.child[:len(c.child)-1] {
			paramTypes[cc.ident] = typ
		}
	}
	// sbir patch 99: the parameters' types below name the type
	// parameters, which the scope (the caller's, or one where a declared
	// type of the same name took its place back) may not hold: put them
	// there while the types are computed, then take them out again.
	hidden := map[string]*symbol{}
	defer func() {
		for name, sym := range hidden {
			if sym == nil {
				delete(sc.sym, name)
			} else {
				sc.sym[name] = sym
			}
		}
	}()
	for name, typ := range paramTypes {
		if sym := sc.sym[name]; sym == nil || sym.kind != varTypeSym {
			hidden[name] = sym
			sc.sym[name] = &symbol{index: -1, kind: varTypeSym, typ: typ}
		}
	}

	var inferTypes func(*itype, *itype) ([]*itype, error)
	inferTypes = func(param, input *itype) ([]*itype, error) {
		switch param.cat {
		case chanT, ptrT, sliceT:
			return inferTypes(param.val, input.val)

		case mapT:
			k, err := inferTypes(param.key, input.key)
			if err != nil {
				return nil, err
			}
			v, err := inferTypes(param.val, input.val)
			if err != nil {
				return nil, err
			}
			return append(k, v...), nil

		case structT:
			lt := []*itype{}
			for i, f := range param.field {
				nl, err := inferTypes(f.typ, input.field[i].typ)
				if err != nil {
					return nil, err
				}
				lt = append(lt, nl...)
			}
			return lt, nil

		case funcT:
			lt := []*itype{}
			for i, t := range param.arg {
				if i >= len(input.arg) {
					break
				}
				nl, err := inferTypes(t, input.arg[i])
				if err != nil {
					return nil, err
				}
				lt = append(lt, nl...)
			}
			for i, t := range param.ret {
				if i >= len(input.ret) {
					break
				}
				nl, err := inferTypes(t, input.ret[i])
				if err != nil {
					return nil, err
				}
				lt = append(lt, nl...)
			}
			return lt, nil

		case nilT:
			if paramTypes[param.name] != nil {
				return []*itype{input}, nil
			}

		case genericT:
			return []*itype{input}, nil
		}
		return nil, nil
	}

	// sbir patch 2: each type parameter takes the first type matched
	// against it, wherever it occurs in a parameter, and the list follows
	// the order the type parameters are declared in, so that
	// f[K, V](m map[K]V), f[E](a, b E) and f[S ~[]E, E any](s S) are
	// inferred as Go does. Arguments of a call not compiled yet (in global
	// type analysis) get their type computed; variadic parameters match
	// each of their arguments; a named argument type matches through its
	// underlying type.
	_ = inferTypes
	byName := map[string]*itype{}
	fromUntyped := map[string]bool{}
	var params []*node
	for _, c := range ftn.child[1].child {
		for range c.child[:max(1, len(c.child)-1)] {
			params = append(params, c)
		}
	}
	variadic := len(params) > 0 && params[len(params)-1].lastChild().kind == ellipsisExpr
	for pass := 0; pass < 2; pass++ {
		// Typed arguments first: an untyped constant takes its default
		// type only when nothing else decides the parameter.
		for i, a := range args {
			if i >= len(params) && !variadic {
				break
			}
			c := params[min(i, len(params)-1)]
			typ, err := nodeType(fun.interp, sc, c.lastChild())
			if err != nil {
				return nil, err
			}
			if typ.cat == variadicT {
				typ = typ.val
			}
			at := a.typ
			if at == nil {
				if at, err = nodeType(fun.interp, sc, a); err != nil {
					return nil, err
				}
			}
			if at == nil || at.untyped != (pass == 1) {
				continue
			}
			if at.untyped {
				at = at.defaultType(a.rval, sc)
				if typ.cat == genericT && fromUntyped[typ.name] && untypedRank(at) > untypedRank(byName[typ.name]) {
					// f(2, 3.5) is f[float64], as in Go.
					byName[typ.name] = at
				}
				if byName[typ.name] == nil {
					fromUntyped[typ.name] = true
				}
			}
			if !matchGenericInstance(fun.interp, sc, c.lastChild(), at, byName) {
				matchTypeParams(typ, at, byName)
			}
		}
	}
	// Type parameters constrained by ~[]E, ~map[K]V (or []E, map[K]V)
	// give the types of their elements.
	tparams := map[string]bool{}
	for _, c := range ftn.child[0].child {
		for _, cc := range c.child[:len(c.child)-1] {
			tparams[cc.ident] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, c := range ftn.child[0].child {
			for _, cc := range c.child[:len(c.child)-1] {
				if in := byName[cc.ident]; in != nil {
					n := len(byName)
					matchConstraint(c.lastChild(), in, tparams, byName)
					changed = changed || len(byName) > n
				}
			}
		}
	}
	types := []*itype{}
	for _, c := range ftn.child[0].child {
		for _, cc := range c.child[:len(c.child)-1] {
			t := byName[cc.ident]
			if t == nil {
				return types, nil
			}
			types = append(types, t)
		}
	}
	return types, nil
}

// matchTypeParams records in byName the types that the type parameters
// in param stand for when param is matched with input (sbir patch 2).
func matchTypeParams(param, input *itype, byName map[string]*itype) {
	if param == nil || input == nil {
		return
	}
	if param.cat == genericT || param.cat == nilT && param.name != "" {
		if byName[param.name] == nil {
			byName[param.name] = input
		}
		return
	}
	if input.cat == valueT && input.rtype != nil && param.cat != valueT {
		matchBinTypeParams(param, input.rtype, byName) // sbir patch 8f
		return
	}
	if input.cat != param.cat {
		input = input.underlying()
	}
	if input.cat != param.cat && !(param.cat == sliceT && input.cat == variadicT) {
		if param.cat == linkedT {
			matchTypeParams(param.val, input, byName)
		}
		return
	}
	switch param.cat {
	case arrayT, chanT, chanRecvT, chanSendT, ptrT, sliceT, variadicT:
		matchTypeParams(param.val, input.val, byName)
	case mapT:
		matchTypeParams(param.key, input.key, byName)
		matchTypeParams(param.val, input.val, byName)
	case structT:
		for i, f := range param.field {
			if i < len(input.field) {
				matchTypeParams(f.typ, input.field[i].typ, byName)
			}
		}
	case funcT:
		for i, a := range param.arg {
			if i < len(input.arg) {
				matchTypeParams(a, input.arg[i], byName)
			}
		}
		for i, r := range param.ret {
			if i < len(input.ret) {
				matchTypeParams(r, input.ret[i], byName)
			}
		}
	}
}

// matchGenericInstance matches a parameter type written as an instance of a
// generic type, such as Seq[T] for type Seq[V any] func(yield func(V) bool),
// with the type of an argument: the generic type's definition is matched
// first, giving V, then each type argument (T) with what its type
// parameter (V) matched (sbir patch 8h). It reports whether pn is such a
// parameter type.
func matchGenericInstance(interp *Interpreter, sc *scope, pn *node, input *itype, byName map[string]*itype) bool {
	if pn.kind != indexExpr && pn.kind != indexListExpr {
		return false
	}
	gt, err := nodeType(interp, sc, pn.child[0])
	if err != nil || gt == nil || gt.cat != genericT || gt.node == nil || gt.node.anc == nil || gt.node.anc.kind != typeSpec {
		return false
	}
	spec := gt.node.anc
	if len(spec.child) != 3 || spec.lastChild().kind == structType {
		// Typing a generic struct's definition here would register it
		// under the generic's name; such parameters are left as they were.
		return false
	}
	var names []string
	for _, f := range spec.child[1].child {
		for _, id := range f.child[:len(f.child)-1] {
			names = append(names, id.ident)
		}
	}
	dsc := spec.scope
	if dsc == nil {
		dsc = sc
	}
	def, err := nodeType(interp, dsc, spec.lastChild())
	if err != nil || def == nil {
		return false
	}
	inner := map[string]*itype{}
	matchTypeParams(def, input, inner)
	for i, a := range pn.child[1:] {
		if i >= len(names) || inner[names[i]] == nil {
			continue
		}
		at, err := nodeType(interp, sc, a)
		if err != nil || at == nil {
			continue
		}
		matchTypeParams(at, inner[names[i]], byName)
	}
	return true
}

// matchBinTypeParams is matchTypeParams for an argument of a compiled type,
// such as strconv.Itoa passed for a func(T) U parameter (sbir patch 8f).
func matchBinTypeParams(param *itype, rt reflect.Type, byName map[string]*itype) {
	switch param.cat {
	case linkedT:
		matchBinTypeParams(param.val, rt, byName)
	case arrayT, sliceT, variadicT:
		if k := rt.Kind(); k == reflect.Slice || k == reflect.Array {
			matchTypeParams(param.val, valueTOf(rt.Elem()), byName)
		}
	case ptrT:
		if rt.Kind() == reflect.Ptr {
			matchTypeParams(param.val, valueTOf(rt.Elem()), byName)
		}
	case chanT, chanRecvT, chanSendT:
		if rt.Kind() == reflect.Chan {
			matchTypeParams(param.val, valueTOf(rt.Elem()), byName)
		}
	case mapT:
		if rt.Kind() == reflect.Map {
			matchTypeParams(param.key, valueTOf(rt.Key()), byName)
			matchTypeParams(param.val, valueTOf(rt.Elem()), byName)
		}
	case funcT:
		if rt.Kind() != reflect.Func {
			return
		}
		for i, a := range param.arg {
			if i < rt.NumIn() {
				matchTypeParams(a, valueTOf(rt.In(i)), byName)
			}
		}
		for i, r := range param.ret {
			if i < rt.NumOut() {
				matchTypeParams(r, valueTOf(rt.Out(i)), byName)
			}
		}
	}
}

func checkConstraint(it, ct *itype) error {
	if len(ct.constraint) == 0 && len(ct.ulconstraint) == 0 {
		return nil
	}
	for _, c := range ct.constraint {
		if it.equals(c) || it.matchDefault(c) {
			return nil
		}
	}
	for _, c := range ct.ulconstraint {
		if it.underlying().equals(c) || it.matchDefault(c) {
			return nil
		}
	}
	return it.node.cfgErrorf("%s does not implement %s", it.id(), ct.id())
}

// untypedRank orders the default types of untyped constants as Go does
// when they are mixed: int, rune, float64, complex128 (sbir patch 2).
func untypedRank(t *itype) int {
	if t == nil {
		return 0
	}
	switch t.cat {
	case intT:
		return 1
	case int32T:
		return 2
	case float64T:
		return 3
	case complex128T:
		return 4
	}
	return 0
}

// matchConstraint records the types of the type parameters named in the
// core type of constraint n, satisfied by type in (sbir patch 2).
func matchConstraint(n *node, in *itype, tparams map[string]bool, byName map[string]*itype) {
	if n.kind == unaryExpr && len(n.child) == 1 {
		n = n.child[0]
	}
	if n.kind == identExpr && tparams[n.ident] {
		if byName[n.ident] == nil {
			byName[n.ident] = in
		}
		return
	}
	in = in.underlying()
	if in.cat == valueT && in.rtype != nil {
		// sbir patch 71b: a compiled type ([]string from strings.Split)
		// matches ~[]E, ~map[K]V and *E through its reflect.Type.
		in = binCoreType(in.rtype)
	}
	switch {
	case n.kind == arrayType && len(n.child) == 1 && (in.cat == sliceT || in.cat == variadicT):
		matchConstraint(n.child[0], in.val, tparams, byName)
	case n.kind == mapType && len(n.child) == 2 && in.cat == mapT:
		matchConstraint(n.child[0], in.key, tparams, byName)
		matchConstraint(n.child[1], in.val, tparams, byName)
	case n.kind == starExpr && len(n.child) == 1 && in.cat == ptrT:
		matchConstraint(n.child[0], in.val, tparams, byName)
	}
}

// binCoreType returns the slice, map or pointer type rt as an itype whose
// key and element types are compiled types, for matchConstraint (sbir
// patch 72), or an itype of another category when rt is none of those.
func binCoreType(rt reflect.Type) *itype {
	switch rt.Kind() {
	case reflect.Slice:
		return &itype{cat: sliceT, val: valueTOf(rt.Elem())}
	case reflect.Map:
		return &itype{cat: mapT, key: valueTOf(rt.Key()), val: valueTOf(rt.Elem())}
	case reflect.Pointer:
		return &itype{cat: ptrT, val: valueTOf(rt.Elem())}
	}
	return valueTOf(rt)
}
