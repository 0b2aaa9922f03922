package interp_test

import (
	"testing"
)

// runMain evaluates a main package and returns what it printed.
func runMain(t *testing.T, src string) string {
	t.Helper()
	i, out, _ := newTestInterp(t)
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\nsource:\n%s", err, src)
	}
	return out.String()
}

// Patch 9a: fmt calls the String, Error, Format and GoString methods of
// interpreted values: results of calls, nested values, values in
// interfaces, with gc's method sets.
func TestFmtCallsInterpretedMethods(t *testing.T) {
	const decls = `package main

import (
	"errors"
	"fmt"
)

type Q struct{ table string }

func From(t string) *Q          { return &Q{t} }
func (q *Q) String() string     { return "FROM " + q.table }

type Day int

func (d Day) String() string { return [...]string{"Sun", "Mon", "Tue"}[d] }

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func (p Pair[K, V]) String() string { return fmt.Sprintf("%v=%v", p.Key, p.Val) }

type ID int

func (i ID) String() string { return fmt.Sprintf("#%03d", int(i)) }

func Total[T interface{ ~int; fmt.Stringer }](xs []T) T {
	var t T
	for _, x := range xs {
		t += x
	}
	return t
}

type secret string

func (secret) GoString() string { return "secret(***)" }

type temp float64

func (t temp) String() string { return fmt.Sprintf("%.1fC", float64(t)) }

type Shape interface{ String() string }
type Rect struct{ W, H int }

func (r Rect) String() string { return fmt.Sprintf("Rect(%dx%d)", r.W, r.H) }

func first(s []Shape) Shape { return s[0] }

type Inner struct{ T temp }
type hidden struct{ t temp }

type ptrOnly struct{ n int }

func (p *ptrOnly) String() string { return "ptr" }

type myErr struct{ code int }

func (e myErr) Error() string { return fmt.Sprintf("code %d", e.code) }

type hex int

func (h hex) Format(s fmt.State, verb rune) { fmt.Fprintf(s, "hex(%c,%x)", verb, int(h)) }

var _ = errors.New
`
	for _, tc := range []struct{ name, main, want string }{
		{"method call result", `fmt.Println(From("a"))`, "FROM a\n"},
		{"generic call result", `fmt.Println(Total([]ID{1, 2, 3}))`, "#006\n"},
		{"slice of generic values", `fmt.Println([]Pair[string, int]{{"a", 1}, {"b", 2}})`, "[a=1 b=2]\n"},
		{"named int with %d and %v", `fmt.Printf("%d %v %s\n", Day(2), Day(2), Day(1))`, "2 Tue Mon\n"},
		{"GoString", `fmt.Printf("%#v %v\n", secret("pw"), secret("pw"))`, "secret(***) pw\n"},
		{"type of a Stringer", `fmt.Printf("%T %T\n", temp(1), Day(0))`, "main.temp main.Day\n"},
		{"interface result", `fmt.Printf("%v|%s\n", first([]Shape{Rect{1, 2}}), first([]Shape{Rect{3, 4}}))`, "Rect(1x2)|Rect(3x4)\n"},
		{"slice of interfaces", `fmt.Println([]Shape{Rect{1, 2}, Rect{3, 4}})`, "[Rect(1x2) Rect(3x4)]\n"},
		{"exported field", `fmt.Printf("%v %+v\n", Inner{21.5}, Inner{1})`, "{21.5C} {T:1.0C}\n"},
		{"unexported field", `fmt.Println(hidden{21.5})`, "{21.5}\n"},
		{"map values", `fmt.Println(map[string]Day{"x": 1})`, "map[x:Mon]\n"},
		{"pointer receiver on a value", `fmt.Println(ptrOnly{3}, &ptrOnly{3})`, "{3} ptr\n"},
		{"nested pointer receiver", `fmt.Println([]*Q{From("a"), nil})`, "[FROM a <nil>]\n"},
		{"Error method", `fmt.Println(myErr{4}, []myErr{{5}})`, "code 4 [code 5]\n"},
		{"Format method", `fmt.Printf("%v %d %v\n", hex(10), hex(11), []hex{12})`, "hex(v,a) hex(d,b) [hex(v,c)]\n"},
		{"width applies to the string", `fmt.Printf("[%6v][%-5s]\n", Day(1), Day(2))`, "[   Mon][Tue  ]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runMain(t, decls+"\nfunc main() {\n"+tc.main+"\n}\n")
			if got != tc.want {
				t.Errorf("%s printed %q, want %q", tc.main, got, tc.want)
			}
		})
	}
}

