package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// runProgram runs src as a whole program in a new interpreter with the
// standard library and returns what it printed.
func runProgram(t *testing.T, src string) string {
	t.Helper()
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v (output so far %q)", err, out.String())
	}
	return out.String()
}

// errorTypesSrc declares the error types of the patch 65 and 66 tests:
// a pointer receiver, a value receiver, a named string, a type with an
// Is method, and two struct types with the same fields (one reflect
// type for yaegi).
const errorTypesSrc = `package main

import (
	"errors"
	"fmt"
)

type MyErr struct{ code int }

func (e *MyErr) Error() string { return fmt.Sprint("my error ", e.code) }

type ValErr struct{ msg string }

func (e ValErr) Error() string { return e.msg }

type OtherErr struct{ msg string }

func (e OtherErr) Error() string { return e.msg }

type StrErr string

func (e StrErr) Error() string { return string(e) }

type NotFound struct{ Key string }

func (e NotFound) Error() string { return "not found: " + e.Key }

func (e NotFound) Is(target error) bool { _, ok := target.(NotFound); return ok }

type Multi struct{ errs []string }

func (m Multi) Error() string { return fmt.Sprint(m.errs) }

var (
	ErrPtr = &MyErr{7}
	ErrVal = ValErr{"bad"}
	_      = errors.New
)

const ErrStr = StrErr("str")

func get(i int) error {
	switch i {
	case 0:
		return ErrPtr
	case 1:
		return ErrVal
	case 2:
		return ErrStr
	case 3:
		return &MyErr{7}
	case 4:
		return OtherErr{"bad"}
	}
	return nil
}
`

// TestSbirErrorKeepsItsType checks sbir patch 65: an interpreted value
// converted to error keeps its type, for %T, ==, switch and errors.Is.
// The outputs are go run's.
func TestSbirErrorKeepsItsType(t *testing.T) {
	for _, c := range []struct{ name, main, want string }{
		{"type and value printed", `
	for i := 0; i < 6; i++ {
		err := get(i)
		fmt.Printf("%T %v|", err, err)
	}
	fmt.Printf("%#v %+v\n", get(1), get(1))`,
			"*main.MyErr my error 7|main.ValErr bad|main.StrErr str|*main.MyErr my error 7|main.OtherErr bad|<nil> <nil>|main.ValErr{msg:\"bad\"} bad\n"},
		{"typed nil", `
	var p *MyErr
	var e error = p
	fmt.Println(e == nil, e == (*MyErr)(nil), e != (*MyErr)(nil), e == (*MyErr)(&MyErr{}))`,
			"false true false false\n"},
		{"compared with ==", `
	for i := 0; i < 6; i++ {
		err := get(i)
		fmt.Print(err == ErrPtr, err == ErrVal, err == ErrStr, err == nil, err == get(i), err != ErrVal, "|")
	}
	fmt.Println(get(1) == get(4), get(4) == OtherErr{"bad"}, get(4) == ValErr{"bad"})`,
			"true false false false true true|false true false false true false|false false true false true true|false false false false false true|false false false false true true|false false false true true true|false true false\n"},
		{"switch", `
	for i := 0; i < 6; i++ {
		switch get(i) {
		case ErrPtr:
			fmt.Print("ptr ")
		case ErrVal, ErrStr:
			fmt.Print("val-or-str ")
		case nil:
			fmt.Print("nil ")
		default:
			fmt.Print("other ")
		}
	}
	fmt.Println()`,
			"ptr val-or-str val-or-str other other nil \n"},
		{"errors.Is", `
	for i := 0; i < 6; i++ {
		err := get(i)
		fmt.Print(errors.Is(err, ErrPtr), errors.Is(err, ErrVal), errors.Is(err, ErrStr), errors.Is(err, get(i)), "|")
	}
	fmt.Println(errors.Is(NotFound{"a"}, NotFound{"b"}), errors.Is(Multi{}, Multi{}))`,
			"true false false true|false true false true|false false true true|false false false false|false false false true|false false false true|true false\n"},
		{"uncomparable", `
	defer func() { fmt.Println(recover()) }()
	var a, b error = Multi{}, Multi{}
	fmt.Println(a == b)`,
			"runtime error: comparing uncomparable type main.Multi\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := runProgram(t, errorTypesSrc+"\nfunc main() {"+c.main+"\n}\n"); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestSbirInterfaceComparedWithConcrete checks sbir patch 65 for
// interpreted interfaces: == converts the concrete operand to the
// interface. The output is go run's.
func TestSbirInterfaceComparedWithConcrete(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

type Shape interface{ Area() int }

type Sq struct{ S int }

func (q Sq) Area() int { return q.S * q.S }

type Rect struct{ W int }

func (r Rect) Area() int { return r.W }

func main() {
	var s Shape = Sq{2}
	var r Shape = Rect{2}
	fmt.Println(s == Sq{2}, s != Sq{2}, s == Sq{3}, Sq{2} == s, s == r, r == Rect{2})
	var p *Sq
	var s2 Shape = p
	fmt.Println(s2 == nil, s2 == (*Sq)(nil))
	switch s {
	case Rect{2}:
		fmt.Println("rect")
	case Sq{2}:
		fmt.Println("square")
	}
}
`)
	if want := "true false false true false true\nfalse true\nsquare\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestSbirVariadicInterfaceArgs checks sbir patch 66: each argument of a
// compiled function's variadic interface parameter is converted to the
// element type (errors.Join of interpreted errors).
func TestSbirVariadicInterfaceArgs(t *testing.T) {
	got := runProgram(t, errorTypesSrc+`
func main() {
	j := errors.Join(ErrPtr, ErrVal, &MyErr{1})
	fmt.Println(j)
	fmt.Println(errors.Is(j, ErrVal), errors.Is(j, ErrStr))
	errs := []error{ErrStr}
	fmt.Println(errors.Join(errs...))
}
`)
	if want := "my error 7\nbad\nmy error 1\ntrue false\nstr\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
