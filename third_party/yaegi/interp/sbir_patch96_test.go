package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirConversionToCompiledInterface checks sbir patch 96: error(x) and
// fmt.Stringer(x) of a value of an interpreted type wrap it as an
// assignment to such a variable does (the want text is go run's). Without
// the patch, assigning the conversion panicked in reflect.Set ("value of
// type *struct {...} is not assignable to type error") and printing it
// printed the struct instead of calling Error. %T of the Stringer prints
// yaegi's wrapper name with yaegi's own symbol table, whose wrappers do
// not record the type (patch 93), so it is checked up to that line's
// type name.
func TestSbirConversionToCompiledInterface(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `package main

import (
	"errors"
	"fmt"
)

type notFound struct{ key string }

func (e *notFound) Error() string { return "not found: " + e.key }

type code int

func (c code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type temp float64

func (t temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

func main() {
	e := error(&notFound{"a"})
	fmt.Println(e)
	var e2 = error(code(7))
	fmt.Println(e2, errors.Is(e2, code(7)))
	fmt.Println(error(&notFound{"b"}), fmt.Stringer(temp(21.5)))
	s := fmt.Stringer(temp(3))
	fmt.Printf("%v %T %s\n", s, s, s.String())
	switch err := error(code(404)); err.(type) {
	case code:
		fmt.Println("code", err)
	}
	for err := error(&notFound{"c"}); err != nil; err = errors.Unwrap(err) {
		fmt.Println("chain", err)
	}
	_, ok := e.(*notFound)
	fmt.Println(ok, e == error(&notFound{"a"}))
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(`not found: a
code 7 true
not found: b 21.5°
3.0° main.temp 3.0°
code code 404
chain not found: c
true false
`, "main.temp", "stdlib._fmt_Stringer", 1)
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
