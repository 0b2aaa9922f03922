package interp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// frameReuseSymbols are the compiled functions the decisions below call.
var frameReuseSymbols = Exports{
	"fmt/fmt":         {"Sprint": reflect.ValueOf(fmt.Sprint)},
	"strings/strings": {"Fields": reflect.ValueOf(strings.Fields)},
}

// FramesReused returns how many functions and methods of i's main
// package use their frames again (sbir patch S8), for the tests of
// package interp_test.
func FramesReused(i *Interpreter) int {
	reused := func(n *node) bool {
		return n != nil && n.shape != nil && n.shape.frames.state.Load() == reuseYes
	}
	n := 0
	for _, s := range i.scopes[mainID].sym {
		if reused(s.node) {
			n++
		}
		if s.kind == typeSym && s.typ != nil {
			for _, m := range s.typ.method {
				if reused(m) {
					n++
				}
			}
		}
	}
	return n
}

// SpoilReleasedFrames makes i fill the values of each frame a call gives
// back with values no program computes, and drop the frame rather than
// use it again (sbir patch S8): a program that still reads a value of a
// call that returned, which reuse would change only when a later call
// wrote a different one, then reads garbage at once.
func SpoilReleasedFrames(i *Interpreter) {
	i.spoilFrame = func(values []reflect.Value) {
		for _, v := range values {
			spoil(v)
		}
	}
}

// spoil sets v, and each of its elements or fields, to a value unlikely
// to be a program's: odd numbers, a marked string, negated booleans.
// Pointers, slices, maps, channels, functions and interfaces become nil.
func spoil(v reflect.Value) {
	if !v.CanSet() {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem() // an unexported field
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := int64(-1234567)
		for v.OverflowInt(x) {
			x /= 100
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x := uint64(7654321)
		for v.OverflowUint(x) {
			x /= 100
		}
		v.SetUint(x)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(-777.5)
	case reflect.Complex64, reflect.Complex128:
		v.SetComplex(complex(-7, 7))
	case reflect.String:
		v.SetString("<spoiled>")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			spoil(v.Index(i))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			spoil(v.Field(i))
		}
	default:
		v.SetZero()
	}
}

// TestSbirFrameReuseDecision checks which functions sbir patch S8 lets
// use their frames again: those whose body can keep nothing of the frame
// past the call, and none of the others.
func TestSbirFrameReuseDecision(t *testing.T) {
	const decls = `
type point struct{ x, y int }
type counter struct{ n int }
func (c *counter) inc() { c.n++ }
func (c counter) get() int { return c.n }
var saved []point
func other(x int) int { return x }
`
	tests := []struct {
		name, src string
		want      bool
	}{
		{"recursion", `func f(n int) int { if n < 2 { return n }; return f(n-1) + f(n-2) }`, true},
		{"struct result", `func f(i int) point { p := point{i, 2 * i}; p.x++; return p }`, true},
		{"pointer receiver through a pointer", `func f(c *counter) int { c.inc(); return c.get() }`, true},
		{"append copies", `func f(p point) { saved = append(saved, p) }`, true},
		{"slice and map", `func f(xs []int, m map[string]int) int { m["a"] += xs[0]; return len(xs) }`, true},
		{"package function", `func f(s string) int { return len(strings.Fields(s)) }`, true},
		{"array value", `func f(k int) [3]int { var a [3]int; a[0] = k; return a }`, true},
		{"closure", `func f() func() int { c := 0; return func() int { c++; return c } }`, false},
		{"address", `func f() *int { x := 1; return &x }`, false},
		{"address of a literal", `func f() *point { return &point{1, 2} }`, false},
		{"defer", `func f() (r int) { defer func() { r++ }(); return 1 }`, false},
		{"deferred declared function", `func f() { defer other(1) }`, false},
		{"go", `func f() { go other(1) }`, false},
		{"recover", `func f() { recover() }`, false},
		{"interface result", `func f(x int) any { return x }`, false},
		{"interface argument", `func f(x int) string { return fmt.Sprint(x) }`, false},
		{"error result", `func f() error { return nil }`, false},
		{"method on a value", `func f() int { var c counter; c.inc(); return c.n }`, false},
		{"value method on a value", `func f() int { var c counter; return c.get() }`, false},
		{"function value", `func f() func(int) int { return other }`, false},
		{"method value", `func f(c *counter) func() { return c.inc }`, false},
		{"slice of an array", `func f() []int { var a [4]int; return a[:] }`, false},
		{"select", `func f(c chan int) int { select { case v := <-c: return v }; return 0 }`, false},
		{"range over a function", `func f(seq func(func(int) bool)) int { s := 0; for v := range seq { s += v }; return s }`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := New(Options{})
			if err := i.Use(frameReuseSymbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(`import ("fmt"; "strings"); var _ = fmt.Sprint; var _ = strings.Fields` + decls + tt.src); err != nil {
				t.Fatal(err)
			}
			fn := i.scopes[mainID].sym["f"].node
			if got := reusableFrames(fn); got != tt.want {
				t.Errorf("reusableFrames(%s) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

// TestSbirHoldsInterfaceThroughCycles checks that a type reaching an
// interface only through a type that refers back to it is still found
// to hold one, however the types are first met (sbir patch S8).
func TestSbirHoldsInterfaceThroughCycles(t *testing.T) {
	type a struct {
		B *struct {
			A *a
			N int
		}
		X any
	}
	ta := reflect.TypeOf(a{})
	tb := ta.Field(0).Type.Elem()
	seen := map[reflect.Type]bool{}
	if !holdsInterface(ta, seen) {
		t.Errorf("holdsInterface(%v) = false, want true", ta)
	}
	if !holdsInterface(tb, seen) {
		t.Errorf("holdsInterface(%v) after %v = false, want true (it reaches X through A)", tb, ta)
	}
	type plain struct {
		Next *plain
		N    int
	}
	if holdsInterface(reflect.TypeOf(plain{}), seen) {
		t.Errorf("holdsInterface(plain) = true, want false")
	}
}
