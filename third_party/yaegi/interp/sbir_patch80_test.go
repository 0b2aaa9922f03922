package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirLocalTypeShadowsPackageType checks sbir patch 80: a type
// declared inside a function is its own type, not the package-level type
// of the same name it shadows (The Go Programming Language's
// ch6/coloredpoint declares ColoredPoint twice this way).
func TestSbirLocalTypeShadowsPackageType(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"embedded pointer for embedded value", `package main
import "fmt"
type P struct{ X int }
type C struct{ P }
func main() {
	type C struct{ *P }
	c := C{&P{1}}
	fmt.Println(c.X)
}`, "1\n"},
		{"other fields", `package main
import "fmt"
type C struct{ Y int }
func main() {
	type C struct{ Z string }
	c := C{"a"}
	fmt.Printf("%v %+v\n", c.Z, c)
}`, "a {Z:a}\n"},
		{"inner block shadows the function's own", `package main
import "fmt"
func main() {
	type C struct{ A int }
	{
		type C struct{ B string }
		fmt.Println(C{"x"}.B)
	}
	fmt.Println(C{1}.A)
}`, "x\n1\n"},
		{"recursive local type", `package main
import "fmt"
type node struct{ s string }
func main() {
	type node struct {
		v    int
		next *node
	}
	l := &node{1, &node{2, nil}}
	fmt.Println(l.v + l.next.v, l.next.next == nil)
}`, "3 true\n"},
		{"in a function literal", `package main
import "fmt"
type T struct{ a int }
func main() {
	f := func() string {
		type T struct{ a, b int }
		return fmt.Sprintf("%+v", T{1, 2})
	}
	fmt.Printf("%+v %+v\n", f(), T{3})
}`, "{a:1 b:2} {a:3}\n"},
		{"interface", `package main
import "fmt"
type Shape interface{ Area() float64 }
type sq float64
func (s sq) Area() float64 { return float64(s * s) }
func (s sq) Name() string { return "square" }
func main() {
	type Shape interface{ Name() string }
	var s Shape = sq(2)
	fmt.Println(s.Name())
	show()
}
func show() {
	var s Shape = sq(3)
	fmt.Println(s.Area())
}`, "square\n9\n"},
		{"package type intact after a local one", `package main
import "fmt"
type C struct{ A int }
func f() { type C struct{ B, D string }; fmt.Printf("%+v\n", C{"x", "y"}) }
func main() {
	f()
	fmt.Printf("%+v\n", C{1})
}`, "{B:x D:y}\n{A:1}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			// A case's "---" lines separate what Eval runs in turn, as
			// notebook cells.
			for _, src := range strings.Split(tc.src, "\n---\n") {
				if _, err := i.Eval(src); err != nil {
					t.Fatalf("Eval(%q): %v", src, err)
				}
			}
			if tc.want != "" && out.String() != tc.want {
				t.Errorf("output %q, want %q", out.String(), tc.want)
			}
		})
	}
}
