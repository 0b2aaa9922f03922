package interp

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// withoutClosureReading turns sbir patch S12 off for the rest of the test:
// function values are recorded and looked up as S3 does, as when the
// closures of the binary do not show the layout probeClosures expects.
func withoutClosureReading(t *testing.T) {
	t.Helper()
	saved := closures
	closures = closureLayout{}
	t.Cleanup(func() { closures = saved })
}

// TestSbirClosureLayoutProbed checks that sbir patch S12 reads the
// closures of this toolchain: every typed callback, and MakeFunc values.
func TestSbirClosureLayoutProbed(t *testing.T) {
	if got, want := len(closures.typed), len(typedCallbackTypes); got != want {
		t.Errorf("%d typed callback closures read, want %d", got, want)
	}
	if closures.fnWord == 0 || closures.stub == 0 || closures.madeCode == 0 {
		t.Errorf("MakeFunc values not read: %+v", closures)
	}
	c := probeCallback(typeNone)
	for _, v := range []reflect.Value{c.makeFunc(typeNone, nil), c.makeFunc(reflect.TypeOf(func(int) int { return 0 }), nil)} {
		if got := madeCallback(funcObject(v)); got != c {
			t.Errorf("%v: callback %p read, want %p", v.Type(), got, c)
		}
	}
	// Function values the interpreter did not make are not its own: a
	// compiled function, a closure, a method value, another MakeFunc.
	k := 3
	others := []any{strings.ToUpper, func() int { return k }, c.first, (&madeFunc{cb: c}).call,
		reflect.MakeFunc(typeNone, func([]reflect.Value) []reflect.Value { return nil }).Interface()}
	for _, f := range others {
		if got := madeCallback(funcObject(reflect.ValueOf(f))); got != nil {
			t.Errorf("%T: callback %p read from a value the interpreter did not make", f, got)
		}
	}
}

// TestSbirClosuresNotRecorded checks that with sbir patch S12 the
// closures an evaluation makes are called directly without a record of
// S3: making one stores nothing, and calling one does not go through
// reflect (a call through reflect would show in a panic's stack as
// reflect's, and the direct call is what S3 made of it).
func TestSbirClosuresNotRecorded(t *testing.T) {
	var out bytes.Buffer
	i := New(Options{Stdout: &out})
	if _, err := i.Eval(`
func counter() func() int {
	c := 0
	return func() int { c++; return c }
}

func adder(k int) func(int) int { return func(x int) int { return x + k } }

func run() int {
	next := counter()
	adders := []func(int) int{adder(1), adder(2)}
	total := 0
	for i := 0; i < 10; i++ {
		total += adders[i%2](next())
	}
	return total
}`); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval(`run()`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 70 {
		t.Errorf("run() = %d, want 70", v.Int())
	}
	n := 0
	i.funcs.Range(func(any, any) bool { n++; return true })
	if n != 0 {
		t.Errorf("%d function values recorded, want none: call reads them from the values", n)
	}
}

// TestSbirClosureMakingAllocates checks what making a closure costs with
// sbir patch S12, which makes no record of it: the record, its weak
// pointers, its cleanup and its entry in the map were about 7 of the 17
// allocations of a closure made and called once.
func TestSbirClosureMakingAllocates(t *testing.T) {
	perClosure := func(t *testing.T) float64 {
		i := New(Options{})
		if _, err := i.Eval(`func churn(n int) int {
	s := 0
	for j := 0; j < n; j++ {
		f := func(x int) int { return x + j }
		s = f(s)
	}
	return s
}`); err != nil {
			t.Fatal(err)
		}
		run := func(n int) float64 {
			prog, err := i.Compile(fmt.Sprintf("churn(%d)", n))
			if err != nil {
				t.Fatal(err)
			}
			return testing.AllocsPerRun(3, func() {
				if _, err := i.Execute(prog); err != nil {
					t.Fatal(err)
				}
			})
		}
		return (run(2000) - run(1000)) / 1000
	}
	read := perClosure(t)
	t.Run("recorded", func(t *testing.T) {
		withoutClosureReading(t)
		recorded := perClosure(t)
		t.Logf("allocations per closure made and called: %.1f read, %.1f recorded", read, recorded)
		if read > recorded-5 {
			t.Errorf("%.1f allocations per closure made and called, want at least 5 fewer than with records (%.1f)", read, recorded)
		}
	})
}

// TestSbirClosureReadingAgreesWithRecords runs cells that declare
// functions again (sbir patch 52) around closures made before and after,
// with sbir patch S12 reading function values and with S3's records: the
// answers are the same.
func TestSbirClosureReadingAgreesWithRecords(t *testing.T) {
	cells := []string{
		`func mk() func() int { n := 0; return func() int { n++; return n } }`,
		`func twice(x int) int { return 2 * x }`,
		`f := mk(); g := twice; h := func(x int) int { return twice(x) + f() }; keep := map[string]func(int) int{"g": g, "h": h}`,
		`func mk() func() int { return func() int { return 100 } }`,
		`func twice(x int) int { return 20 * x }`,
		`f2 := mk(); var self func(int) int; self = func(k int) int { if k == 0 { return f() }; return self(k-1) + keep["h"](k) }`,
		`r := []int{f(), f2(), g(1), h(1), keep["g"](2), keep["h"](3), self(3)}`,
	}
	run := func(t *testing.T) string {
		i := New(Options{})
		for _, c := range cells {
			if _, err := i.Eval(c); err != nil {
				t.Fatalf("%s: %v", c, err)
			}
		}
		v, err := i.Eval(`r`)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(v.Interface())
	}
	read := run(t)
	t.Run("recorded", func(t *testing.T) {
		withoutClosureReading(t)
		if recorded := run(t); recorded != read {
			t.Errorf("read from the values: %s; recorded: %s", read, recorded)
		}
		t.Logf("%s", read)
	})
}
