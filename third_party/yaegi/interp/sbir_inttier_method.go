package interp

import (
	"reflect"
	"unsafe"
)

// sbir patch S17: methods in the int tier.
//
// A method call x.m(...) that S1 runs directly still cost a frame of
// reflect.Values, the receiver's copy into it (S11a), the arguments' and
// results' copies and runFrame's loop: ~1,000 instructions a call, and a
// loop of small methods over a struct's counters (bench/lang/methods) was
// level with CPython. A method whose body the int tier can run, and whose
// receiver is used only to select int or bool fields of its struct (not
// through a pointer embedded in it), now runs in the tier too:
//
//   - a pointer receiver's fields are read and written at their offsets
//     from the pointer, at every use, as gc's code does: another call may
//     change them between two uses, and the method sees what it wrote;
//   - a value receiver's fields are copied to registers when the call
//     starts, as gc copies the receiver: what the method writes to them
//     changes its copy only.
//
// The receiver is checked before anything runs: a value of the type the
// offsets were computed for (a pointer to the struct, or an addressable
// struct), and no nil pointer. Anything else (a nil receiver, which must
// panic with its position, a value the interpreter wraps, a struct
// declared again in a later cell) runs in the interpreter, which gives
// its answer or its panic as before. A method writing its pointer
// receiver's fields writes outside itself (fn.writes), so, as for globals
// (sbir_inttier_outer.go), nothing in it may panic: it never runs again.
//
// The receiver's pointer is kept in the run (intRun.recv), where the
// garbage collector sees it, not in an int64 register.

// intMethod is the receiver of a method of the int tier.
type intMethod struct {
	index int // the receiver's slot in the method's frame
	ptr   bool
	// ptrTyp and valTyp are the descriptors (typeWord) of the pointer to
	// the receiver's struct and of the struct.
	ptrTyp, valTyp unsafe.Pointer
	rtype          reflect.Type // the struct
	// loads are a value receiver's fields copied to registers at the
	// call's start, by offset.
	loads []fieldLoad
	regs  map[uintptr]int // loads' registers, by offset, while compiling
}

// fieldLoad copies an int or bool field at off to the register reg.
type fieldLoad struct {
	off    uintptr
	reg    int
	isBool bool
}

// receiver compiles the receiver of def, a method, into c.fn.method, or
// reports false when the tier cannot run it.
func (c *intCompiler) receiver(def *node, numRet int) bool {
	list := def.child[0]
	if len(list.child) != 1 {
		return false
	}
	field := list.child[0]
	tn := field.lastChild()
	if tn == nil || tn.typ == nil {
		return false
	}
	rt := tn.typ.TypeOf()
	if rt == nil {
		return false
	}
	// The receiver's slot follows the results (cfg's funcDecl); the
	// identifier in the declaration has no slot of its own to check.
	m := &intMethod{index: numRet, regs: map[uintptr]int{}}
	if rt.Kind() == reflect.Pointer {
		m.ptr = true
		rt = rt.Elem()
	}
	if rt.Kind() != reflect.Struct {
		return false
	}
	m.rtype = rt
	m.ptrTyp, m.valTyp = typeWord(reflect.PointerTo(rt)), typeWord(rt)
	c.fn.method = m
	return true
}

// receiverField returns the offset, in the receiver's struct, of the
// field n selects when n is r.f (or r.e.f through struct fields, not
// pointers) of the receiver r, and whether it is a bool.
func (c *intCompiler) receiverField(n *node) (off uintptr, isBool, ok bool) {
	if c.fn.method == nil || n.kind != selectorExpr {
		return 0, false, false
	}
	okKind, isBool := intKind(n.typ)
	if !okKind {
		return 0, false, false
	}
	off, t, ok := c.receiverPath(n)
	if !ok || t != n.typ.TypeOf() || (!isBool && t.Size() != 8) {
		return 0, false, false
	}
	return off, isBool, true
}

// receiverPath returns the offset and type of what n selects in the
// receiver's struct: the struct itself for the receiver r, a field for
// r.f, r.e.f and so on.
func (c *intCompiler) receiverPath(n *node) (off uintptr, t reflect.Type, ok bool) {
	m := c.fn.method
	if n.kind == identExpr {
		if n.level != 0 || n.findex != m.index || n.sym == nil || n.sym.kind != varSym {
			return 0, nil, false
		}
		return 0, m.rtype, true
	}
	if n.kind != selectorExpr || len(n.child) != 2 || n.action != aGetIndex {
		return 0, nil, false
	}
	want := getIndexSeq
	if n.child[0].kind == identExpr && m.ptr {
		want = getPtrIndexSeq
	}
	path, okPath := n.val.([]int)
	if !sameGenerator(n.gen, want) || !okPath || len(path) == 0 {
		return 0, nil, false
	}
	if off, t, ok = c.receiverPath(n.child[0]); !ok {
		return 0, nil, false
	}
	for _, k := range path {
		// A field of an embedded pointer would be read through a pointer
		// that may be nil: not at an offset.
		if t.Kind() != reflect.Struct || k >= t.NumField() {
			return 0, nil, false
		}
		f := t.Field(k)
		off += f.Offset
		t = f.Type
	}
	return off, t, true
}

