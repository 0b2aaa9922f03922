package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirNewOfExpression checks sbir patch 86: Go 1.26's new(expr) points
// to a new variable holding expr's value (new(10) pointed to 0), while
// new(T) still points to T's zero value. The want text is go run's.
func TestSbirNewOfExpression(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `package main

import "fmt"

type Cfg struct {
	Max  *int
	Name *string
	F    *float64
}

type point struct{ x, y int }

func ten() int { return 10 }

func main() {
	x := 7
	c := Cfg{Max: new(10), Name: new("n" + "m"), F: new(2.5)}
	p := new(x)
	x = 8
	*p++
	q := new(ten() * 2)
	fmt.Println(*c.Max, *c.Name, *c.F, *p, x, *q)
	fmt.Println(*new(int), *new([]int) == nil, new(Cfg{}).Max == nil, *new(point{1, 2}), *new(point))
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "10 nm 2.5 8 8 20\n0 true true {1 2} {0 0}\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
