package interp

import "reflect"

// sbir patch 140: a value received from a channel is stored in a
// variable, not as reflect returns it. reflect's Recv, TryRecv and Select
// return a value that is not addressable, and recv pointed its slot at
// it; the slot is the variable's own when a definition or an assignment
// receives into it (v := <-ch, v = <-ch) or the function's result
// (return <-ch): the next write of the variable (v++, v = x, v.f = x, a
// deferred function setting the named result) panicked in reflect
// ("using unaddressable value"). A definition makes a new variable at
// each receive (fresh), so that closures made before it keep the one
// they captured, as Go's := does; an assignment or a return sets the
// variable in place, so that closures sharing it (a deferred function
// over the named result) see the value.
func setReceived(f *frame, i int, r reflect.Value, fresh bool) {
	d := f.data[i]
	if sameBasicKind(d, r) {
		// An int, float64, string or bool: the types are the same or
		// the compiler checked the assignment (no conversion to make).
		if fresh || !d.CanSet() {
			d = reflect.New(d.Type()).Elem()
			f.data[i] = d
		}
		setSameKind(d, r) // S8's copy, without Set's checks
		return
	}
	assignable := d.IsValid() && r.Type().AssignableTo(d.Type())
	if !fresh && assignable && d.CanSet() {
		d.Set(r)
		return
	}
	t := r.Type()
	if assignable {
		t = d.Type() // an interface variable holds the value as its own type
	}
	v := reflect.New(t).Elem()
	v.Set(r)
	f.data[i] = v
}

// recvNeedsConversion reports whether the assignment n of the receive src
// to dest must convert the value: dest is an interface and the channel's
// elements are not (sbir patch 140). The receive then keeps a slot of its
// own and the assignment converts, as for any other value; stored in the
// variable's slot as it was, a T received into a fmt.Stringer variable
// printed as a struct, and the variable's next assignment panicked.
func recvNeedsConversion(n, dest, src *node) bool {
	return n.kind != defineStmt && dest.typ != nil && src.typ != nil && isInterface(dest.typ) && !isInterface(src.typ)
}
