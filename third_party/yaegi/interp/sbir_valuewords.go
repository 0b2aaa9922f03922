package interp

import (
	"reflect"
	"unsafe"
)

// sbir patch S11: the fast paths of S11a and S11b read a reflect.Value's
// type and address as the words it is made of, rather than through
// Value.Type and Value.UnsafeAddr (which are not inlined, and Type
// returns an interface that must then be compared): a tenth of a method
// call's cost. valueWordsOK checks, once, that a Value has the layout
// assumed here; when it does not (another Go release), the fast paths
// are never taken.

// valueWords is the layout of a reflect.Value: the type of its value, a
// pointer to it (or the value itself, for pointer-shaped values not
// addressable), and its flags.
type valueWords struct {
	typ  unsafe.Pointer
	ptr  unsafe.Pointer
	flag uintptr
}

// valueWordsOK reports whether reflect.Value has the layout of
// valueWords: an addressable int's words are its type and its address.
var valueWordsOK = func() bool {
	if unsafe.Sizeof(reflect.Value{}) != unsafe.Sizeof(valueWords{}) {
		return false
	}
	x := new(int)
	v := reflect.ValueOf(x).Elem()
	w := (*valueWords)(unsafe.Pointer(&v))
	return v.CanAddr() && w.typ == typeWord(v.Type()) && w.ptr == unsafe.Pointer(x)
}()

// typeWord returns the address of t's type descriptor: the data word of
// the interface, a *reflect.rtype.
func typeWord(t reflect.Type) unsafe.Pointer {
	if t == nil {
		return nil
	}
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1]
}

// addrOfType returns the address of v's value when v is addressable and
// of the type whose descriptor is typ, or nil.
func addrOfType(v reflect.Value, typ unsafe.Pointer) unsafe.Pointer {
	w := (*valueWords)(unsafe.Pointer(&v))
	if !v.CanAddr() || w.typ != typ || typ == nil || !valueWordsOK {
		return nil
	}
	return w.ptr
}
