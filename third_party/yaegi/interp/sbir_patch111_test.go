package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirLogicalConstants checks sbir patch 111: && and || of two
// constants are constants, so a constant declared with one has its value
// (and so do constants declared from it), and a condition of constants is
// decided when it is compiled. Without the patch const T = true || false
// read as false, and so did const C bool = (false == (false && true)) (a
// generated program looked up a map with it and printed "0 false" where gc
// prints "65534 true"). The program runs as a file, as cells (the
// constants in one, their uses in the next) and with main's body at the top
// level; the want text is go run's.
func TestSbirLogicalConstants(t *testing.T) {
	const src = `package main

import "fmt"

type B bool

const C bool = (false == (false && true))
const D = false && true
const E = false == D
const I = !D
const T = true || false
const A = 1 < 2 && 2 < 1
const O = (1 < 2) || (2 < 1)
const Bt B = true
const Bx = Bt && true
const Bn = !Bx

var m = map[bool]int{true: 1}

func main() {
	v, ok := m[C]
	fmt.Println(C, D, E, I, T, A, O, v, ok)
	fmt.Printf("%v %T %v %T\n", Bx, Bx, Bn, Bn)
	if T && !A {
		fmt.Println("if folded")
	}
	if D || A {
		fmt.Println("wrong")
	} else {
		fmt.Println("else folded")
	}
	x := true && false
	y := A || T
	const L = true && (1 == 1)
	fmt.Println(x, y, L, !L, T == true)
	switch {
	case D && T:
		fmt.Println("wrong case")
	case T || D:
		fmt.Println("right case")
	}
	n := 0
	for D && T {
		n++
	}
	fmt.Println(n)
}
`
	const want = `true false true true true false true 1 true
true main.B false main.B
if folded
else folded
false true true false true
right case
0
`
	decls := src[:strings.Index(src, "func main")]
	body := src[strings.Index(src, "func main() {\n")+len("func main() {\n") : strings.LastIndex(src, "}")]
	for _, form := range []struct {
		name  string
		evals []string
	}{
		{"file", []string{src}},
		{"cells", []string{decls, src[strings.Index(src, "func main"):]}}, // declaring main runs it
		{"top level", []string{decls, body}},
	} {
		t.Run(form.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			for k, e := range form.evals {
				if _, err := i.Eval(e); err != nil {
					t.Fatalf("evaluation %d: %v; output so far:\n%s", k+1, err, out.String())
				}
			}
			if got := out.String(); got != want {
				t.Errorf("output:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
