package interp

import (
	"reflect"
	"unsafe"
)

// The int tier's reads of slices (sbir patch S9c): s[i] and s[i].f, where
// s is a variable outside the function (a global, or one a function
// literal captures) holding a slice, and the element or its field (of a
// struct held in the element, not through a pointer) is an int or a bool.
// sort.Slice's less reads four such fields a call.
//
// The slice is read from its variable at every use, as the interpreter
// reads it: the program may assign it between two. The element is read at
// its address, after the index is checked against the length; an index
// out of range panics in the tier, and the call runs again in the
// interpreter (a read leaves the call pure), which raises gc's error.

// intDeopt is the panic of the tier for what the interpreter must report:
// an index out of range.
const intDeopt intSignal = 100

// sliceAccess is a compiled s[i] or s[i].f.
type sliceAccess struct {
	level, index int            // the slice's variable: frames out, slot
	typ          unsafe.Pointer // the slice type's descriptor (typeWord)
	size, off    uintptr        // the element's size, the field's offset in it
	isBool       bool           // the value read is a bool
	reg          int            // the index's register, or -1
	idx          intExpr        // the index
	idxNode      *node          // the index's expression
	in           *Interpreter   // whose counters a fast read updates (sbir patch S14)
}

// sliceAccess compiles n when it is s[i] or s[i].f of a slice s outside
// the function.
func (c *intCompiler) sliceAccess(n *node) (*sliceAccess, bool) {
	ok, isBool := intKind(n.typ)
	if !ok {
		return nil, false
	}
	idx, off, ok := fieldPath(n)
	if !ok {
		return nil, false
	}
	if idx.kind != indexExpr || len(idx.child) != 2 || idx.child[0].typ == nil {
		return nil, false
	}
	level, index, ok := c.outer(idx.child[0])
	st := idx.child[0].typ.TypeOf()
	if !ok || st.Kind() != reflect.Slice || idx.typ == nil || st.Elem() != idx.typ.TypeOf() {
		return nil, false
	}
	ie, ok := c.intExpr(idx.child[1])
	if !ok {
		return nil, false
	}
	c.fn.panics = true // an index out of range
	a := &sliceAccess{level: level, index: index, typ: typeWord(st), size: st.Elem().Size(), off: off,
		isBool: isBool, reg: -1, idx: ie, idxNode: idx.child[1], in: c.fn.def.interp}
	if r, ok := c.local(idx.child[1], false); ok && idx.child[1].kind == identExpr {
		a.reg = r
	}
	return a, true
}

// sliceRead compiles n when it is s[i] or s[i].f of a slice s outside the
// function.
func (c *intCompiler) sliceRead(n *node) (intExpr, bool) {
	a, ok := c.sliceAccess(n)
	if !ok {
		return nil, false
	}
	if e := a.fastRead(c.fn.def.interp); e != nil {
		return e, true
	}
	at := a.at
	if a.isBool {
		return func(r []int64, t *intRun) int64 { return b2i(*(*bool)(at(r, t))) }, true
	}
	return func(r []int64, t *intRun) int64 { return *(*int64)(at(r, t)) }, true
}

// at returns the address of the value a reads, reading the slice through
// reflect: the general path, for any level and any slot.
func (a *sliceAccess) at(r []int64, t *intRun) unsafe.Pointer {
	data, n := sliceValue(t.outerFrame(a.level).data[a.index], a.size)
	i := a.idx(r, t)
	if uint64(i) >= uint64(n) {
		panic(intDeopt)
	}
	return unsafe.Add(data, uintptr(i)*a.size+a.off)
}

// sliceValue returns the data pointer and length of v, a slice whose
// elements are size bytes. A value of another kind or element size (not
// one the interpreter makes for the variable compiled) panics intDeopt:
// the call runs in the interpreter, and no read leaves the array.
func sliceValue(v reflect.Value, size uintptr) (unsafe.Pointer, int) {
	if v.Kind() != reflect.Slice || v.Type().Elem().Size() != size {
		panic(intDeopt)
	}
	if v.CanAddr() {
		// A variable's value: its slice header is read in place.
		h := (*sliceHeader)(unsafe.Pointer(v.UnsafeAddr()))
		return h.data, h.len
	}
	// A slot the interpreter pointed at another value.
	return v.UnsafePointer(), v.Len()
}

// sliceHeader is the layout of a slice value.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// fieldPath returns the index expression under n, a chain of selectors
// of struct fields (s[i].f.g) or the index expression itself, and the
// offset of the selected field in the element.
func fieldPath(n *node) (idx *node, off uintptr, ok bool) {
	if n.kind != selectorExpr {
		return n, 0, true
	}
	if len(n.child) != 2 || n.action != aGetIndex || !sameGenerator(n.gen, getIndexSeq) || n.child[0].typ == nil {
		return nil, 0, false
	}
	path, ok := n.val.([]int)
	if !ok || len(path) == 0 {
		return nil, 0, false
	}
	idx, off, ok = fieldPath(n.child[0])
	if !ok {
		return nil, 0, false
	}
	t := n.child[0].typ.TypeOf()
	for _, k := range path {
		if t.Kind() != reflect.Struct || k >= t.NumField() {
			return nil, 0, false
		}
		f := t.Field(k)
		off += f.Offset
		t = f.Type
	}
	return idx, off, n.typ != nil && t == n.typ.TypeOf()
}
