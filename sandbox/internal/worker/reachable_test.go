package worker

import (
	"encoding/json"
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

// TestRefusedAPISharedWalksAdversarial compares the shared walk with
// per-symbol walks on a table built to trip a memo: cycles that reach a
// leak only on their far side (so a walk that cut a cycle short could
// mark its start clean), mutually recursive interfaces, a leak behind a
// pointer receiver only, behind a generic instantiation, a map key, a
// channel, a function's parameter of a parameter, and a promoted field.
// Map order varies the order of the walks from run to run.
func TestRefusedAPISharedWalksAdversarial(t *testing.T) {
	tab := map[string]map[string]reflect.Value{
		"a/a": {
			"RingA":    reflect.ValueOf((*advRingA)(nil)),
			"RingB":    reflect.ValueOf((*advRingB)(nil)),
			"RingC":    reflect.ValueOf((*advRingC)(nil)),
			"CleanA":   reflect.ValueOf((*advCleanA)(nil)),
			"CleanB":   reflect.ValueOf((*advCleanB)(nil)),
			"IfaceX":   reflect.ValueOf((*advIfaceX)(nil)),
			"IfaceY":   reflect.ValueOf((*advIfaceY)(nil)),
			"NewX":     reflect.ValueOf(func() advIfaceX { return nil }),
			"PtrOnly":  reflect.ValueOf((*advPtrOnly)(nil)),
			"ValueUse": reflect.ValueOf(func(advPtrOnly) {}),
			"Boxed":    reflect.ValueOf((*advBox[reflect.Kind])(nil)),
			"BoxedInt": reflect.ValueOf((*advBox[int])(nil)),
			"MapKey":   reflect.ValueOf(map[advKey]int{}),
			"Chan":     reflect.ValueOf(make(chan advRingB)),
			"Callback": reflect.ValueOf(func(func(func(advCleanA) advRingC)) {}),
			"Promotes": reflect.ValueOf((*advPromotes)(nil)),
			"SelfRef":  reflect.ValueOf((*advSelf)(nil)),
			"CutA":     reflect.ValueOf((*advCutA)(nil)),
			"CutB":     reflect.ValueOf((*advCutB)(nil)),
		},
		"b/b": {
			"UsesRing": reflect.ValueOf(func(*advRingA) {}),
			"UsesSelf": reflect.ValueOf(func() []map[string]*advSelf { return nil }),
			"Clean":    reflect.ValueOf(func(advCleanB) advCleanA { return advCleanA{} }),
		},
	}
	var alone []leak
	for pkg, syms := range tab {
		for name, v := range syms {
			alone = append(alone, refusedAPI(map[string]map[string]reflect.Value{pkg: {name: v}})...)
		}
	}
	sort.Slice(alone, func(i, j int) bool { return alone[i].Symbol < alone[j].Symbol })
	clean := map[string]bool{"a/a.CleanA": true, "a/a.CleanB": true, "a/a.BoxedInt": true, "b/b.Clean": true, "a/a.SelfRef": true, "b/b.UsesSelf": true}
	var leaky []string
	for _, l := range alone {
		leaky = append(leaky, l.Symbol)
		if clean[l.Symbol] {
			t.Errorf("%s found leaking alone (%s), but reaches no refused type", l.Symbol, l.Path)
		}
	}
	if want := len(tab["a/a"]) + len(tab["b/b"]) - len(clean); len(alone) != want {
		t.Errorf("alone: %d leaks %v, want %d", len(alone), leaky, want)
	}
	for range 50 {
		if together := refusedAPI(tab); !reflect.DeepEqual(together, alone) {
			t.Fatalf("walked together:\n%v\nwalked alone:\n%v", together, alone)
		}
	}
}

// A ring of three types; only the last reaches reflect.
type advRingA struct{ Next *advRingB }
type advRingB struct {
	Next *advRingC
	Back *advRingA
}
type advRingC struct {
	Start *advRingA
	Kind  reflect.Kind
}

// Clean types that share the ring's shape.
type advCleanA struct {
	B  *advCleanB
	Fn func(advCleanA) advCleanB
}
type advCleanB struct{ A []advCleanA }

// Interfaces that return each other; the leak is a parameter of Y's.
type advIfaceX interface{ Y() advIfaceY }
type advIfaceY interface {
	X() advIfaceX
	Leak(func(reflect.Type))
}

// The leak is in the pointer receiver's method set only.
type advPtrOnly struct{ N int }

func (*advPtrOnly) T() reflect.Type { return nil }

type advBox[T any] struct{ V T }

type advKey struct{ P *advRingC }

type advPromotes struct{ advHidden }
type advHidden struct{ R *advRingB }

// B is finished, its only way on (back to A) cut as seen, before A's
// leak is found: B must not count as clean.
type advCutA struct {
	B    *advCutB
	Kind reflect.Kind
}
type advCutB struct{ A *advCutA }

// A clean type referring to itself through every container.
type advSelf struct {
	M map[*advSelf][]chan advSelf
	F func(advSelf) *advSelf
}

func (advSelf) Again() advSelf { return advSelf{} }

// TestCheckCallbackArgTypes: the values compiled code may not hand to a
// cell function are those of package reflect or unsafe and unnamed types
// built from them; named types of allowed packages pass (their fields
// are checked when something reads them).
func TestCheckCallbackArgTypes(t *testing.T) {
	type named struct{ V reflect.Value }
	tests := []struct {
		v       any
		refused bool
	}{
		{reflect.TypeOf(0), true},
		{reflect.ValueOf(0), true},
		{reflect.Int, true},
		{unsafe.Pointer(nil), true},
		{[]reflect.Value{}, true},
		{&[1]reflect.Type{}, true},
		{map[string]reflect.Value{}, true},
		{map[reflect.Kind]int{}, true},
		{make(chan reflect.Value), true},
		{func(reflect.Type) {}, true},
		{func() unsafe.Pointer { return nil }, true},
		{struct{ v reflect.Value }{}, true},
		{0, false},
		{"s", false},
		// Not looked into: the interpreter checks each element of a
		// variadic call's ...any, and nothing compiled builds such a slice
		// holding reflect values for a cell.
		{[]any{reflect.ValueOf(0)}, false},
		{named{}, false},
		{&named{}, false},
		{&json.UnmarshalTypeError{}, false},
		{func(int) string { return "" }, false},
		{struct{ A []int }{}, false},
	}
	g := new(callbackGuard)
	for range 2 { // the second time from the cache
		for _, tc := range tests {
			err := g.check(reflect.ValueOf(tc.v))
			if (err != nil) != tc.refused {
				t.Errorf("%T: %v, want refused %v", tc.v, err, tc.refused)
			}
		}
	}
}