// fieldLoc returns where n, a field of the receiver, is read and written.
func (c *intCompiler) fieldLoc(n *node) (intLoc, bool) {
	off, isBool, ok := c.receiverField(n)
	if !ok {
		return intLoc{}, false
	}
	m := c.fn.method
	if !m.ptr {
		// The receiver's copy: a register loaded at the call's start.
		r, seen := m.regs[off]
		if !seen {
			r = c.fn.size
			c.fn.size++
			m.regs[off] = r
			m.loads = append(m.loads, fieldLoad{off: off, reg: r, isBool: isBool})
		}
		return intLoc{reg: r, isBool: isBool}, true
	}
	return intLoc{level: fieldLevel, off: off, isBool: isBool}, true
}

// fieldLevel is the level of an intLoc of a pointer receiver's field.
const fieldLevel = -2

// fieldRead returns the value of the field at off of the receiver.
func fieldRead(off uintptr, isBool bool) intExpr {
	if isBool {
		return func(_ []int64, t *intRun) int64 { return b2i(*(*bool)(unsafe.Add(t.recv, off))) }
	}
	return func(_ []int64, t *intRun) int64 { return *(*int64)(unsafe.Add(t.recv, off)) }
}

// fieldStore returns the statement storing e's value in the field at off
// of the receiver.
func fieldStore(off uintptr, isBool bool, e intExpr) intStmt {
	if isBool {
		return func(r []int64, t *intRun) intCtl {
			*(*bool)(unsafe.Add(t.recv, off)) = e(r, t) != 0
			return ctlNext
		}
	}
	return func(r []int64, t *intRun) intCtl {
		*(*int64)(unsafe.Add(t.recv, off)) = e(r, t)
		return ctlNext
	}
}

// withLoads returns body preceded by the copies of a value receiver's
// fields to their registers.
func (m *intMethod) withLoads(body intStmt) intStmt {
	if m.ptr || len(m.loads) == 0 {
		return body
	}
	loads := m.loads
	return func(r []int64, t *intRun) intCtl {
		for _, l := range loads {
			p := unsafe.Add(t.recv, l.off)
			if l.isBool {
				r[l.reg] = b2i(*(*bool)(p))
			} else {
				r[l.reg] = *(*int64)(p)
			}
		}
		return body(r, t)
	}
}

// pointer returns the address of the struct v, the receiver value a call
// site gives, or nil when the call must run in the interpreter: v is not
// of the type the method was compiled for (a pointer to its struct, or
// the struct itself, addressable), or is a nil pointer.
func (m *intMethod) pointer(v reflect.Value) unsafe.Pointer {
	if !valueWordsOK {
		return nil
	}
	w := (*valueWords)(unsafe.Pointer(&v))
	switch w.typ {
	case m.ptrTyp:
		if !ptrIndir.ok {
			return v.UnsafePointer()
		}
		if w.flag&ptrIndir.bit != 0 {
			return *(*unsafe.Pointer)(w.ptr) // a variable holding the pointer
		}
		return w.ptr
	case m.valTyp:
		if v.CanAddr() {
			return w.ptr // an addressable value's word is its address
		}
	}
	return nil
}

// callMethod runs fn, a method, from the interpreted frame f with the
// receiver value recv and its arguments given by values, as call does.
// It reports false when the call must run in the interpreter instead.
func (fn *intFunc) callMethod(f *frame, recv reflect.Value, values []func(*frame) reflect.Value) (int64, bool) {
	p := fn.method.pointer(recv)
	if p == nil {
		return 0, false
	}
	return fn.callWith(f, f, p, values)
}

// ptrIndir is the bit of reflect's flag word set when a Value of a
// pointer type holds the address of the pointer rather than the pointer
// (a variable's, a field's), as reflect's own Value.pointer reads it:
// probed at start, ok when the probe found one bit that reads all three
// kinds of Value right. Reading a pointer Value's words directly saves
// reflect.Value.UnsafePointer's kind switch and method-value check, which
// a receiver's value never needs: a tenth of a method call's cost.
var ptrIndir = func() (p struct {
	bit uintptr
	ok  bool
}) {
	if !valueWordsOK {
		return p
	}
	type two struct{ A, B *int }
	x := new(int)
	direct, variable, field := reflect.ValueOf(x), reflect.ValueOf(&x).Elem(), reflect.ValueOf(two{x, x}).Field(0)
	dw, vw, fw := (*valueWords)(unsafe.Pointer(&direct)), (*valueWords)(unsafe.Pointer(&variable)), (*valueWords)(unsafe.Pointer(&field))
	bit := fw.flag &^ dw.flag
	if bit == 0 || bit&(bit-1) != 0 || dw.ptr != unsafe.Pointer(x) || vw.flag&bit == 0 ||
		*(*unsafe.Pointer)(vw.ptr) != unsafe.Pointer(x) || *(*unsafe.Pointer)(fw.ptr) != unsafe.Pointer(x) {
		return p
	}
	p.bit, p.ok = bit, true
	return p
}()
