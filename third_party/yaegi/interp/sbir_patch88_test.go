package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirTypeSwitchOnError checks sbir patch 88: a type switch on an
// error holding a value of an interpreted type matches that type's case,
// with and without assignment, as gc does (the want text is go run's); it
// matched no case, while the assertion err.(*NotFound) succeeded.
func TestSbirTypeSwitchOnError(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `package main

import (
	"errors"
	"fmt"
	"io"
)

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

type Temporary struct{ N int }

func (t Temporary) Error() string   { return fmt.Sprint("temporary ", t.N) }
func (t Temporary) Temporary() bool { return true }

func classify(err error) string {
	switch e := err.(type) {
	case nil:
		return "nil"
	case *NotFound:
		return "not found " + e.Key
	case Temporary:
		return fmt.Sprint("temporary ", e.N)
	default:
		return "other: " + e.Error()
	}
}

func kind(err error) string {
	switch err.(type) {
	case *NotFound:
		return "NotFound"
	case interface{ Temporary() bool }:
		return "Temporary"
	}
	return "?"
}

func main() {
	errs := []error{nil, &NotFound{"k"}, Temporary{2}, io.EOF, errors.New("plain")}
	for _, err := range errs {
		fmt.Println(classify(err), "|", kind(err))
	}
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := `nil | ?
not found k | NotFound
temporary 2 | Temporary
other: EOF | ?
other: plain | ?
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
