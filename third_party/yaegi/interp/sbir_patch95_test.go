package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirErrorAsCellInterface checks sbir patch 95: an error holding a
// value of an interpreted type matches an interface the program declares
// (Temporary, Coder embedding error), in a type switch with assignment
// (one type or two in the case) and in a type assertion, as gc does (the
// want text is go run's). Without the patch the switch took the default
// clause and the assertion failed.
func TestSbirErrorAsCellInterface(t *testing.T) {
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

type Temporary interface{ Temporary() bool }

type Coder interface {
	error
	Code() int
}

type netErr struct{ msg string }

func (e *netErr) Error() string   { return e.msg }
func (e *netErr) Temporary() bool { return true }

type httpErr struct{ code int }

func (e httpErr) Error() string { return fmt.Sprint("http ", e.code) }
func (e httpErr) Code() int     { return e.code }

func classify(err error) string {
	switch e := err.(type) {
	case Temporary:
		return fmt.Sprint("temporary ", e.Temporary())
	case Coder:
		return fmt.Sprint("coder ", e.Code(), " ", e.Error())
	case nil:
		return "nil"
	default:
		return "other " + e.Error()
	}
}

func either(err error) string {
	switch e := err.(type) {
	case Temporary, Coder:
		return "either " + e.Error()
	}
	return "neither"
}

func main() {
	errs := []error{&netErr{"x"}, httpErr{404}, nil, errors.New("plain")}
	for _, err := range errs {
		fmt.Println(classify(err), "|", either(err))
	}
	var err error = httpErr{418}
	if c, ok := err.(Coder); ok {
		fmt.Println("assert", c.Code(), c.Error())
	}
	_, ok := err.(Temporary)
	fmt.Println(ok)
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := `temporary true | either x
coder 404 http 404 | either http 404
nil | neither
other plain | neither
assert 418 http 418
false
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

// TestSbirRefuseErrorsAsCellInterface checks the refusal of sbir patch 95:
// with Options.RefuseIndistinctTypes, errors.As with a pointer to an
// interface the program declares is a compile error naming the rewrite
// (without it, the kernel's errors.As answered false where gc's finds the
// error); the rewrite runs.
func TestSbirRefuseErrorsAsCellInterface(t *testing.T) {
	decls := `package main

import (
	"errors"
	"fmt"
)

type Coder interface {
	error
	Code() int
}

type httpErr struct{ code int }

func (e httpErr) Error() string { return fmt.Sprint("http ", e.code) }
func (e httpErr) Code() int     { return e.code }

type wrapped struct{ err error }

func (w wrapped) Error() string { return "w: " + w.err.Error() }
func (w wrapped) Unwrap() error { return w.err }
`
	tests := []struct {
		name, src, refuse, out string
	}{
		{"interface target", `c := Coder(nil)
fmt.Println(errors.As(wrapped{httpErr{503}}, &c))`, "errors.As with a target of type *main.Coder", ""},
		{"the rewrite", `func code(e error) int {
	for ; e != nil; e = errors.Unwrap(e) {
		if c, ok := e.(Coder); ok {
			return c.Code()
		}
	}
	return 0
}

func main() { fmt.Println(code(wrapped{httpErr{504}})) }`, "", "504\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, RefuseIndistinctTypes: true})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(decls); err != nil {
				t.Fatal(err)
			}
			_, err := i.Eval(tc.src)
			switch {
			case tc.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refuse != "" && (err == nil || !strings.Contains(err.Error(), tc.refuse) || !strings.Contains(err.Error(), "errors.Unwrap")):
				t.Fatalf("error %v, want one containing %q and the rewrite", err, tc.refuse)
			}
			if out.String() != tc.out {
				t.Errorf("output %q, want %q", out.String(), tc.out)
			}
		})
	}
}
