package interp

import "reflect"

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

// genResultConversion returns, when the i-th result of the call ncall is
// assigned to a destination of interface type dest that must hold it
// wrapped, the function that reads the result and wraps it; nil when the
// result is assigned as it is. sbir patch 97: `_, err = fail()` with fail
// returning (T, *customError) and err an error panicked in reflect.Set
// ("value of type *struct {} is not assignable to type error"); a result
// of a concrete type assigned to a variable of an interface the program
// declares lost its methods.
func genResultConversion(ncall *node, i int, dest *itype) func(*frame) reflect.Value {
	if dest == nil || len(ncall.child) == 0 {
		return nil
	}
	ft := resolveLinked(ncall.child[0].typ)
	if ft == nil || ft.cat != funcT || i >= len(ft.ret) {
		return nil
	}
	rt := ft.ret[i]
	// The result, read from the call's frame slot when the assignment
	// runs (the slot's index is final only then), as a node of its type.
	res := &node{kind: identExpr, typ: rt, interp: ncall.interp}
	value := func(f *frame) reflect.Value { return f.data[ncall.findex+i] }
	switch {
	case convertsToCompiledInterface(dest, rt):
		return genInterfaceWrapperOf(res, dest.TypeOf(), value)
	case isInterfaceSrc(dest) && !isInterface(rt) && (!isEmptyInterface(dest) || len(rt.methods()) > 0 || isBasicDefined(rt)): // sbir patch 200: a defined basic type too
		// The value keeps its type in an interpreted interface (and a
		// value with methods in an interface{}), as an assignment of it
		// does.
		return genValueInterfaceOf(res, value)
	}
	return nil
}

// writtenByCall reports whether the call ncall stores its i-th result in
// the destination of type dest itself, wrapped in a valueInterface (see
// call's rvalues, which does so for a definition that redeclares a
// variable of an interpreted interface type): then its result slot stays
// empty, and assigning the slot over the destination replaced the result
// with a zero value, or panicked in reflect.Set for a struct.
func writtenByCall(ncall *node, i int, dest *itype) bool {
	ft := resolveLinked(ncall.child[0].typ)
	if dest == nil || ft == nil || ft.cat != funcT || i >= len(ft.ret) {
		return false
	}
	return ncall.anc.kind == defineXStmt && isInterfaceSrc(dest) && !isEmptyInterface(dest) && !isInterfaceSrc(ft.ret[i])
}
