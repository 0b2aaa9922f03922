package interp

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// sbir patch S14: the int tier's typed callbacks (sort.Slice's less) cost
// less a call.
//
// After S9c a call of sort.Slice's less from compiled code spent a sixth
// of its time taking and giving back its register stack with two atomic
// swaps (locked instructions), and nearly half in the four reads of
// recs[i].f: each four nested closure calls (the wrapper, the address,
// the frame, the index) and reflect.Value's CanAddr and UnsafeAddr.
//
// Now a function that is a leaf runs with no register stack at all
// (sbir_inttier_leaf.go); any other takes its intRun from a sync.Pool of
// the interpreter (whose fast path pins the P: no locked instruction). A
// read of a slice a literal captures or a global reads the slice's header
// straight from the variable's reflect.Value (sliceWords), in one closure
// when indexed by a register, and a comparison of two such reads of one
// slice is one closure.

// intFast is an interpreter's state for S14.
type intFast struct {
	// runs holds *intRun for the int tier's typed callbacks: compiled
	// code may call one from several goroutines at once, each taking its
	// own.
	runs sync.Pool
	// reads counts the slice reads compiled to read the slice's header
	// from its reflect.Value (fastRead, sliceCompare, and a leaf's
	// sliceRead and sliceCmp), for tests.
	reads atomic.Int64
	// missed counts the runs of those reads that found the variable
	// holding a value of another type descriptor and read it through
	// reflect instead, for tests.
	missed atomic.Int64
	// leaves counts the functions compiled as leaves
	// (sbir_inttier_leaf.go), for tests.
	leaves atomic.Int64
}

// intTierRegs runs fn, the int tier of c's function, with the arguments
// a0 and a1 (n of them) in the run id, in a register stack of the
// interpreter's pool: the part of callback.intTier that a leaf skips,
// apart so that a leaf's call has the small frame of intTier.
func (c *callback) intTierRegs(fn *intFunc, a0, a1 int64, n int, id uint64) (int64, bool) {
	f := &fn.def.interp.intFast
	t := f.getRun()
	w := t.start(fn, c.anc, id)
	switch n {
	case 2:
		w[2] = a1
		fallthrough
	case 1:
		w[1] = a0
	}
	ok := t.run(fn, w)
	res := w[0]
	t.end()
	f.runs.Put(t)
	return res, ok
}

// getRun returns an intRun no other call is using.
func (f *intFast) getRun() *intRun {
	if t, ok := f.runs.Get().(*intRun); ok {
		return t
	}
	return &intRun{}
}

// sliceWordsOK reports whether a reflect.Value of a slice, addressable
// or not, is the words valueWords describes with its pointer word
// pointing to the slice's header: what sliceWords reads. Checked once;
// when it does not hold (another Go release), reads go through reflect.
var sliceWordsOK = func() (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if !valueWordsOK {
		return false
	}
	s := []int{1, 2, 3}
	typ := typeWord(reflect.TypeOf(s))
	addr := reflect.ValueOf(&s).Elem()
	copied := reflect.ValueOf(s)
	for _, v := range []reflect.Value{addr, copied} {
		w := (*valueWords)(unsafe.Pointer(&v))
		if w.typ != typ || w.ptr == nil {
			return false
		}
		h := (*sliceHeader)(w.ptr)
		if h.data != unsafe.Pointer(unsafe.SliceData(s)) || h.len != len(s) || h.cap != cap(s) ||
			h.data != v.UnsafePointer() || h.len != v.Len() {
			return false
		}
	}
	return (*valueWords)(unsafe.Pointer(&addr)).ptr == unsafe.Pointer(&s)
}()

// sliceWords returns the header of the slice *v holds when its type
// descriptor is typ, or nil. A slice is never pointer-shaped, so a Value
// of one always points to its header (the variable's own, or a copy).
func sliceWords(v *reflect.Value, typ unsafe.Pointer) *sliceHeader {
	w := (*valueWords)(unsafe.Pointer(v))
	if w.typ != typ {
		return nil
	}
	return (*sliceHeader)(w.ptr)
}

// fast reports whether a's slice header can be read by sliceWords: the
// slice is a global or a variable the literal captures (one frame out).
func (a *sliceAccess) fast() bool {
	return sliceWordsOK && a.typ != nil && (a.level == 1 || a.level == globalFrame)
}

// frameOf returns the frame holding a fast access's slice.
func frameOf(t *intRun, global bool) *frame { return leafFrame(t.anc, global) }

