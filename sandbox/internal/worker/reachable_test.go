package worker

import (
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
)

// TestNoRefusedAPIReachable walks the whole allow-listed symbol table by
// reflection: after the worker hides what it must, no reflect or unsafe
// type is reachable through any exported field, method, parameter or
// result. The hidden symbols are listed so that a regenerated table that
// hides more (or less) is noticed; the symbols package should stop
// exporting them (see hideRefusedAPI).
func TestNoRefusedAPIReachable(t *testing.T) {
	ex := symbols.Exports(symbols.Options{})
	hidden := hideRefusedAPI(ex)
	if left := refusedAPI(ex); len(left) > 0 {
		t.Errorf("still reachable after hiding: %v", left)
	}
	want := []leak{
		{"encoding/json/json.InvalidUnmarshalError", ".Type reflect.Type"},
		{"encoding/json/json.MarshalerError", ".Type reflect.Type"},
		{"encoding/json/json.UnmarshalFieldError", ".Type reflect.Type"},
		{"encoding/json/json.UnmarshalTypeError", ".Type reflect.Type"},
		{"encoding/json/json.UnsupportedTypeError", ".Type reflect.Type"},
		{"encoding/json/json.UnsupportedValueError", ".Value reflect.Value"},
	}
	if fmt.Sprint(hidden) != fmt.Sprint(want) {
		t.Errorf("hidden symbols changed:\n got %v\nwant %v", hidden, want)
	}
}

// TestWalkerFindsLeaks checks the walker itself on the paths it must
// follow: a field, a method result, a map key, a function parameter, a
// pointer to a struct, an unsafe.Pointer.
func TestWalkerFindsLeaks(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{(*struct{ A []reflect.Value })(nil), ".A[] reflect.Value"},
		{(*leakyMethod)(nil), ".T(result) reflect.Type"},
		{(*struct{ M map[reflect.Kind]int })(nil), ".M[key] reflect.Kind"},
		{func(func(reflect.Type)) {}, "(arg)(arg) reflect.Type"},
		{(*struct{ P *struct{ U unsafe.Pointer } })(nil), ".P[].U unsafe.Pointer"},
		{(*struct{ hidden reflect.Value })(nil), ""},
	}
	for _, tc := range tests {
		ex := map[string]map[string]reflect.Value{"p/p": {"X": reflect.ValueOf(tc.v)}}
		got := refusedAPI(ex)
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%T: found %v, want nothing (unexported)", tc.v, got)
		case tc.want != "" && (len(got) != 1 || got[0].Path != tc.want):
			t.Errorf("%T: found %v, want %q", tc.v, got, tc.want)
		}
	}
}

type leakyMethod struct{}

func (leakyMethod) T() reflect.Type { return nil }
