package worker

import "reflect"

// stackBuffer is the size of the stack buffer gc gives a slice that does
// not escape its function, which its first growth takes (cmd/compile's
// VariableMakeThreshold).
const stackBuffer = 32

// stackCap is _sbir.StackCap, which the helper _sbirStackBuf calls where
// cellprep marked the first append to a top-level slice that cannot
// escape (cellprep/stackbuf.go): the capacity gc's first growth gives the
// empty slice s by n values when they fit its buffer, or 0 when gc would
// not use the buffer (s not empty or not growing, elements of no size or
// over 32 bytes, more values than fit).
func stackCap(s any, n int) int {
	v := reflect.ValueOf(s)
	if v.Kind() != reflect.Slice || v.Len() != 0 || v.Cap() >= n {
		return 0
	}
	size, _, ok := gcSize(v.Type().Elem(), 0)
	if !ok || size == 0 || size > stackBuffer || uintptr(n) > stackBuffer/size {
		return 0
	}
	return int(stackBuffer / size)
}

// gcSize returns the size and alignment gc gives a value of the type
// whose reflect type the interpreter built as t: an interface of the
// cell's is a yaegi valueInterface there (32 bytes), where gc's
// interfaces take 16. ok is false for a type it does not size.
func gcSize(t reflect.Type, depth int) (size, align uintptr, ok bool) {
	if depth > 10 {
		return 0, 0, false
	}
	if t.Name() == "valueInterface" && t.PkgPath() == "github.com/traefik/yaegi/interp" {
		return 16, 8, true
	}
	switch t.Kind() {
	case reflect.Struct:
		var off, maxAlign uintptr = 0, 1
		for i := range t.NumField() {
			s, a, ok := gcSize(t.Field(i).Type, depth+1)
			if !ok {
				return 0, 0, false
			}
			off = (off+a-1)&^(a-1) + s
			maxAlign = max(maxAlign, a)
		}
		if n := t.NumField(); n > 0 && off > 0 {
			if s, _, _ := gcSize(t.Field(n-1).Type, depth+1); s == 0 {
				off++ // a final zero-size field gets a byte
			}
		}
		return (off + maxAlign - 1) &^ (maxAlign - 1), maxAlign, true
	case reflect.Array:
		s, a, ok := gcSize(t.Elem(), depth+1)
		return s * uintptr(t.Len()), a, ok
	}
	return t.Size(), uintptr(t.Align()), true
}
