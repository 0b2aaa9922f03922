package interp_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// namer is a compiled interface that interpreted types implement, as
// fmt.Stringer or sort.Interface are in the kernel's symbol table.
type namer interface{ Name() string }

// _namerWrapper is namer's interface wrapper as the extractor writes it
// (sbir patch 93: with the IType field last).
type _namerWrapper struct {
	IValue interface{}
	WName  func() string
	IType  interface{}
}

func (w _namerWrapper) Name() string { return w.WName() }

// TestSbirCompiledInterfaceKeepsType checks sbir patch 93: a value of an
// interpreted type held in a variable of a compiled interface type (other
// than error) prints with its own type under %T and %#v, matches its case
// in a type switch, and compares with ==, as gc does (the want text is go
// run's, with Namer declared in the program). Before the patch %T printed
// the wrapper's name (interp_test._namerWrapper), %#v its fields, the
// switch with assignment took no case, and == compared the wrappers.
func TestSbirCompiledInterfaceKeepsType(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	// The interpreter finds a compiled interface's wrapper under the
	// interface's own package path and name.
	path := reflect.TypeOf((*namer)(nil)).Elem().PkgPath()
	if err := i.Use(interp.Exports{path + "/shapes": {
		"Namer":  reflect.ValueOf((*namer)(nil)),
		"_namer": reflect.ValueOf((*_namerWrapper)(nil)),
	}}); err != nil {
		t.Fatal(err)
	}
	src := `package main

import (
	"fmt"

	shapes "github.com/traefik/yaegi/interp_test"
)

type T struct{ N int }

func (t T) Name() string { return fmt.Sprint("t", t.N) }

type P struct{ S string }

func (p *P) Name() string { return p.S }

type Celsius float64

func (c Celsius) Name() string { return "c" }

func kind(n shapes.Namer) string {
	switch x := n.(type) {
	case T:
		return fmt.Sprint("T ", x.N)
	case *P:
		return "P " + x.S
	case Celsius:
		return fmt.Sprint("Celsius ", float64(x))
	}
	return "?"
}

func main() {
	ns := []shapes.Namer{T{1}, &P{"p"}, Celsius(2.5)}
	for _, n := range ns {
		fmt.Printf("%T|%v|%+v|%#v|%s\n", n, n, n, n, kind(n))
	}
	var a, b shapes.Namer = T{3}, T{3}
	fmt.Println(a == b, a == shapes.Namer(T{4}))
}
`
	if _, err := i.Eval(src); err != nil {
		if p, ok := err.(interp.Panic); ok {
			t.Log(string(p.Stack))
		}
		t.Fatal(err)
	}
	want := `main.T|{1}|{N:1}|main.T{N:1}|T 1
*main.P|&{p}|&{S:p}|&main.P{S:"p"}|P p
main.Celsius|2.5|2.5|2.5|Celsius 2.5
true false
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
