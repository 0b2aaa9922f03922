package interp

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestSbirReceiverSite checks what a call site of a method learns of its
// receivers (sbir patch S11a): a pointer for a pointer receiver, a
// pointer to a struct without pointers for a value receiver, and nothing
// for a struct with a pointer (a string) or a receiver that is not a
// pointer; and that what it stores is what setReceiver stores.
func TestSbirReceiverSite(t *testing.T) {
	type plain struct{ a, b int }
	type text struct {
		a int
		s string
	}
	def, other := &node{}, &node{}
	slot := func(v any) reflect.Value { return reflect.New(reflect.TypeOf(v)).Elem() }
	local := func(v any) reflect.Value { // an addressable local holding v
		x := reflect.New(reflect.TypeOf(v)).Elem()
		x.Set(reflect.ValueOf(v))
		return x
	}
	p := &plain{1, 2}
	tests := []struct {
		name      string
		dest, src reflect.Value
		learns    bool
		want      any
	}{
		{"pointer receiver", slot(p), local(p), true, p},
		{"value receiver", slot(plain{}), local(p), true, plain{1, 2}},
		{"value with a string", slot(text{}), local(&text{3, "x"}), false, text{3, "x"}},
		{"value from a value", slot(plain{}), local(plain{5, 6}), false, plain{5, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s receiverSite
			for k := 0; k < 3; k++ {
				tt.dest.SetZero()
				s.set(def, tt.dest, tt.src)
				if got := tt.dest.Interface(); !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("call %d: receiver %v, want %v", k, got, tt.want)
				}
			}
			if got := s.plan.Load() != nil; got != tt.learns {
				t.Errorf("plan learnt: %v, want %v", got, tt.learns)
			}
			// Another method at the site (a redeclaration): setReceiver's way.
			tt.dest.SetZero()
			s.set(other, tt.dest, tt.src)
			if got := tt.dest.Interface(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("another method: receiver %v, want %v", got, tt.want)
			}
		})
	}
	// A nil pointer for a value receiver: gc's runtime error (patch 104).
	var s receiverSite
	for k := 0; k < 2; k++ {
		func() {
			defer func() {
				err, _ := recover().(runtime.Error)
				if err == nil || !strings.Contains(err.Error(), "nil pointer dereference") {
					t.Errorf("nil receiver: panic %v, want a nil pointer dereference", err)
				}
			}()
			s.set(def, slot(plain{}), local((*plain)(nil)))
		}()
		s.set(def, slot(plain{}), local(p)) // then learn
	}
}
