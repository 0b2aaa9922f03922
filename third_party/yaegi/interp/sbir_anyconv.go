package interp

// hasInterpMethods reports whether values of t, or of the type t points
// to, have interpreted methods that any(x) must keep.
func hasInterpMethods(t *itype) bool {
	if t == nil {
		return false
	}
	if t.cat == ptrT {
		return t.val != nil && len(t.val.method) > 0
	}
	// A value whose type has pointer-receiver methods stays bare: the
	// assertion to an interpreted interface does not tell the method sets
	// of T and *T apart.
	return len(t.method) > 0 && !hasPtrRecvMethod(t)
}

// hasPtrRecvMethod reports whether one of t's methods has a pointer
// receiver.
func hasPtrRecvMethod(t *itype) bool {
	for _, m := range t.method {
		if len(m.child) == 0 || len(m.child[0].child) == 0 {
			continue
		}
		if recv := m.child[0].child[0]; len(recv.child) > 0 && recv.lastChild().kind == starExpr {
			return true
		}
	}
	return false
}

// convertToEmptyInterface stores any(x) as a valueInterface recording
// x's interpreted type (sbir patch 62): a bare value would lose the
// methods, so any(&Buffer{}).(ReadWriter) failed.
func convertToEmptyInterface(n *node) {
	dest := genValue(n)
	value := genValueInterface(n.child[1])
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f))
		return next
	}
}
