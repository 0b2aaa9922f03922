package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// generatedProgram is the random program with which a program generator
// found patch 110's bug: go run prints "7327694 9223372036854775806"; the
// interpreter printed "0 0", since t10 := (!(t9) && ...) ended f2 with a
// zero result.
const generatedProgram = `
package main
import ("fmt"; "math")
var _ = math.MaxInt64
func f0(a, b, c int) int {
	if !(a != (c ^ 1)) {
		return (c * 64)
	}
	if !((b ^ a) > b) {
		return c
	}
	x1 := a
	_ = x1
	if ((c ^ b) > b || a < c) {
		return a
	}
	return x1
}
func f1(a, b, c int) int {
	if !(((c >> b) == a && (c + a) < 1 << 62)) {
		if !(!(a != f0(c, c, c))) {
			x2 := a
			_ = x2
			t3 := ((+a < x2 || (b >> (a & 127)) < math.MinInt64) && (x2 & x2) > 7)
			_ = t3
		} else {
			if (f0(a, a, a) >= (b ^ b) || a != (c + b)) {
				return (a >> 63)
			}
			x4 := ^b
			_ = x4
			t5 := a >= (x4 * c)
			_ = t5
		}
		x6 := ((c ^ ^a) >> (((b ^ a) - (a &^ 7)) & 127))
		_ = x6
	}
	b, a = c, c
	x7 := (c >> 1)
	_ = x7
	c, b = a, ((c >> c) / (+x7 | 1))
	b -= (+x7 / x7)
	return x7
}
func f2(a, b, c int) int {
	for i8 := 0; i8 < 3; i8++ {
		if !(c > f0(c, i8, b)) {
			break
		}
		a <<= b
		if ((b << (i8 & 127)) >= a && (i8 | -1) != (c & a)) {
			continue
		}
	}
	t9 := (b << (a & 127)) != (a % (c | 1))
	_ = t9
	c |= ((c * 7) >> 0)
	if (^b > b || b == -b) {
		return b
	}
	t10 := (!(t9) && a != f1(63, c, 64))
	_ = t10
	return c
}
func f3(a, b, c int) int {
	c, b = a, (c * c)
	return c
}
func f4(a, b, c int) int {
	x11 := f0(^(a + b), +(a >> 1), a)
	_ = x11
	if !((c - 7) > 64) {
		return -64
	}
	if !(f0(b, x11, a) != (a >> (x11 & 127))) {
		return x11
	}
	x12 := (c % b)
	_ = x12
	return b
}

func main() {
	fmt.Println(f2(1000003, 1, 1000003^1), f2(math.MaxInt64, 1, math.MaxInt64^1))
}
`

// generatedDecls is generatedProgram without its main.
var generatedDecls = generatedProgram[:strings.Index(generatedProgram, "\nfunc main")]

