package interp

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// sbir patch S11a: a call site of an interpreted method sets the
// receiver of the common cases without reflect.Value.Set.
//
// x.m() with m interpreted runs m's body directly (S1), the receiver set
// in its slot by setReceiver: it looks through valueInterface wrappers
// (a type comparison), then calls reflect.Value.Set, whose assignability
// check and move through the type's descriptor cost more than the store
// itself. In a loop of method calls on a pointer that was a fifth of the
// time. The site now learns, at its first call, the type of the value
// it passes and the method it calls; later calls with that same type to
// that same method store the pointer (a pointer receiver), or copy the
// struct it points to (a value receiver of a type without pointers,
// which needs no write barrier), directly. Anything else (another type,
// a redeclared method, a receiver that is not a pointer, a nil pointer
// for a value receiver) goes through setReceiver as before.

// receiverSite is what a call site of an interpreted method has learnt
// of its receivers.
type receiverSite struct {
	plan atomic.Pointer[receiverPlan]
}

// receiverPlan is how a site sets the receiver of def from a value of
// a pointer type.
type receiverPlan struct {
	def  *node
	src  unsafe.Pointer // the receiver value's type (typeWord): a pointer
	dst  unsafe.Pointer // the receiver's type: src, or what src points to
	size uintptr        // 0: store the pointer; otherwise copy this many bytes
}

// set stores src, the receiver of a call of def, in dest, the receiver
// slot of the call's frame, as setReceiver does.
func (s *receiverSite) set(def *node, dest, src reflect.Value) {
	p := s.plan.Load()
	if p != nil && p.def == def {
		// Both types checked at every call: a mistake here would write
		// the wrong type into memory.
		sp, dp := addrOfType(src, p.src), addrOfType(dest, p.dst)
		if sp != nil && dp != nil {
			ptr := *(*unsafe.Pointer)(sp)
			if p.size == 0 {
				*(*unsafe.Pointer)(dp) = ptr
				return
			}
			if ptr != nil {
				// The type holds no pointers: a plain copy is Set's typedmemmove.
				copy(unsafe.Slice((*byte)(dp), p.size), unsafe.Slice((*byte)(ptr), p.size))
				return
			}
		}
	}
	setDirectReceiver(dest, src)
	if p == nil {
		s.learn(def, dest, src)
	}
}

// setDirectReceiver is setReceiver for a call x.m() that S1 runs
// directly. A value method called through a nil pointer fails as in gc,
// with the runtime's nil dereference, not with reflect's "Set on zero
// Value" (sbir patch 104). Calls from compiled code through a method's
// wrapper (sort.Interface's Len on a nil *H) keep setReceiver's panic: gc
// fails there with its wrapper's own error ("value method main.H.Len
// called using nil *H pointer"), which the interpreter does not make, and
// the worker refuses the reflect error clearly rather than answering
// with another runtime error.
func setDirectReceiver(dest, src reflect.Value) {
	if src.Kind() == reflect.Pointer && dest.Kind() != reflect.Pointer && src.IsNil() {
		nilPanic()
	}
	setReceiver(dest, src)
}

// learn records a plan for receivers of def of src's type, when it is a
// pointer and dest, a slot of def's receiver, is of that type or of the
// pointer-free type it points to.
func (s *receiverSite) learn(def *node, dest, src reflect.Value) {
	if !src.CanAddr() || src.Kind() != reflect.Pointer || !dest.CanAddr() {
		return
	}
	st, dt := src.Type(), dest.Type()
	switch {
	case dt == st:
		s.plan.CompareAndSwap(nil, &receiverPlan{def: def, src: typeWord(st), dst: typeWord(dt)})
	case dt == st.Elem() && dt.Size() > 0 && !typeHasPointers(dt):
		s.plan.CompareAndSwap(nil, &receiverPlan{def: def, src: typeWord(st), dst: typeWord(dt), size: dt.Size()})
	}
}

// typeHasPointers reports whether a value of type t may hold a pointer
// (a string, slice, map, channel, function, interface or pointer).
func typeHasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && typeHasPointers(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if typeHasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}