// Patch 9b: errors.Is and errors.Unwrap see the Unwrap and Is methods of
// interpreted errors. (The compiled errors.As panics on interpreted
// targets; the sandbox replaces it, see sandbox/internal/symbols.)
func TestErrorsSeeInterpretedMethods(t *testing.T) {
	got := runMain(t, `package main

import (
	"errors"
	"fmt"
	"strconv"
)

type ParseError struct {
	Line int
	Err  error
}

func (e *ParseError) Error() string { return "line " + strconv.Itoa(e.Line) + ": " + e.Err.Error() }
func (e *ParseError) Unwrap() error { return e.Err }

type codeErr struct{ code int }

func (e codeErr) Error() string          { return "code " + strconv.Itoa(e.code) }
func (e codeErr) Is(target error) bool   { return target == errCode }

var errCode = errors.New("any code")

func newCodeErr(c int) error { return codeErr{c} }

type multi struct{ errs []error }

func (m *multi) Error() string     { return "multi" }
func (m *multi) Unwrap() []error   { return m.errs }

func parse(s string) error {
	if _, err := strconv.Atoi(s); err != nil {
		return &ParseError{Line: 2, Err: err}
	}
	return nil
}

func main() {
	err := parse("two")
	fmt.Println(errors.Is(err, strconv.ErrSyntax), errors.Unwrap(err) != nil)
	ce := newCodeErr(3)
	fmt.Println(errors.Is(ce, errCode), errors.Is(ce, strconv.ErrSyntax))
	var me error = &multi{[]error{strconv.ErrRange, errCode}}
	fmt.Println(errors.Is(me, errCode), errors.Is(me, strconv.ErrSyntax))
	fmt.Println(errors.Is(fmt.Errorf("ctx: %w", err), strconv.ErrSyntax))
}
`)
	if want := "true true\ntrue false\ntrue false\ntrue\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 9c: a tagless switch tries every expression of a case clause.
func TestTaglessSwitchCaseList(t *testing.T) {
	got := runMain(t, `package main

import "fmt"

func is(c byte, x byte) bool { fmt.Printf("(%c)", x); return c == x }

func main() {
	for _, c := range []byte("a1 Z?") {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			fmt.Printf("%c letter\n", c)
		case c >= '0' && c <= '9':
			fmt.Printf("%c digit\n", c)
			fallthrough
		case c == ' ':
			fmt.Printf("%c digit-or-space\n", c)
		default:
			fmt.Printf("%c other\n", c)
		}
	}
	switch c := byte('y'); {
	case is(c, 'x'), is(c, 'y'), is(c, 'z'):
		fmt.Println(" matched")
	}
	switch {
	case false, false:
		fmt.Println("wrong")
	}
}
`)
	want := "a letter\n1 digit\n1 digit-or-space\n  digit-or-space\nZ letter\n? other\n(x)(y) matched\n"
	if got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 9d: method expressions (T.M, (*T).M) as function values take the
// receiver as their first argument.
func TestMethodExpressionValues(t *testing.T) {
	got := runMain(t, `package main

import "fmt"

type Point struct{ X, Y float64 }

func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }
func (p *Point) Scale(f float64)  { p.X *= f; p.Y *= f }
func (p Point) Sum(xs ...float64) float64 {
	s := p.X + p.Y
	for _, x := range xs {
		s += x
	}
	return s
}

func apply(f func(Point, Point) Point, a, b Point) Point { return f(a, b) }

func main() {
	p := Point{1, 2}
	add := Point.Add
	fmt.Println(add(Point{1, 1}, Point{2, 2}))
	scale := (*Point).Scale
	scale(&p, 0.5)
	fmt.Println(p)
	fmt.Println(apply(Point.Add, Point{1, 0}, Point{0, 1}))
	sum := Point.Sum
	addp := (*Point).Add
	fmt.Println(sum(p, 1, 2), addp(&p, p))
}
`)
	if want := "{3 3}\n{0.5 1}\n{1 1}\n4.5 {1 2}\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 9e: the result of an operation assigned to a compiled field of
// interface type (ring.Ring's Value any) is stored; the program used to
// stop silently there.
func TestOperationAssignedToCompiledInterfaceField(t *testing.T) {
	got := runMain(t, `package main

import (
	"container/list"
	"container/ring"
	"fmt"
)

func main() {
	r := ring.New(4)
	for i := 0; i < r.Len(); i++ {
		r.Value = i * 10
		r = r.Next()
	}
	r.Do(func(v any) { fmt.Print(v, " ") })
	fmt.Println()
	e := list.New().PushBack(0)
	x := 4
	e.Value = x + 1
	fmt.Println(e.Value)
	var y any
	y = x << 3
	s := []any{nil}
	s[0] = x * 2
	fmt.Println(y, s)
}
`)
	if want := "0 10 20 30 \n5\n32 [8]\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 9f: a typed nil pointer in an interface is not a nil interface.
func TestTypedNilInInterface(t *testing.T) {
	got := runMain(t, `package main

import "fmt"

type MyErr struct{}

func (*MyErr) Error() string { return "my error" }

func mayFail(fail bool) error {
	var p *MyErr
	if fail {
		p = &MyErr{}
	}
	return p
}

func none() error { return nil }

func main() {
	err := mayFail(false)
	fmt.Println(err == nil, err != nil, err.Error())
	fmt.Println(mayFail(true) == nil, none() == nil)
	var p *MyErr
	var e error = p
	fmt.Println(e == nil)
	e = nil
	fmt.Println(e == nil)
}
`)
	if want := "false true my error\nfalse true\nfalse\ntrue\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 9g: a composite literal assigned to an error variable is wrapped
// as an error, as any other value is.
func TestCompositeLiteralAssignedToError(t *testing.T) {
	got := runMain(t, `package main

import (
	"errors"
	"fmt"
)

type codeErr struct{ code int }

func (e codeErr) Error() string        { return fmt.Sprint("code ", e.code) }
func (e codeErr) Is(target error) bool { return target == errCode }

var errCode = errors.New("any code")

func main() {
	var ce error = codeErr{3}
	fmt.Println(errors.Is(ce, errCode), ce)
	var e2 error
	e2 = codeErr{4}
	fmt.Println(errors.Is(e2, errCode), e2, errors.Unwrap(e2) == nil)
}
`)
	if want := "true code 3\ntrue code 4 true\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}
