package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirShiftOfUntypedConstant checks sbir patch 63: an untyped
// constant shifted by a non-constant amount takes the type of the other
// operand of the operation around the shift, as gc gives it; it was an
// int, so `p&(1<<i)` with p of a uint8 type panicked in reflect.
// The output is go run's.
func TestSbirShiftOfUntypedConstant(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(`package main

import "fmt"

type Perm uint8

func (p Perm) String() string {
	s := ""
	for i, n := range []string{"r", "w", "x"} {
		if p&(1<<i) != 0 {
			s += n
		}
	}
	return s
}

func main() {
	var p Perm = 3
	i := 1
	var b uint8 = 200
	var n int64 = 1
	fmt.Println(p&(1<<i) != 0, (1<<i)&p, b+(1<<i), n<<40|(1<<i), 1<<i)
	fmt.Printf("%T %T %T\n", (1<<i)&p, b|(1<<i), 1<<i)
	var s uint16 = 1 << i
	fmt.Println(s, uint8(1<<i), b == 1<<i)
	xs := []uint8{1, 2, 3}
	fmt.Println(xs[0]&(1<<i), (1<<i)|xs[1], p&^(1<<i), Perm(5).String())
}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "true w 202 1099511627778 2\nmain.Perm uint8 int\n2 2 false\n0 2 r rx\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