// fastRead returns a closure reading a's value in one call, or nil when
// a is not fast.
func (a *sliceAccess) fastRead(in *Interpreter) intExpr {
	if !a.fast() {
		return nil
	}
	in.intFast.reads.Add(1)
	global, index, typ, size, off, isBool := a.level == globalFrame, a.index, a.typ, a.size, a.off, a.isBool
	if a.reg >= 0 {
		k := a.reg
		return func(r []int64, t *intRun) int64 {
			h := sliceWords(&frameOf(t, global).data[index], typ)
			if h == nil {
				return a.missed(r, t)
			}
			i := r[k]
			if uint64(i) >= uint64(h.len) {
				panic(intDeopt)
			}
			p := unsafe.Add(h.data, uintptr(i)*size+off)
			if isBool {
				return b2i(*(*bool)(p))
			}
			return *(*int64)(p)
		}
	}
	ie := a.idx
	return func(r []int64, t *intRun) int64 {
		h := sliceWords(&frameOf(t, global).data[index], typ)
		if h == nil {
			return a.missed(r, t)
		}
		i := ie(r, t)
		if uint64(i) >= uint64(h.len) {
			panic(intDeopt)
		}
		p := unsafe.Add(h.data, uintptr(i)*size+off)
		if isBool {
			return b2i(*(*bool)(p))
		}
		return *(*int64)(p)
	}
}

// missed reads a's value through reflect: the variable holds a value
// whose type descriptor is not the one compiled.
func (a *sliceAccess) missed(r []int64, t *intRun) int64 {
	a.in.intFast.missed.Add(1)
	p := a.at(r, t)
	if a.isBool {
		return b2i(*(*bool)(p))
	}
	return *(*int64)(p)
}

// sliceCompare compiles n, a comparison, when both its operands are
// fast reads of int elements of one slice indexed by registers
// (s[i].f < s[j].g): one closure reads the header once and both elements.
// Between the two reads the function, which writes nothing outside it
// (it may panic: intFunc.writes), cannot change the slice.
func (c *intCompiler) sliceCompare(n *node) boolExpr {
	mask := compareMask(n.action)
	if mask == 0 || !isSliceRead(n.child[0]) || !isSliceRead(n.child[1]) {
		return nil
	}
	a, ok := c.sliceAccess(n.child[0])
	if !ok || a.isBool || !a.fast() || a.reg < 0 {
		return nil
	}
	b, ok := c.sliceAccess(n.child[1])
	if !ok || b.isBool || b.level != a.level || b.index != a.index || b.typ != a.typ || b.reg < 0 {
		return nil
	}
	a.in.intFast.reads.Add(2)
	global, index, typ, size := a.level == globalFrame, a.index, a.typ, a.size
	ki, kj, offA, offB := a.reg, b.reg, a.off, b.off
	return func(r []int64, t *intRun) bool {
		h := sliceWords(&frameOf(t, global).data[index], typ)
		if h == nil {
			x := a.missed(r, t)
			return mask>>order(x, b.missed(r, t))&1 != 0
		}
		i, j := r[ki], r[kj]
		if uint64(i) >= uint64(h.len) || uint64(j) >= uint64(h.len) {
			panic(intDeopt)
		}
		x := *(*int64)(unsafe.Add(h.data, uintptr(i)*size+offA))
		y := *(*int64)(unsafe.Add(h.data, uintptr(j)*size+offB))
		return mask>>order(x, y)&1 != 0
	}
}

// isSliceRead reports whether n may be s[i] or s[i].f.
func isSliceRead(n *node) bool {
	return n.kind == indexExpr || n.kind == selectorExpr
}

// compareMask returns the outcomes of order for which op holds, as bits
// (1<<0: less, 1<<1: equal, 1<<2: greater), or 0 for another op.
func compareMask(op action) uint {
	switch op {
	case aLower:
		return 0b001
	case aLowerEqual:
		return 0b011
	case aEqual:
		return 0b010
	case aNotEqual:
		return 0b101
	case aGreaterEqual:
		return 0b110
	case aGreater:
		return 0b100
	}
	return 0
}

// order returns 0 when x < y, 1 when x == y, 2 when x > y.
func order(x, y int64) uint {
	return b2u(x >= y) + b2u(x > y)
}

func b2u(b bool) uint {
	if b {
		return 1
	}
	return 0
}
