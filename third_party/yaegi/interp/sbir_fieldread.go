package interp

import "reflect"

// sbir patch S10b: a field of an element of a slice or an array,
// s[i].f, is read by one step of the interpreter instead of two.
//
// The index expression s[i] points its slot at the element and hands on
// to the selector, which reads that slot back and points its own slot at
// the field. For sort.Slice's less over a slice of structs (four such
// reads a comparison) each step was a dispatch of the run loop and two
// closures reading slots. fusedIndexField does both steps in the index
// expression's step and goes on where the selector would have: both
// slots end as they did (the element's slot is still written, so a
// reader of it sees what it saw), the panics are the same and come in
// the same order (an index out of range before any field is read), and
// the only thing skipped is the run loop's check for an interrupt
// between the two halves of one expression, which the next step makes.

// fusedIndexField gives n, an index expression of an array or a slice
// by a non-constant index whose value only the field selector above it
// reads, the step that reads the element and the field at once, and
// reports whether it did. value0 and value1 are the generators of the
// indexed value and of the index that getIndexArray made.
func fusedIndexField(n *node, value0 func(*frame) reflect.Value, value1 func(*frame) (reflect.Value, int64)) bool {
	p := n.anc
	if value1 == nil || n.fnext != nil || n.tnext != p || p == nil || p.kind != selectorExpr ||
		len(p.child) != 2 || p.child[0] != n || p.fnext != nil || p.exec == nil ||
		p.action != aGetIndex || !sameGenerator(p.gen, getIndexSeq) ||
		n.sym != nil || n.rval.IsValid() || n.findex == notInFrame || n.interp == nil || n.interp.debugger != nil {
		return false
	}
	// getIndexSeq reads the element through genValue(n): the slot of n,
	// given the conditions above (no symbol, no constant, in the frame).
	index, ok := p.val.([]int)
	if !ok {
		return false
	}
	tnext := getExec(p.tnext)
	i, l := n.findex, n.level
	pi, pl := p.findex, p.level
	n.exec = func(f *frame) bltn {
		_, vi := value1(f)
		r := indexChecked(value0(f), int(vi)) // sbir patch 10c
		getFrame(f, l).data[i] = r
		getFrame(f, pl).data[pi] = fieldByIndexChecked(r, index) // sbir patch 101
		return tnext
	}
	return true
}

// sameGenerator reports whether g is the generator h.
func sameGenerator(g, h bltnGenerator) bool {
	return g != nil && reflect.ValueOf(g).Pointer() == reflect.ValueOf(h).Pointer()
}
