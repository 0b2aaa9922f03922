package worker_test

import (
	"testing"
)

// methodPrograms pass values of interpreted types with methods to
// compiled code (fmt, errors, sort...), which must see the methods as it
// does for compiled types (yaegi sbir patches 9x).
var methodPrograms = []struct{ name, src string }{
	{"fmt-nested-methods", `package main

import "fmt"

type Query struct{ table string }

func From(t string) *Query        { return &Query{t} }
func (q *Query) String() string   { return "SELECT * FROM " + q.table }

type Day int

func (d Day) String() string { return [...]string{"Sun", "Mon", "Tue"}[d] }

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func (p Pair[K, V]) String() string { return fmt.Sprintf("%v=%v", p.Key, p.Val) }

type secret string

func (secret) GoString() string { return "secret(***)" }

type Shape interface{ Area() int }
type Rect struct{ W, H int }

func (r Rect) Area() int        { return r.W * r.H }
func (r Rect) String() string  { return fmt.Sprintf("Rect(%dx%d)", r.W, r.H) }

func largest(s []Shape) Shape { return s[len(s)-1] }

type Row struct {
	Day  Day
	day  Day
	Next *Query
}

func main() {
	fmt.Println(From("awards"))
	fmt.Printf("%d %v %5s|\n", Day(2), Day(2), Day(1))
	fmt.Println([]Pair[string, int]{{"a", 1}, {"b", 2}}, map[Day]bool{1: true})
	fmt.Printf("%#v %v %T\n", secret("pw"), secret("pw"), Day(0))
	shapes := []Shape{Rect{1, 2}, Rect{3, 4}}
	fmt.Printf("%v %s %v\n", largest(shapes), shapes[0], shapes)
	fmt.Printf("%v %+v\n", Row{1, 2, From("x")}, Row{Day: 2})
}
`},
	{"errors-custom-methods", `package main

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

func (e codeErr) Error() string        { return "code " + strconv.Itoa(e.code) }
func (e codeErr) Is(target error) bool { return target == errCode }

var errCode = errors.New("any code")

func check(c int) error { return codeErr{c} }

func parse(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, &ParseError{Line: 2, Err: err}
	}
	return n, nil
}

func main() {
	_, err := parse("two")
	fmt.Println(err, errors.Is(err, strconv.ErrSyntax), errors.Unwrap(err))
	var pe *ParseError
	fmt.Println(errors.As(err, &pe) && pe.Line == 2)
	fmt.Println(errors.Is(check(3), errCode), errors.Is(fmt.Errorf("ctx: %w", err), strconv.ErrSyntax))
	var ce error = codeErr{4}
	fmt.Println(errors.Is(ce, errCode), ce)
}
`},
	{"switch-case-list", `package main

import "fmt"

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
}
`},
	{"method-values-and-expressions", `package main

import "fmt"

type Point struct{ X, Y float64 }

func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }
func (p *Point) Scale(f float64)  { p.X *= f; p.Y *= f }

func main() {
	p := Point{1, 2}
	add := p.Add
	fmt.Println(add(Point{10, 10}))
	scale := p.Scale
	scale(3)
	fmt.Println(p)
	addExpr := Point.Add
	fmt.Println(addExpr(Point{1, 1}, Point{2, 2}))
	scaleExpr := (*Point).Scale
	scaleExpr(&p, 0.5)
	fmt.Println(p)
}
`},
	{"container-ring-values", `package main

import (
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
	r = r.Move(2)
	fmt.Println(r.Value, r.Prev().Value)
}
`},
	{"typed-nil-in-interface", `package main

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

func main() {
	err := mayFail(false)
	fmt.Println(err == nil, err != nil, err.Error())
}
`},
}

// TestMethodsAgainstGoRun runs each of methodPrograms in a sandbox
// session and with go run, and compares their output.
func TestMethodsAgainstGoRun(t *testing.T) { compareWithGoRun(t, methodPrograms) }
