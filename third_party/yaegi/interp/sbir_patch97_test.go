package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirAssignCallResultsToInterfaces checks sbir patch 97: the results
// of a call of several values assigned to variables, fields and elements
// of interface types (error, an interface the program declares, any)
// keep their types, as gc's do (the want text is go run's). Without the
// patch `_, err = fail()` with fail returning a *customError panicked in
// reflect.Set ("value of type *struct {} is not assignable to type
// error", two published training programs), and so did `_, s = mk(3)`
// with s of an interface the program declares.
func TestSbirAssignCallResultsToInterfaces(t *testing.T) {
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

type customError struct{}

func (c *customError) Error() string { return "Find the bug." }

func fail() ([]byte, *customError) { return nil, nil }

type Shape interface{ Area() int }

type Sq struct{ s int }

func (q Sq) Area() int { return q.s * q.s }

func mk(s int) (int, Sq) { return s, Sq{s} }

type result struct {
	n   int
	err error
}

type code int

func (c code) Error() string { return fmt.Sprint("code ", int(c)) }

func lookup(k string) (int, code) { return len(k), code(len(k)) }

func main() {
	var err error
	if _, err = fail(); err != nil {
		fmt.Println("non-nil error holding", err == (*customError)(nil))
	}
	var s Shape
	_, s = mk(3)
	fmt.Println(s.Area(), s)
	var a any
	_, a = mk(4)
	sh, ok := a.(Shape)
	fmt.Println(ok, sh.Area())
	var r result
	r.n, r.err = lookup("abc")
	fmt.Println(r.n, r.err, errors.Is(r.err, code(3)))
	errs := make([]error, 1)
	_, errs[0] = lookup("ab")
	fmt.Println(errs[0])
	var t Shape
	n, t := mk(5)
	fmt.Println(n, t.Area())
	get := fail
	var e2 error
	_, e2 = get()
	fmt.Println(e2 != nil)
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := `non-nil error holding true
9 {3}
true 16
3 code 3 true
code 2
5 25
true
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
