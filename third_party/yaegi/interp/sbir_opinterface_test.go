package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// opInterfaceDecls are the declarations the programs of
// TestSbirOperationGivenToInterface share: an interpreted type with a
// String method, an interface the program declares, and functions that
// return operations, builtins and calls as interface results.
const opInterfaceDecls = `package main

import (
	"fmt"
	"time"
)

type celsius float64

func (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

type stringer interface{ String() string }

type list []int

func (l list) String() string { return fmt.Sprint("list", len(l)) }

type box struct{ S fmt.Stringer }

var global fmt.Stringer = 1500 * time.Millisecond
var globalOwn stringer = celsius(1.5) * 2

func constDur() fmt.Stringer                      { return 2 * time.Second }
func scaled(d time.Duration) fmt.Stringer         { return d * 2 }
func scaledOwn(d time.Duration) stringer          { return d * 3 }
func constTemp() fmt.Stringer                     { return celsius(1.5) * 2 }
func anyTemp(c celsius) any                       { return c * 2 }
func neg(d time.Duration) fmt.Stringer            { return -d }
func negAny(c celsius) any                        { return -c }
func negOwn(c celsius) stringer                   { return -c }
func not(b bool) any                              { return !b }
func pair(d time.Duration) (fmt.Stringer, any)    { return d * 2, -d }
func plain(n int) any                             { return n * 2 }
func untyped() any                                { return 7 / 2 }
func grown(l list) fmt.Stringer                   { return append(l, 1) }
func grownAny(l list) any                         { return append(l, 1, 2) }
func second(s []int) (int, int)                   { return 1, len(s) }
func temp() celsius                               { return 2 }
func tempAt(c celsius) (celsius, fmt.Stringer)    { return c, temp() }
func tempAny(c celsius) (celsius, any)            { return c, temp() }
func concrete(d time.Duration) time.Duration      { return d * 2 }
func sum(a, b int) (int, int)                     { return a + b, a - b }
func closure(d time.Duration) func() fmt.Stringer { return func() fmt.Stringer { return d * 4 } }

`

// TestSbirOperationGivenToInterface checks sbir patches 220 to 222: an
// operation with a typed operand given to an interface (a variable
// declared with an interface type, an assignment of -x, ^x or !x, a
// return to an interface result) is computed in its own type and
// converted, and a value returned in place is stored in its own result's
// slot. Without patch 220 `var s fmt.Stringer = 1500 * time.Millisecond`
// ended main there, silently: the program printed what came before and
// exited successfully (the generator made no code for an operation typed
// fmt.Stringer); a declared interface panicked in reflect's SetInt, `any`
// lost the methods (celsius(1.5) * 2 printed 3), `a = -d` with a of type
// any ended the function, and `return d * 2` from a func() fmt.Stringer
// returned nil. Without patch 222 `return 1, len(s)` returned 1, 1 and
// `return c, temp()` with a second result of an interface type panicked.
// Each program runs as a file and with main's statements evaluated one by
// one at the top level; the want texts are go run's.
func TestSbirOperationGivenToInterface(t *testing.T) {
	for _, tc := range []struct{ name, main, want string }{
		{"declarations", `
	d, c := 1500*time.Millisecond, celsius(1.5)
	fmt.Println("before")
	var a fmt.Stringer = 1500 * time.Millisecond
	var b fmt.Stringer = d * 2
	var e stringer = 2 * time.Second
	var g stringer = c * 2
	var h any = celsius(1.5) * 2
	var k any = d + 1
	var m fmt.Stringer = celsius(1.5) * 2
	var p, q fmt.Stringer = time.Month(2) + 1, -d
	var r any = !(d > 0)
	var s error = nil
	fmt.Println(a, b, e, g, h, k, m, p, q, r, s)
	fmt.Printf("%T %T %T %T %T\n", a, b, e, g, h)
	fmt.Println(a.String(), e.String(), m.String(), global, globalOwn)
	fmt.Println("after")
`, `before
1.5s 3s 2s 3.0°C 3.0°C 1.500000001s 3.0°C March -1.5s false <nil>
time.Duration time.Duration time.Duration main.celsius main.celsius
1.5s 2s 3.0°C 1.5s 3.0°C
after
`},
		{"assignments", `
	d, c, n, ok := time.Second, celsius(2), 3, true
	var a any
	a = -d
	var s fmt.Stringer
	s = -d
	var o stringer
	o = -c
	var u any
	u = ^n
	var v any
	v = !ok
	var w any
	w = -c
	var bx box
	bx.S = -d
	fmt.Println(a, s, o, u, v, w, bx.S)
	fmt.Printf("%T %T %T\n", a, o, w)
`, `-1s -1s -2.0°C -4 false -2.0°C -1s
time.Duration main.celsius main.celsius
`},
		{"returns", `
	fmt.Println(constDur(), scaled(time.Second), scaledOwn(time.Second), constTemp(), anyTemp(1.5))
	fmt.Println(neg(time.Second), negAny(2), negOwn(2), not(true), plain(4), untyped())
	fmt.Println(pair(time.Second))
	fmt.Printf("%T %T %T\n", anyTemp(1), negAny(1), plain(1))
	fmt.Println(grown(nil), grownAny(list{3}), closure(time.Second)())
	fmt.Println(second([]int{1, 2, 3}))
	fmt.Println(tempAt(1))
	fmt.Println(tempAny(1))
	fmt.Println(concrete(time.Second), concrete(3))
	fmt.Println(sum(5, 3))
`, `2s 2s 3s 3.0°C 3.0°C
-1s -2.0°C -2.0°C false 8 3
2s -1s
main.celsius main.celsius int
list1 list3 4s
1 3
1.0°C 2.0°C
1.0°C 2.0°C
2s 6ns
8 2
`},
	} {
		src := opInterfaceDecls + "func main() {" + tc.main + "}\n"
		forms := map[string][]string{
			"file":      {src},
			"top level": append([]string{opInterfaceDecls}, strings.Split(strings.TrimSpace(tc.main), "\n")...),
		}
		for form, evals := range forms {
			t.Run(tc.name+"/"+form, func(t *testing.T) {
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
				if got := out.String(); got != tc.want {
					t.Errorf("output:\n%s\nwant (go run's):\n%s", got, tc.want)
				}
			})
		}
	}
}
