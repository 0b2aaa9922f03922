package interp

import "reflect"

// sbir patch 10c: index and field operations on slices, arrays, strings
// and pointers fail with the runtime errors gc's code fails with
// ("index out of range [5] with length 3", "invalid memory address or nil
// pointer dereference"), not with the reflect panics of the same mistake.

// indexChecked returns v.Index(i), panicking as gc's bounds check does
// when i is out of range.
func indexChecked(v reflect.Value, i int) reflect.Value {
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.String:
		if n := v.Len(); i < 0 || i >= n {
			boundsPanic(i, n)
		}
	}
	return v.Index(i)
}

// elemChecked returns v.Elem(), panicking as gc's code does when v is a
// nil pointer.
func elemChecked(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		nilPanic()
	}
	return v.Elem()
}

// boundsPanic raises the runtime's own error for index i of a length n
// (a runtime.Error with the runtime's wording), by making the same
// mistake on a slice of n empty structs, which allocates nothing.
//
//go:noinline
func boundsPanic(i, n int) {
	s := make([]struct{}, n)
	_ = s[i]
	panic("unreachable: index in range")
}

// nilPanic raises the runtime's own nil dereference error.
func nilPanic() {
	_ = loadInt(nil)
	panic("unreachable: nil dereferenced")
}

//go:noinline
func loadInt(p *int) int { return *p }
