package worker

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
	"github.com/traefik/yaegi/interp"
)

// TestNoRefusedAPIReachable walks the whole allow-listed symbol table by
// reflection: after the worker hides what it must, no reflect or unsafe
// type is reachable through any exported field, method, parameter or
// result. The hidden symbols are logged (the symbols package should stop
// exporting them); the json error types of issue 13 must be among them.
func TestNoRefusedAPIReachable(t *testing.T) {
	ex := symbols.Exports(symbols.Options{})
	hidden := hideRefusedAPI(ex)
	if left := refusedAPI(ex); len(left) > 0 {
		t.Errorf("still reachable after hiding: %v", left)
	}
	for _, l := range hidden {
		t.Logf("hidden: %s%s", l.Symbol, l.Path)
	}
	got := fmt.Sprint(hidden)
	for _, want := range []leak{
		{"encoding/json/json.InvalidUnmarshalError", ".Type reflect.Type"},
		{"encoding/json/json.MarshalerError", ".Type reflect.Type"},
		{"encoding/json/json.UnmarshalFieldError", ".Type reflect.Type"},
		{"encoding/json/json.UnmarshalTypeError", ".Type reflect.Type"},
		{"encoding/json/json.UnsupportedTypeError", ".Type reflect.Type"},
		{"encoding/json/json.UnsupportedValueError", ".Value reflect.Value"},
	} {
		if !strings.Contains(got, fmt.Sprint(want)) {
			t.Errorf("%s%s is not hidden", want.Symbol, want.Path)
		}
	}
	if _, ok := ex["."]; ok && !ex["."]["MapTypes"].IsValid() {
		t.Error("yaegi's MapTypes directive was removed")
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

// TestRefusedAPISharedWalks checks that what one walk learned (the types
// it found clean) does not change another's answer: the whole table
// walked at once reports exactly what each symbol walked alone reports.
func TestRefusedAPISharedWalks(t *testing.T) {
	ex := symbols.Exports(symbols.Options{})
	var alone []leak
	for pkg, syms := range ex {
		for name, v := range syms {
			alone = append(alone, refusedAPI(map[string]map[string]reflect.Value{pkg: {name: v}})...)
		}
	}
	sort.Slice(alone, func(i, j int) bool { return alone[i].Symbol < alone[j].Symbol })
	for range 5 { // map order varies from run to run
		if together := refusedAPI(ex); !reflect.DeepEqual(together, alone) {
			t.Fatalf("walked together:\n%v\nwalked alone:\n%v", together, alone)
		}
	}

	// A type shared by a clean symbol and a leaky one, in both orders.
	type inner struct{ V reflect.Value }
	type shared struct{ N int }
	type leaky struct {
		S shared
		I inner
	}
	for _, names := range [][2]string{{"A", "B"}, {"B", "A"}} {
		tab := map[string]map[string]reflect.Value{"p/p": {
			names[0]: reflect.ValueOf((*shared)(nil)),
			names[1]: reflect.ValueOf((*leaky)(nil)),
		}}
		got := refusedAPI(tab)
		if len(got) != 1 || got[0].Symbol != "p/p."+names[1] || got[0].Path != ".I.V reflect.Value" {
			t.Errorf("clean %s, leaky %s: found %v", names[0], names[1], got)
		}
	}
}

// TestWalkerFindsPromotedLeaks: a cell reaches what an unexported
// embedded field promotes (its exported fields, and the methods it gives
// an unnamed struct) as it reaches a struct's own fields and methods. For
// each symbol the test first shows a cell getting a reflect value through
// it in a real interpreter, then that the walker finds it and that hiding
// it leaves the cell no such name.
func TestWalkerFindsPromotedLeaks(t *testing.T) {
	tests := []struct {
		v    any
		cell string // reaches a refused type through p.X
		want string
	}{
		{func() PromotesField { return PromotesField{promotedField{reflect.ValueOf(42)}} },
			"p.X().V.Int()", "(result).V reflect.Value"},
		{func() PromotesThroughPointer {
			return PromotesThroughPointer{&promotedField{reflect.ValueOf(42)}}
		}, "p.X().V.Int()", "(result).V reflect.Value"},
		{func() struct{ leakyMethod } { return struct{ leakyMethod }{} },
			"p.X().T() == nil", "(result).T(result) reflect.Type"},
		{(*struct{ leakyMethod })(nil), "p.X{}.T() == nil", ".T(result) reflect.Type"},
	}
	for _, tc := range tests {
		table := func() map[string]map[string]reflect.Value {
			return map[string]map[string]reflect.Value{"p/p": {"X": reflect.ValueOf(tc.v)}}
		}
		in := interp.New(interp.Options{})
		if err := in.Use(table()); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Eval(`import "p"`); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Eval(tc.cell); err != nil {
			t.Fatalf("%T: %s: %v (the case must be reachable by a cell)", tc.v, tc.cell, err)
		}

		ex := table()
		got := hideRefusedAPI(ex)
		if len(got) != 1 || got[0].Path != tc.want {
			t.Errorf("%T: found %v, want %q", tc.v, got, tc.want)
			continue
		}
		in = interp.New(interp.Options{})
		if err := in.Use(ex); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Eval(`import "p"`); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Eval(tc.cell); err == nil || !strings.Contains(err.Error(), "has no symbol X") && !strings.Contains(err.Error(), "undefined type") {
			t.Errorf("%T: %s after hiding: %v, want p.X unknown", tc.v, tc.cell, err)
		}
	}
}

type promotedField struct{ V reflect.Value }

// PromotesField is exported; the field it promotes comes from an
// unexported type.
type PromotesField struct{ promotedField }

// PromotesThroughPointer embeds a pointer to the unexported type.
type PromotesThroughPointer struct{ *promotedField }
