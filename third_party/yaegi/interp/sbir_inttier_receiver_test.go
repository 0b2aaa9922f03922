package interp

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestSbirIntTierReceiverPointer checks how a method of the int tier
// finds its receiver's struct from the Value a call site gives (sbir
// patch S17): a pointer held directly, in a variable or in a field of a
// struct copy, and an addressable struct, give the struct's address,
// read from the Value's words (the probe must hold on this Go, or the
// fast path is never taken); a nil pointer, a struct that is not
// addressable and a Value of another type give nil, and the call runs in
// the interpreter.
func TestSbirIntTierReceiverPointer(t *testing.T) {
	if !ptrIndir.ok {
		t.Fatal("reflect.Value's pointer words were not probed: every receiver goes through reflect")
	}
	type acct struct{ a, b int }
	type holder struct{ P, Q *acct }
	x := &acct{a: 1}
	var nilAcct *acct
	arr := []acct{{a: 2}}
	rt := reflect.TypeOf(acct{})
	m := &intMethod{ptr: true, rtype: rt, ptrTyp: typeWord(reflect.PointerTo(rt)), valTyp: typeWord(rt)}
	tests := []struct {
		name string
		v    reflect.Value
		want unsafe.Pointer
	}{
		{"pointer", reflect.ValueOf(x), unsafe.Pointer(x)},
		{"pointer variable", reflect.ValueOf(&x).Elem(), unsafe.Pointer(x)},
		{"pointer field of a copy", reflect.ValueOf(holder{P: x}).Field(0), unsafe.Pointer(x)},
		{"addressable struct", reflect.ValueOf(arr).Index(0), unsafe.Pointer(&arr[0])},
		{"struct copy", reflect.ValueOf(acct{}), nil},
		{"nil pointer", reflect.ValueOf(nilAcct), nil},
		{"nil pointer variable", reflect.ValueOf(&nilAcct).Elem(), nil},
		{"another type", reflect.ValueOf(&holder{}), nil},
		{"an interface", reflect.ValueOf(&[]any{x}).Elem().Index(0), nil},
	}
	for _, tt := range tests {
		if got := m.pointer(tt.v); got != tt.want {
			t.Errorf("%s: pointer = %p, want %p", tt.name, got, tt.want)
		}
	}
}
