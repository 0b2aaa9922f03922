package interp

import (
	"reflect"
	"strconv"
	"strings"
)

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

// sbir patch 39: slice expressions out of range fail with gc's runtime
// errors ("slice bounds out of range [:50000] with capacity 2000"), not
// reflect's "reflect.Value.Slice: slice index out of bounds".

// sliceChecked returns v[i:j] (v a slice, an array or a string), panicking
// as gc's bounds checks do when the indexes are out of range.
func sliceChecked(v reflect.Value, i, j int) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if i < 0 || j < i || j > v.Cap() {
			sliceBoundsPanic(v.Len(), v.Cap(), i, j)
		}
	case reflect.String:
		if i < 0 || j < i || j > v.Len() {
			stringBoundsPanic(v.String(), i, j)
		}
	case reflect.Array:
		if i < 0 || j < i || j > v.Len() {
			arrayBoundsPanic(v.Len(), i, j, -1)
		}
	}
	return v.Slice(i, j)
}

// slice3Checked returns v[i:j:k] (v a slice or an array), panicking as
// gc's bounds checks do when the indexes are out of range.
func slice3Checked(v reflect.Value, i, j, k int) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if i < 0 || j < i || k < j || k > v.Cap() {
			slice3BoundsPanic(v.Len(), v.Cap(), i, j, k)
		}
	case reflect.Array:
		if i < 0 || j < i || k < j || k > v.Len() {
			arrayBoundsPanic(v.Len(), i, j, k)
		}
	}
	return v.Slice3(i, j, k)
}

// sliceBoundsPanic raises the runtime's own error for s[i:j] on a slice
// of length n and capacity c, by making the same mistake on a slice of
// empty structs, which allocates nothing.
//
//go:noinline
func sliceBoundsPanic(n, c, i, j int) {
	s := make([]struct{}, n, c)
	_ = s[i:j]
	panic("unreachable: slice in range")
}

// slice3BoundsPanic is sliceBoundsPanic for s[i:j:k].
//
//go:noinline
func slice3BoundsPanic(n, c, i, j, k int) {
	s := make([]struct{}, n, c)
	_ = s[i:j:k]
	panic("unreachable: slice in range")
}

// stringBoundsPanic raises the runtime's own error for s[i:j].
//
//go:noinline
func stringBoundsPanic(s string, i, j int) {
	_ = s[i:j]
	panic("unreachable: slice in range")
}

// arrayBoundsPanic raises an error worded as the runtime's for a[i:j]
// (k < 0) or a[i:j:k] on an array of length n, checked in gc's order:
// the high (or max) bound first, then each bound against the next.
// The runtime's own error for arrays cannot be had without an array of
// that length, so this one is a runtime.Error of the same text.
func arrayBoundsPanic(n, i, j, k int) {
	var msg string
	switch {
	case k < 0 && uint(j) > uint(n):
		msg = boundsText("[:%x]", " with length %y", j, n)
	case k < 0:
		msg = boundsText("[%x:", "%y]", i, j)
	case uint(k) > uint(n):
		msg = boundsText("[::%x]", " with length %y", k, n)
	case uint(j) > uint(k):
		msg = boundsText("[:%x:", "%y]", j, k)
	default:
		msg = boundsText("[%x:", "%y:]", i, j)
	}
	panic(boundsError("slice bounds out of range " + msg))
}

// boundsText formats x in head and y in tail as the runtime does: a
// negative x is printed without the tail (and a tail starting with a
// bound becomes ":" or ":]" as the runtime's negative formats have it).
func boundsText(head, tail string, x, y int) string {
	h := strings.Replace(head, "%x", strconv.Itoa(x), 1)
	if x < 0 {
		switch tail {
		case "%y]":
			return h + "]"
		case "%y:]":
			return h + ":]"
		}
		return h
	}
	return h + strings.Replace(tail, "%y", strconv.Itoa(y), 1)
}

// boundsError is a runtime.Error worded as the runtime's bounds errors.
type boundsError string

func (e boundsError) Error() string { return "runtime error: " + string(e) }

// RuntimeError marks boundsError as a runtime.Error.
func (boundsError) RuntimeError() {}

// genSliceToArray checks, before the conversion of a slice to the array
// (or pointer to array) type typ, that the slice is long enough.
func genSliceToArray(value func(*frame) reflect.Value, typ reflect.Type) func(*frame) reflect.Value {
	if typ.Kind() == reflect.Ptr {
		typ = typ.Elem()
	}
	n := typ.Len()
	return func(f *frame) reflect.Value {
		v := value(f)
		if l := v.Len(); l < n {
			panic(boundsError("cannot convert slice with length " + strconv.Itoa(l) +
				" to array or pointer to array with length " + strconv.Itoa(n)))
		}
		return v
	}
}

// sbir patch 101: a field promoted through a nil embedded pointer (w.a,
// with w's embedded *inner nil) fails with gc's runtime error ("invalid
// memory address or nil pointer dereference"), not reflect's
// "reflect: indirection through nil pointer to embedded struct".

// fieldByIndexChecked returns v.FieldByIndex(index), panicking as gc's
// code does when a step goes through a nil embedded pointer.
func fieldByIndexChecked(v reflect.Value, index []int) reflect.Value {
	if len(index) == 1 {
		return v.Field(index[0])
	}
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct {
			if v.IsNil() {
				nilPanic()
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}
