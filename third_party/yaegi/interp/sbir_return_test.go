package interp

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestSbirConstantReturnStep checks which returns sbir patch S10c gives
// the step storing a constant converted once: a constant (untyped, or a
// typed constant expression) as the only result of a boolean, numeric or
// string type (declared types too),
// not a constant returned as an interface, an error, a pointer, a
// variable, or one of two results.
func TestSbirConstantReturnStep(t *testing.T) {
	const src = `
type celsius float64
func a() bool { return true }
func b() celsius { return 100 }
func c() string { return "s" + "t" }
func d() uint8 { return 'A' }
func e() any { return 3 }
func f() error { return nil }
func g() *int { return nil }
func h(x int) int { return x }
func k() (int, bool) { return 1, true }
func v() int { return pkg.Counter }`
	counter := 1
	i := New(Options{})
	if err := i.Use(Exports{"pkg/pkg": {"Counter": reflect.ValueOf(&counter).Elem()}}); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "pkg"`); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, name := range strings.Fields("a b c d e f g h k v") {
		sym := i.scopes[mainID].sym[name]
		if sym == nil || sym.node == nil {
			t.Fatalf("no function %s", name)
		}
		sym.node.Walk(func(n *node) bool {
			if n.kind == returnStmt {
				step := "converts at each return"
				if n.exec != nil && strings.Contains(runtime.FuncForPC(reflect.ValueOf(n.exec).Pointer()).Name(), "constantReturn") {
					step = "converted once"
				}
				got = append(got, name+": "+step)
			}
			return true
		}, nil)
	}
	want := []string{
		"a: converted once", "b: converted once", "c: converted once", "d: converted once",
		"e: converts at each return", "f: converts at each return", "g: converts at each return",
		"h: converts at each return", "k: converts at each return",
		"v: converts at each return",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("returns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSbirConstantReturnReadsVariables checks that a function returning a
// compiled package's variable, whose node holds the variable where a
// constant's holds the constant, returns its value at each call, not the
// value it had when the function was compiled (sbir patch S10c).
func TestSbirConstantReturnReadsVariables(t *testing.T) {
	counter := 1
	i := New(Options{})
	if err := i.Use(Exports{"pkg/pkg": {"Counter": reflect.ValueOf(&counter).Elem()}}); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "pkg"
func v() int { return pkg.Counter }`); err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, c := range []int{1, 5, -3} {
		counter = c
		res, err := i.Eval("v()")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Int())
	}
	if want := []int64{1, 5, -3}; !reflect.DeepEqual(got, want) {
		t.Errorf("v() returned %v, want %v", got, want)
	}
}
