package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirInterfaceTypeNames checks sbir patch 84: %T and %#v name
// interface types not declared by name as reflect (and so gc) does:
// "interface {}" for any and interface{}, methods sorted by name with a
// space before the closing brace; declared interfaces keep their names.
// The want text is go run's output for the same program.
func TestSbirInterfaceTypeNames(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `package main

import "fmt"

type Empty interface{}

type V int

func (V) M()          {}
func (V) N() string { return "" }

func main() {
	var s interface{} = ""
	var a any = 3
	var e Empty = 1
	var x interface{ M() } = V(1)
	var y interface {
		N() string
		M()
	} = V(2)
	fmt.Printf("%T %T %T\n", &s, []any{1}, map[string]interface{}{})
	fmt.Printf("%T %T %T\n", &a, &e, []Empty{})
	fmt.Printf("%T %T %T\n", &x, &y, []interface{ M() }{})
	fmt.Printf("%#v\n", []any{1, "a"})
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := `*interface {} []interface {} map[string]interface {}
*interface {} *main.Empty []main.Empty
*interface { M() } *interface { M(); N() string } []interface { M() }
[]interface {}{1, "a"}
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
