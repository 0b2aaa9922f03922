package interp

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"
)

// TestSbirConstantResults checks functions returning constants of every
// basic kind, named types, and interfaces: the answers are go run's, and
// the return statements of the basic results (complex numbers aside) set
// a value made once (sbir patch S10c, constantReturn) rather than
// converting the constant at every call.
func TestSbirConstantResults(t *testing.T) {
	src := `package main

import "fmt"

type score int
type flag bool
type name string

const big = 1 << 40

func b(x int) bool {
	if x > 2 {
		return true
	}
	return false
}
func i8() int8           { return -7 }
func u8() uint8          { return 200 }
func f32() float32       { return 1.5 }
func f64() float64       { return 2 }
func c128() complex128   { return 3 }
func s() string          { return "const" }
func sc() score          { return 42 }
func fl() flag           { return true }
func nm() name           { return "n" }
func bg() int64          { return big }
func a() any             { return 5 }
func af() any            { return 2.5 }
func e() error           { return nil }
func st() fmt.Stringer   { return nil }
func u() uintptr         { return 9 }
func r() rune            { return 'x' }
func by() byte           { return 'y' }

func (s score) pass() bool {
	if s >= 50 {
		return true
	}
	return false
}

func main() {
	fmt.Println(b(1), b(3), i8(), u8(), f32(), f64(), c128(), s(), sc(), fl(), nm(), bg())
	fmt.Printf("%T %v %T %v %v %v %v %v %v\n", a(), a(), af(), af(), e(), st() == nil, u(), r(), by())
	n := 0
	for k := 0; k < 100; k++ {
		if score(k).pass() {
			n++
		}
	}
	fmt.Println(n, sc().pass())
}
`
	const want = "false true -7 200 1.5 2 (3+0i) const 42 true n 1099511627776\nint 5 float64 2.5 <nil> true 9 120 121\n50 false\n"
	var out, stderr bytes.Buffer
	i := New(Options{Stdout: &out, Stderr: &stderr})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), stderr.String())
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
	}
	for _, name := range []string{"b", "i8", "u8", "f32", "f64", "s", "sc", "fl", "nm", "bg", "u", "r", "by"} {
		fn := i.scopes[mainID].sym[name].node
		direct := 0
		fn.Walk(func(n *node) bool {
			if n.kind == returnStmt && n.exec != nil &&
				strings.Contains(runtime.FuncForPC(reflect.ValueOf(n.exec).Pointer()).Name(), "constantReturn") {
				direct++
			}
			return true
		}, nil)
		if direct == 0 {
			t.Errorf("%s: no return statement sets a constant made once", name)
		}
	}
}

// TestSbirBasicArguments checks sbir patch S11e: arguments of basic kinds
// (and named types of them) are passed whether or not they are zero
// values, to frames used again; the answers are go run's.
func TestSbirBasicArguments(t *testing.T) {
	src := `package main

import "fmt"

type score int
type label string

func f(i int, j int64, x float64, s string, b bool, sc score, l label) string {
	return fmt.Sprint(i, j, x, s, b, sc, l, i == 0, s == "", !b)
}

func (sc score) add(k int, s string) score {
	if s == "" {
		return sc
	}
	return sc + score(k)
}

func main() {
	for k := 0; k < 4; k++ {
		if k%2 == 0 {
			fmt.Println(f(k+1, 2, 1.5, "s", true, 3, "l"))
		} else {
			fmt.Println(f(0, 0, 0, "", false, 0, ""))
		}
	}
	var sc score
	for k := 0; k < 6; k++ {
		s := ""
		if k%3 == 0 {
			s = "x"
		}
		sc = sc.add(k, s)
	}
	fmt.Println(sc)
}
`
	const want = "1 2 1.5strue 3lfalse false false\n0 0 0false 0true true true\n3 2 1.5strue 3lfalse false false\n0 0 0false 0true true true\n3\n"
	for _, discard := range []bool{true, false} {
		var out, stderr bytes.Buffer
		i := New(Options{Stdout: &out, Stderr: &stderr, DiscardDebugInfo: discard})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		if got := out.String(); got != want {
			t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
		}
	}
}
