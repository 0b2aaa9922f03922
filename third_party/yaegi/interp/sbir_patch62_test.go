package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirConversionToAnyKeepsType checks sbir patch 62: any(x) keeps the
// interpreted type of a pointer to a type with methods and of a value
// whose methods have value receivers, so that an assertion to an
// interpreted interface and fmt see the methods; a value whose methods
// need a pointer does not satisfy the interface. The output is go run's.
func TestSbirConversionToAnyKeepsType(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(`package main

import "fmt"

type Reader interface{ Read() string }
type Buffer struct{ data []string }

func (b *Buffer) Read() string { return "r" }

type Level int

func (l Level) String() string { return "L" }

func main() {
	_, ok1 := any(Buffer{}).(Reader)
	_, ok2 := any(&Buffer{}).(Reader)
	x := any(&Buffer{})
	r, ok3 := x.(Reader)
	fmt.Println(ok1, ok2, ok3, r.Read())
	fmt.Println(any(Level(2)), fmt.Sprint(any(Level(3))))
	var s fmt.Stringer
	s, ok4 := any(Level(1)).(fmt.Stringer)
	fmt.Println(s, ok4)
	fmt.Printf("%T %v\n", any(&Buffer{}), any(Level(4)))
	xs := []any{any(Level(5)), any(&Buffer{})}
	fmt.Println(xs[0], len(xs))
}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "false true true r\nL L\nL true\n*main.Buffer L\nL 2\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
