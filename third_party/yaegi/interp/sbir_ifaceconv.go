package interp

// sbir patch 96: a conversion of an interpreted value to a compiled
// interface type, `error(&MyErr{})` or `fmt.Stringer(T{})`, was a no-op
// that left the bare value: assigning it to a variable (`e :=
// error(&MyErr{})`, also as a switch's or a for loop's init) panicked in
// reflect.Set ("value of type *struct {...} is not assignable to type
// error"), and `fmt.Println(error(&MyErr{"d"}))` printed the struct
// (`&{d}`) instead of calling its Error method.

// convertsToCompiledInterface reports whether the conversion of a value
// of type from to the interface type to must wrap it: to is a compiled
// interface (error, fmt.Stringer...) and from an interpreted type, whose
// methods compiled code cannot see on the bare value.
func convertsToCompiledInterface(to, from *itype) bool {
	if to == nil || from == nil || !isInterfaceBin(to) || isInterface(from) || from.cat == nilT {
		return false
	}
	rt := to.TypeOf()
	if rt == nil || rt.NumMethod() == 0 {
		return false
	}
	ft := safeRefType(from)
	return ft == nil || !ft.Implements(rt) || from.cat == structT || len(from.methods()) > 0
}

// convertToCompiledInterface stores the converted value in the
// interface's wrapper, as an assignment to a variable of that type does.
func convertToCompiledInterface(n *node) {
	dest := genValue(n)
	value := genInterfaceWrapper(n.child[1], n.typ.TypeOf())
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f))
		return next
	}
}