// TestSbirParenOperandBranch checks sbir patch 110: the left operand of
// && or || that starts with a parenthesised identifier but computes more
// (!(t), -(a) > b, (s)[0] > 0, (p).ok, (f)()) is computed before the
// operator branches. Without the patch the operator branched on the
// identifier itself: on an int that panicked ("reflect: call of
// reflect.Value.Bool on int Value"), on a bool it skipped the negation and,
// when the bool was false, ended the function (or the evaluation) at once
// with zero results: the generated program below printed "0 0" where gc
// prints "7327694 9223372036854775806". Each program is evaluated as
// declarations and then, where it says, statements at the top level; the
// wants are go run's output. Each runs with the int tier (patch S9) off,
// so that the interpreter runs every function (the tier compiles && and
// || on its own, and ran f2 right), and on.
func TestSbirParenOperandBranch(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		top  []string // evaluated after src, one by one
		want string
	}{
		{
			name: "generated",
			src:  generatedProgram,
			want: "7327694 9223372036854775806\n",
		},
		{
			// The same declarations without main (which a later
			// evaluation would run again), f2 called at the top level.
			name: "generated, called at the top level",
			src:  generatedDecls,
			top:  []string{"fmt.Println(f2(1000003, 1, 1000002), f2(math.MaxInt64, 1, math.MaxInt64^1))"},
			want: "7327694 9223372036854775806\n",
		},
		{
			name: "top level",
			src:  `import "fmt"`,
			top: []string{`a, b, c := 1, 1, 0
t := a != b
c = 7
u := !(t) && a != 3
fmt.Println(c, u)
n, m := 3, 4
if -(n) > m && n >= m {
	fmt.Println("wrong")
}
fmt.Println(-(n) > m || (t), !(t) || -(n) > m)
`},
			want: "7 true\nfalse true\n",
		},
		{
			name: "negated int",
			src: `package main

import "fmt"

func f(a, b, c int) int {
	if -(a) > b && a >= b {
		return 1
	}
	return 0
}

func main() { fmt.Println(f(3, 4, 5), f(-5, 4, 3), f(1, 1, 1)) }
`,
			want: "0 0 0\n",
		},
		{
			name: "operand shapes",
			src: `package main

import "fmt"

type P struct{ ok bool; n int }

func h(a, b int, t bool, p P, s []int, m map[string]bool, f func() bool) []any {
	var r []any
	if -(a) > b && a >= b {
		r = append(r, 1)
	}
	if !(t) && a != 3 {
		r = append(r, 2)
	}
	if !(t) || a != 3 {
		r = append(r, 3)
	}
	if (p).ok && a > 0 {
		r = append(r, 4)
	}
	if (s)[0] > 0 && a > 0 {
		r = append(r, 5)
	}
	if (m)["k"] && a > 0 {
		r = append(r, 6)
	}
	if (f)() && a > 0 {
		r = append(r, 7)
	}
	if ((t)) || a > 0 {
		r = append(r, 8)
	}
	if (p.n) > 0 || a > 0 {
		r = append(r, 9)
	}
	if -(-(a)) < 0 || a > 0 {
		r = append(r, 10)
	}
	x := !(t) && a > 0
	y := (t) || -(b) < 0
	z := ^(a) < 0 && (t)
	r = append(r, x, y, z)
	return r
}

func main() {
	fmt.Println(h(3, 4, false, P{true, 1}, []int{1}, map[string]bool{"k": true}, func() bool { return true }))
	fmt.Println(h(-5, 4, true, P{false, 0}, []int{0}, nil, func() bool { return false }))
}
`,
			want: "[3 4 5 6 7 8 9 10 true true false]\n[3 8 10 false true false]\n",
		},
		{
			name: "conditions",
			src: `package main

import "fmt"

func k(t, u bool, a int) []any {
	var r []any
	if (t) {
		r = append(r, 1)
	}
	if !(t) {
		r = append(r, 2)
	}
	for i := 0; (i) < a; i++ {
		r = append(r, "i")
	}
	switch {
	case !(t) && (u):
		r = append(r, 3)
	case (t) || !(u):
		r = append(r, 4)
	}
	if (t || u) && !(a > 0) {
		r = append(r, 5)
	}
	if !(t) && !(u) || (a > 1) {
		r = append(r, 6)
	}
	if !(!(t)) || -(a) > 0 && (u) {
		r = append(r, 7)
	}
	v := !(t) && !(u)
	w := ((!(t))) || (u)
	r = append(r, v, w, !(t) == (u), ret(t, u))
	return r
}

func ret(t, u bool) bool { return !(t) && (u) }

func main() {
	for _, t := range []bool{false, true} {
		for _, u := range []bool{false, true} {
			for a := -1; a <= 2; a++ {
				fmt.Println(k(t, u, a))
			}
		}
	}
}
`,
			want: `[2 4 6 true true false false]
[2 4 6 true true false false]
[2 i 4 6 true true false false]
[2 i i 4 6 true true false false]
[2 3 5 7 false true true true]
[2 3 5 false true true true]
[2 i 3 false true true true]
[2 i i 3 6 false true true true]
[1 4 5 7 false false true false]
[1 4 5 7 false false true false]
[1 i 4 7 false false true false]
[1 i i 4 6 7 false false true false]
[1 4 5 7 false true false false]
[1 4 5 7 false true false false]
[1 i 4 7 false true false false]
[1 i i 4 6 7 false true false false]
`,
		},
	} {
		for _, tier := range []bool{false, true} {
			name := tc.name + ", interpreter"
			if tier {
				name = tc.name + ", int tier"
			}
			t.Run(name, func(t *testing.T) {
				runParenOperandCase(t, tc.src, tc.top, tc.want, tier)
			})
		}
	}
}

// runParenOperandCase evaluates src, then each of top, and compares the
// output with want. Functions of ints and bools run in the int tier
// (patch S9) when tier is set; else the interpreter runs everything, which
// is where patch 110's bug was.
func runParenOperandCase(t *testing.T, src string, top []string, want string, tier bool) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if !tier {
		interp.DisableIntTier(i)
	}
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v; output so far:\n%s", err, out.String())
	}
	for _, e := range top {
		if _, err := i.Eval(e); err != nil {
			t.Fatalf("%s: %v; output so far:\n%s", e, err, out.String())
		}
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
