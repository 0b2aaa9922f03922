package interp_test

import "testing"

// Patch 20a and 20b: a value of an interpreted type held in an empty
// interface keeps its type, so that an assertion to an interpreted
// interface finds its methods, whichever way it got into the interface,
// and `v, ok := x.(I)` stores the result.
func TestAssertEmptyInterfaceToInterpretedInterface(t *testing.T) {
	const decls = `package main

import "fmt"

type Stringer interface{ String() string }

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1fC", float64(c)) }

type Point struct{ X int }

func (p Point) String() string { return fmt.Sprint("P", p.X) }

func str(value interface{}) string {
	if s, ok := value.(Stringer); ok {
		return s.String()
	}
	return "?"
}
`
	for _, tc := range []struct{ name, body, want string }{
		{"parameter, comma-ok", `fmt.Println(str(Celsius(-4)), str(Point{2}), str(7))`, "-4.0C P2 ?\n"},
		{"var with a composite literal", `var v interface{} = Point{3}
	s := v.(Stringer)
	fmt.Println(s.String())`, "P3\n"},
		{"assignment of a composite literal", `var v any
	v = Point{4}
	_, ok := v.(Stringer)
	s, ok2 := v.(Stringer)
	fmt.Println(ok, ok2, s)`, "true true P4\n"},
		{"blank result", `var v any = Celsius(1)
	_, ok := v.(Stringer)
	_, ok2 := v.(interface{ Missing() })
	fmt.Println(ok, ok2)`, "true false\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, out, _ := newTestInterp(t)
			src := decls + "\nfunc main() {\n\t" + tc.body + "\n}\n"
			if _, err := i.Eval(src); err != nil {
				t.Fatalf("%v\nsource:\n%s", err, src)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("printed %q, want %q", got, tc.want)
			}
		})
	}
}

// Patch 20c: a const spec with several names repeats every value of the
// previous spec, and iota counts specs, not names.
func TestConstSpecsWithSeveralNames(t *testing.T) {
	i, out, _ := newTestInterp(t)
	src := `package main

import "fmt"

const (
	a, b = iota, iota * 10
	c, d
	_, _
	e, f
	g    = iota
)

func main() {
	const (
		x, y = iota, -iota
		z, w
	)
	fmt.Println(a, b, c, d, e, f, g, x, y, z, w)
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\nsource:\n%s", err, src)
	}
	if got, want := out.String(), "0 0 1 10 3 30 4 0 0 1 -1\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 20d: encoding/json promotes the fields of an embedded interpreted
// struct, as it does for gc's types, beside other fields.
func TestEmbeddedStructFieldsPromotedToEncoders(t *testing.T) {
	i, out, _ := newTestInterp(t)
	src := `package main

import (
	"encoding/json"
	"fmt"
	"time"
)

type audit struct {
	By string ` + "`json:\"by\"`" + `
}

type Base struct{ N int }

func (b Base) Hello() string { return "hi" }

type Award struct {
	audit
	*Base
	ID   int ` + "`json:\"id\"`" + `
	When time.Time
}

func main() {
	a := Award{audit: audit{"ann"}, Base: &Base{3}, ID: 1}
	b, err := json.Marshal(&a)
	fmt.Println(string(b), err, a.Hello())
	var c Award
	err = json.Unmarshal([]byte(` + "`" + `{"by":"bob","id":2,"N":5}` + "`" + `), &c)
	fmt.Println(err, c.By, c.ID, c.N)
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\nsource:\n%s", err, src)
	}
	want := `{"by":"ann","N":3,"id":1,"When":"0001-01-01T00:00:00Z"} <nil> hi` + "\n<nil> bob 2 5\n"
	if got := out.String(); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 20e: two interfaces holding equal values of the same interpreted
// type are equal; different values or types are not.
func TestInterfacesOfInterpretedValuesCompareByValue(t *testing.T) {
	i, out, _ := newTestInterp(t)
	src := `package main

import "fmt"

type Shape interface{ Area() float64 }

type Sq struct{ s float64 }

func (s Sq) Area() float64 { return s.s * s.s }

type Rect struct{ w, h float64 }

func (r Rect) Area() float64 { return r.w * r.h }

func main() {
	var a, b Shape = Sq{2}, Sq{2}
	var c Shape = Sq{3}
	var d Shape = Rect{2, 2}
	s := Sq{2}
	var e Shape = s
	var x, y any = Sq{1}, Sq{1}
	fmt.Println(a == b, a != b, a == c, a != c, a == d, a == e, x == y)
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\nsource:\n%s", err, src)
	}
	if got, want := out.String(), "true false false true false true true\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Patch 20f: a type switch case naming an interface (error, fmt.Stringer)
// matches compiled values that implement it, and interpreted ones in a
// case without a variable or with several types.
func TestTypeSwitchInterfaceCases(t *testing.T) {
	i, out, _ := newTestInterp(t)
	src := `package main

import (
	"errors"
	"fmt"
	"strings"
)

type MyErr struct{}

func (MyErr) Error() string { return "my" }

func several(v any) string {
	switch x := v.(type) {
	case int, string:
		return fmt.Sprint("basic ", x)
	case fmt.Stringer, error:
		return fmt.Sprint("printable ", x)
	}
	return "other"
}

func one(v any) string {
	switch x := v.(type) {
	case error:
		return "error " + x.Error()
	}
	return "other"
}

func bare(v any) string {
	switch v.(type) {
	case error:
		return "error"
	case fmt.Stringer:
		return "stringer"
	}
	return "other"
}

func main() {
	var b strings.Builder
	b.WriteString("sb")
	for _, v := range []any{errors.New("e"), MyErr{}, &b, 3, 2.5} {
		fmt.Println(several(v), "|", one(v), "|", bare(v))
	}
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\nsource:\n%s", err, src)
	}
	// one(MyErr{}) (a single interface type, a variable, an
	// interpreted value) printed "other" until patch 163.
	want := "printable e | error e | error\n" +
		"printable my | error my | error\n" +
		"printable sb | other | stringer\n" +
		"basic 3 | other | other\n" +
		"other | other | other\n"
	if got := out.String(); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}
