//go:build go1.24

package interp

import (
	"reflect"
	"runtime"
	"sync/atomic"
	"unsafe"
	"weak"
)

// sbir patch S3: interpreted code calls the interpreted functions it holds
// as values directly.
//
// A function literal, or a declared function used as a value, becomes a
// reflect.MakeFunc value: compiled code can only call a real function.
// Interpreted code that calls such a value (a closure in a variable, in a
// slice, returned by another function) went through reflect.Value.Call
// and reflect's MakeFunc trampoline, which cost ten times a direct call.
// The interpreter now records, for each such value it makes, the function
// it runs and the frame it closes over, keyed by the value's closure
// object; call looks a func value up there and, when it is one of the
// interpreter's, runs it as it runs a declared function.
//
// The record lives as long as the function value: it points to the
// closure object and to the captured frame weakly (a record never keeps a
// function alive, so a function that refers to itself is still
// collected), and a cleanup removes it when the closure object is freed.

// funcRecord is what calling an interpreted function value runs.
type funcRecord struct {
	self weak.Pointer[byte]  // the closure object the record is for
	def  *node               // the function (funcDecl or funcLit)
	anc  weak.Pointer[frame] // the frame its body's frame descends from
}

// funcObject returns the closure object of the func value v, or nil.
func funcObject(v reflect.Value) unsafe.Pointer {
	if v.Kind() != reflect.Func || v.IsNil() || !v.CanInterface() {
		return nil
	}
	if v.CanAddr() {
		// sbir patch S12: a variable, an element or a field holds the
		// pointer itself; read it rather than box the value.
		return *(*unsafe.Pointer)(unsafe.Pointer(v.UnsafeAddr()))
	}
	i := v.Interface()
	// A func is pointer-shaped: the interface's data word is the pointer
	// to the closure object.
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&i))[1]
}

// recordFunc records that calling the func value v runs def in a frame
// descending from anc.
func (interp *Interpreter) recordFunc(v reflect.Value, def *node, anc *frame) {
	p := funcObject(v)
	if p == nil || def == nil || len(def.child) < 4 || def.child[3].start == nil {
		return
	}
	if d, a, known := interp.directCallee(p); known && d == def && a == anc {
		return // sbir patch S12: call reads it from the value
	}
	r := &funcRecord{self: weak.Make((*byte)(p)), def: def, anc: weak.Make(anc)}
	key := uintptr(p)
	interp.funcs.Store(key, r)
	runtime.AddCleanup((*byte)(p), func(k funcKey) {
		k.interp.funcs.CompareAndDelete(k.key, k.record)
	}, funcKey{interp, key, r})
}

// funcKey identifies a record for the cleanup that removes it: a newer
// record stored under the same address (the object freed, its memory
// reused for a new closure) stays.
type funcKey struct {
	interp *Interpreter
	key    uintptr
	record *funcRecord
}

// funcCache holds a call site's last records, which save the map lookup
// when the site calls the same function values again: a few of them, as a
// site calling one of a slice of closures (handlers[k](x)) looked each up
// in the map (sbir patch S8).
type funcCache [16]atomic.Pointer[funcRecord]

// slot returns the entry of the closure object at p.
func (c *funcCache) slot(p unsafe.Pointer) *atomic.Pointer[funcRecord] {
	// Fibonacci hashing: closure objects lie a size class apart.
	return &c[(uint64(uintptr(p))*0x9E3779B97F4A7C15)>>60]
}

// lookupFunc returns the function and the frame that calling the func
// value v runs, if v is one the interpreter recorded and it is alive.
// cache is the call site's.
func (interp *Interpreter) lookupFunc(v reflect.Value, c *funcCache) (*node, *frame) {
	p := funcObject(v)
	if p == nil {
		return nil, nil
	}
	if d, a, known := interp.directCallee(p); known {
		return d, a // sbir patch S12
	}
	cache := c.slot(p)
	r := cache.Load()
	if r == nil || r.self.Value() != (*byte)(p) {
		e, ok := interp.funcs.Load(uintptr(p))
		if !ok {
			return nil, nil
		}
		r = e.(*funcRecord)
		// The weak pointer tells the object the record was made for from
		// a newer one at the same address.
		if r.self.Value() != (*byte)(p) {
			return nil, nil
		}
		cache.Store(r)
	}
	anc := r.anc.Value()
	if anc == nil {
		return nil, nil
	}
	return r.def, anc
}
