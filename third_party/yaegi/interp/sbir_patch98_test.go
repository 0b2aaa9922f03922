package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirArgumentsBeforeSpreadSlice checks sbir patch 98: in a call that
// spreads a slice with ..., the arguments before it are converted to
// their parameters' types as in any call (the want text is go run's).
// Without the patch a declared function passed to a func-typed parameter
// panicked in reflect.Set ("value of type *interp.node is not assignable
// to type func(int) bool", two published learngo programs), and a value
// passed to an interface parameter was not wrapped.
func TestSbirArgumentsBeforeSpreadSlice(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `package main

import (
	"fmt"
	"strings"
)

type pred func(int) bool

type Shape interface{ Area() int }

type sq int

func (s sq) Area() int { return int(s * s) }

type oops struct{ what string }

func (o *oops) Error() string { return "oops: " + o.what }

func isEven(n int) bool { return n%2 == 0 }

func keep(p pred, nums ...int) (out []int) {
	for _, n := range nums {
		if p(n) {
			out = append(out, n)
		}
	}
	return
}

func total(s Shape, scale ...int) int {
	t := s.Area()
	for _, k := range scale {
		t *= k
	}
	return t
}

func report(err error, lines ...string) string {
	return err.Error() + ": " + strings.Join(lines, ", ")
}

func greater(min int) pred { return func(n int) bool { return n > min } }

func main() {
	nums := []int{1, 2, 3, 4, 5, 6}
	fmt.Println(keep(isEven, nums...))
	fmt.Println(keep(greater(4), nums...))
	fmt.Println(keep(func(n int) bool { return n < 3 }, nums...))
	fmt.Println(total(sq(3), []int{2, 5}...))
	fmt.Println(report(&oops{"disk"}, []string{"a", "b"}...))
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := `[2 4 6]
[5 6]
[1 2]
90
oops: disk: a, b
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

// TestSbirSpreadAnySliceToFmt checks sbir patch 98b: a []any spread into
// fmt's ...any (fmt.Println(xs...)) prints each element as it prints the
// same operand passed alone (the want text is go run's). Without the
// patch an element of a type with methods printed as the interpreter's
// struct ("{0xc000... {0x... 130}}").
func TestSbirSpreadAnySliceToFmt(t *testing.T) {
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

type Level int

func (l Level) String() string { return [...]string{"low", "mid", "high"}[l] }

type point struct{ x, y int }

type oops struct{ what string }

func (o *oops) Error() string { return "oops: " + o.what }

func main() {
	xs := []any{Level(2), point{1, 2}, &point{3, 4}, 5, "s", nil}
	fmt.Println(xs...)
	fmt.Printf("%v|%+v|%v|%d|%q|%v\n", xs...)
	fmt.Print(xs[:2]...)
	fmt.Println()
	s := fmt.Sprint(xs[0], xs[1])
	fmt.Println(s, fmt.Sprintln(xs[:1]...))
	errs := []any{&oops{"a"}, errors.New("b")}
	fmt.Println(errs...)
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := `high {1 2} &{3 4} 5 s <nil>
high|{x:1 y:2}|&{3 4}|5|"s"|<nil>
high {1 2}
high {1 2} high

oops: a b
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
