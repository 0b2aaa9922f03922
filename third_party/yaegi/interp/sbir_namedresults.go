package interp

import "reflect"

// sbir patch 223: a return statement with several values, in a function
// with named results, computes every value before it sets any result, as
// gc does. The results are the first slots of the frame, and a named
// result is a variable there: _return set them one after the other from
// values that may read them, so that `return b, a` returned b, b (a was
// already b when the second value was read), and a value computed in its
// result's slot (`return b + 1, a + 1`, `return g(b), g(a)`, `return
// len(s), a`) overwrote a named result before a later value read it.

// clobbersNamedResult reports whether n, a value of a return statement in
// the function declared by def, must not be computed in its result's
// slot: the function's results are named and the return has other values,
// which may read that result.
func clobbersNamedResult(def, n *node) bool {
	return n.anc != nil && len(n.anc.child) > 1 && hasNamedResults(def)
}

// hasNamedResults reports whether the function declared by def (a
// funcDecl or a funcLit, whose child 2 is the signature) names its
// results.
func hasNamedResults(def *node) bool {
	if def == nil || len(def.child) < 3 {
		return false
	}
	sig := def.child[2]
	if sig == nil || sig.kind != funcType || len(sig.child) < 3 {
		return false
	}
	for _, field := range sig.child[2].child {
		if len(field.child) > 1 {
			return true
		}
	}
	return false
}

// returnAll is the exec of a return statement with several values in a
// function with named results: it copies every value, then sets the
// results. A value read from a variable is that variable, not a copy,
// so each is copied before any result changes.
func returnAll(values []func(*frame) reflect.Value) bltn {
	return func(f *frame) bltn {
		vs := make([]reflect.Value, len(values))
		for i, value := range values {
			v := value(f)
			vs[i] = reflect.New(v.Type()).Elem()
			vs[i].Set(v)
		}
		for i, v := range vs {
			f.data[i].Set(v)
		}
		return nil
	}
}

// returnAction is the action of call n's parent, for callBin to choose
// where the results go: aReturn stores them in the function's result
// slots directly, which a return with several values in a function with
// named results must not do (clobbersNamedResult); the call then stores
// them in its own slots, as any call does, and the return copies them.
func returnAction(n *node) action {
	a := n.anc.action
	if def, _ := n.anc.val.(*node); a == aReturn && clobbersNamedResult(def, n) {
		return aNop
	}
	return a
}
