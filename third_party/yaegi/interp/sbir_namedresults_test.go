package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirReturnReadsNamedResults checks sbir patch 223: a return with
// several values in a function with named results computes every value
// before it sets any result. Without the patch `return b, a` returned b, b
// (the first result, a, was set to b before the second value read it), and
// a value computed in its result's slot overwrote a named result another
// value read: `return b + 1, a + 1` gave 3 4, `return g(b), g(a)` 20 200,
// `return strings.ToUpper(b), a` Q Q. The want text is go run's. Each
// function runs as a file, and declared and called at the top level.
func TestSbirReturnReadsNamedResults(t *testing.T) {
	const decls = `package main

import (
	"fmt"
	"strings"
)

func swap() (a, b int)             { a, b = 1, 2; return b, a }
func ops() (a, b int)              { a, b = 1, 2; return b + 1, a + 1 }
func neg() (a, b int)              { a, b = 1, 2; return -b, -a }
func g(x int) int                  { return x * 10 }
func calls() (a, b int)            { a, b = 1, 2; return g(b), g(a) }
func lens(s []int) (a, b int)      { a, b = 1, 2; return len(s), a }
func rotate() (a, b, c string)     { a, b, c = "x", "y", "z"; return c, a, b }
func upper() (a, b string)         { a, b = "p", "q"; return strings.ToUpper(b), a }
func deferred() (a, b int)         { a, b = 1, 2; defer func() { a *= 10 }(); return b, a }
func single() (a int)              { a = 4; return a + 1 }
func unnamed(a, b int) (int, int)  { return b + 1, a + 1 }
func withErr() (n int, err error)  { n = 3; return n + 1, err }
func lit() (int, int)              { f := func() (x, y int) { x, y = 5, 6; return y, x }; return f() }
`
	const main = `
	fmt.Println(swap())
	fmt.Println(ops())
	fmt.Println(neg())
	fmt.Println(calls())
	fmt.Println(lens([]int{7, 8, 9}))
	fmt.Println(rotate())
	fmt.Println(upper())
	fmt.Println(deferred())
	fmt.Println(single())
	fmt.Println(unnamed(1, 2))
	fmt.Println(withErr())
	fmt.Println(lit())
`
	const want = `2 1
3 2
-2 -1
20 10
3 1
z x y
Q p
20 1
5
3 2
4 <nil>
6 5
`
	forms := map[string][]string{
		"file":      {decls + "func main() {" + main + "}\n"},
		"top level": append([]string{decls}, strings.Split(strings.TrimSpace(main), "\n")...),
	}
	for form, evals := range forms {
		t.Run(form, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			for k, e := range evals {
				if _, err := i.Eval(e); err != nil {
					t.Fatalf("evaluation %d (%s): %v; output so far:\n%s", k+1, strings.TrimSpace(e), err, out.String())
				}
			}
			if got := out.String(); got != want {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
			}
		})
	}
}
