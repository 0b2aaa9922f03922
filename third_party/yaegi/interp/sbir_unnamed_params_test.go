package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirUnnamedParameters checks sbir patch 233: a function, method or
// function literal with an unnamed parameter (func f(*P) int) and local
// variables runs. The unnamed parameter had no slot in the frame, so the
// call copied its argument into the first local variable's slot: the
// program stopped with "reflect.Set: value of type ... is not assignable"
// (a visitor's `func (c counter) Num(*Num) string { c["num"]++ ... }`
// called through an interface). The wanted output is go run's.
func TestSbirUnnamedParameters(t *testing.T) {
	src := `package main

import (
	"fmt"
	"sort"
	"strings"
)

type P struct{ V float64 }

type Adder interface {
	Add(int, int) int
	Tag(string) string
}

type C struct{ n int }

func (c *C) Add(int, b int) int { x := b * 2; c.n += x; return c.n }
func (c *C) Tag(string) string  { s := "tag"; return s + fmt.Sprint(c.n) }

type V struct{}

func (V) Add(a, _ int) int  { y := a + 1; return y }
func (V) Tag(string) string { r := []string{"v"}; return strings.Join(r, "") }

type counter map[string]int

func (c counter) Num(*P) string { c["num"]++; return "" }

func f(*P, int) (int, string) { a, b := 1, "x"; return a, b }

func g(float64, ...int) int { s := 0; return s + 7 }

func main() {
	for _, a := range []Adder{&C{}, V{}} {
		fmt.Println(a.Add(1, 2), a.Add(3, 4), a.Tag("q"))
	}
	c := counter{}
	c.Num(nil)
	var nv interface{ Num(*P) string } = c
	nv.Num(&P{})
	a, b := f(nil, 2)
	fmt.Println(c, a, b)
	fmt.Println(g(1, 2, 3), g(2))
	fmt.Println(strings.Map(func(rune) rune { r := 'z'; return r }, "abc"))
	xs := []int{3, 1, 2}
	sort.Slice(xs, func(i, _ int) bool { k := i; return xs[k] < 0 })
	fmt.Println(xs)
	h := func(string, int) int { k := 5; return k }
	fn := func(int) func(int) int { base := 10; return func(x int) int { return base + x } }
	fmt.Println(h("a", 1), fn(0)(5))
	defer func(int) { z := "deferred"; fmt.Println(z) }(1)
	done := make(chan int)
	go func(_ int, c chan int) { w := 9; c <- w }(1, done)
	fmt.Println(<-done)
}
`
	want := "4 12 tag12\n2 4 v\nmap[num:2] 1 x\n7 7\nzzz\n[3 1 2]\n5 15\n9\ndeferred\n"
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
	}
}
