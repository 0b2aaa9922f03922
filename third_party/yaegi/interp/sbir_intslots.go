package interp

import (
	"reflect"
	"unsafe"
)

// sbir patch S16: the direct operators of S7 read and write the frame's
// ints and bools at their addresses. reflect.Value.SetInt and SetBool
// are not inlined, check that the value is settable and switch on its
// kind (eight integer kinds for SetInt) at every store: in a loop of
// method calls they were a tenth of the instructions. A Value of kind
// Int or Bool is never pointer-shaped, so its pointer word always points
// at the value (valueWords). Whether a Value is a settable int (or bool)
// is one comparison of its flag word with the flag of a settable int
// that reflect made when the package started: any other (another kind,
// not addressable, read-only) goes through reflect, which panics as it
// did. Each function here is small enough to be inlined.

// slotFlags are the flag words of settable int and bool Values, as
// reflect sets them, or ^0 (no Value's) when reflect.Value does not have
// the layout of valueWords.
type slotFlags struct{ setInt, setBool uintptr }

var (
	// fastInt is reflect.Int when valueWordsOK, else no Kind at all.
	fastInt = func() reflect.Kind {
		if valueWordsOK {
			return reflect.Int
		}
		return reflect.Kind(255)
	}()
	flagsOf = func() slotFlags {
		if !valueWordsOK {
			return slotFlags{^uintptr(0), ^uintptr(0)}
		}
		i, b := reflect.ValueOf(new(int)).Elem(), reflect.ValueOf(new(bool)).Elem()
		return slotFlags{(*valueWords)(unsafe.Pointer(&i)).flag, (*valueWords)(unsafe.Pointer(&b)).flag}
	}()
)

// intOf returns the int v holds; v is of kind Int (S7's operands).
func intOf(v reflect.Value) int64 {
	if v.Kind() == fastInt {
		return int64(*(*int)((*valueWords)(unsafe.Pointer(&v)).ptr))
	}
	return reflectInt(v)
}

// setInt stores x in v, as v.SetInt(x).
func setInt(v reflect.Value, x int64) {
	if w := (*valueWords)(unsafe.Pointer(&v)); w.flag == flagsOf.setInt {
		*(*int)(w.ptr) = int(x)
		return
	}
	reflectSetInt(v, x)
}

// setBool stores x in v, as v.SetBool(x).
func setBool(v reflect.Value, x bool) {
	if w := (*valueWords)(unsafe.Pointer(&v)); w.flag == flagsOf.setBool {
		*(*bool)(w.ptr) = x
		return
	}
	reflectSetBool(v, x)
}

// The other cases, out of line so that the functions above are inlined.

//go:noinline
func reflectInt(v reflect.Value) int64 { return v.Int() }

//go:noinline
func reflectSetInt(v reflect.Value, x int64) { v.SetInt(x) }

//go:noinline
func reflectSetBool(v reflect.Value, x bool) { v.SetBool(x) }
