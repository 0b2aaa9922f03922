package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// anyResultDecls declares values of defined int, string, struct and
// pointer types, with and without methods, returned through any,
// interface{}, fmt.Stringer and error results, single and multiple, from
// functions, methods and closures. anyResultStmts uses them as a notebook
// cell's top-level statements; in the file form they are main's body.
const anyResultDecls = `
type celsius int

func (c celsius) String() string { return fmt.Sprintf("%d°C", int(c)) }

type label string

func (l label) String() string { return "<" + string(l) + ">" }

type meters float64

type bare struct{ a int }

type point struct{ x, y int }

type named struct{ n string }

func (v named) String() string { return "named:" + v.n }

type ptrOnly struct{ n int }

func (p *ptrOnly) String() string { return fmt.Sprint("ptr:", p.n) }

type codeErr int16

func (e codeErr) Error() string { return fmt.Sprintf("code %d", int(e)) }

func asAny(c celsius) any                 { return c }
func asEmpty(l label) interface{}         { return l }
func asStringer(c celsius) fmt.Stringer   { return c }
func asPoint(p point) any                 { return p }
func asPtr(p *point) any                  { return p }
func asNamed(v named) any                 { return v }
func asPtrOnly(n int) any                 { return &ptrOnly{n} }
func asPlain(m meters) any                { return m }
func asBare(b bare) any                   { return b }
func asBarePtr(b *bare) any               { return b }
func asErr(c int16) error                 { return codeErr(c) }
func asErrAny(c int16) any                { return codeErr(c) }
func pair(c celsius) (any, error)         { return c, codeErr(int16(c)) }
func triple(c celsius) (int, any, string) { return 1, c, "s" }
func constAny() any                       { return celsius(9) }
func viaVar(c celsius) any {
	var r any = c
	return r
}

func (c celsius) Self() any { return c }

func (p point) Self() any { return p }

func kind(v any) string {
	switch x := v.(type) {
	case celsius:
		return "celsius " + x.String()
	case label:
		return "label " + x.String()
	case point:
		return fmt.Sprint("point ", x.x)
	case *point:
		return fmt.Sprint("*point ", x.y)
	case named:
		return "named " + x.n
	case bare:
		return fmt.Sprint("bare ", x.a)
	case error:
		return "error " + x.Error()
	case fmt.Stringer:
		return "stringer " + x.String()
	case int:
		return "int"
	case string:
		return "string"
	}
	return "other"
}

func inFunc() {
	v := asAny(40)
	fmt.Printf("%T %v %s\n", v, v, kind(v))
	fmt.Printf("%T %+v\n", asBare(bare{41}), asPtr(&point{42, 43}))
	a, err := pair(44)
	fmt.Printf("%T %v %v\n", a, a, err)
	f := func(l label) any { return l }
	fmt.Printf("%T %v %s\n", f("in"), f("in"), kind(f("in")))
	fmt.Println(asErrAny(45).(error))
}
`

const anyResultStmts = `
v := asAny(21)
fmt.Printf("%T %v %s\n", v, v, kind(v))
fmt.Printf("%T %v\n", asAny(22), asAny(22))
fmt.Printf("%T %v\n", asEmpty("a"), asEmpty("b"))
fmt.Printf("%v %s\n", asStringer(23), asStringer(23).String())
fmt.Printf("%T %v %+v\n", asPoint(point{1, 2}), asPoint(point{1, 2}), asPoint(point{1, 2}))
fmt.Printf("%T %+v\n", asPtr(&point{3, 4}), asPtr(&point{3, 4}))
fmt.Printf("%T %v\n", asNamed(named{"n"}), asNamed(named{"n"}))
fmt.Printf("%T %v\n", asPtrOnly(5), asPtrOnly(5))
fmt.Printf("%v\n", asPlain(6.5))
fmt.Printf("%T %v %+v\n", asBare(bare{1}), asBare(bare{2}), asBare(bare{3}))
fmt.Printf("%T %+v\n", asBarePtr(&bare{4}), asBarePtr(&bare{5}))
bv := asBare(bare{6})
fmt.Printf("%T %+v\n", bv, bv)
fmt.Printf("%T %v\n", asErr(7), asErr(7))
fmt.Printf("%T %v\n", asErrAny(8), asErrAny(8))
a, err := pair(24)
fmt.Printf("%T %v %T %v\n", a, a, err, err)
_, b, s := triple(25)
fmt.Printf("%T %v %s\n", b, b, s)
fmt.Printf("%T %v\n", constAny(), constAny())
fmt.Printf("%T %v\n", viaVar(26), viaVar(26))
fmt.Printf("%T %v\n", celsius(27).Self(), point{5, 6}.Self())
f := func(c celsius) any { return c }
fmt.Printf("%T %v\n", f(7), f(7))
g := func(l label) (any, bool) { return l, true }
gl, ok := g("g")
fmt.Printf("%T %v %v\n", gl, gl, ok)
c, ok := asAny(28).(celsius)
fmt.Println(c, ok, c+1)
_, ok = asAny(29).(fmt.Stringer)
fmt.Println(ok)
l, ok := asEmpty("x").(label)
fmt.Println(l, ok)
p, ok := asPoint(point{7, 8}).(point)
fmt.Println(p.x+p.y, ok)
e, ok := asErr(30).(codeErr)
fmt.Println(e, ok, int(e)+1)
for _, x := range []any{asAny(1), asEmpty("e"), asPoint(point{}), asPtr(&point{y: 9}), asNamed(named{"k"}), asErrAny(2), asPtrOnly(3), asBare(bare{7})} {
	fmt.Println(kind(x))
}
m := map[string]any{"c": asAny(31), "p": asPoint(point{1, 1})}
fmt.Println(m)
fmt.Println(asAny(32), asEmpty("y"), asStringer(33))
fmt.Println(fmt.Sprint(asAny(34)), fmt.Sprintf("%d", asAny(35)))
e2, ok2 := asErrAny(36).(error)
fmt.Println(e2, ok2)
s3, ok3 := asNamed(named{"z"}).(fmt.Stringer)
fmt.Println(s3, ok3, asPtrOnly(37).(fmt.Stringer).String())
inFunc()
`

// anyResultWant is what go run printed for the file form
// ("package main\n\nimport \"fmt\"\n" + anyResultDecls + "func main() {" +
// anyResultStmts + "}").
const anyResultWant = `main.celsius 21°C celsius 21°C
main.celsius 22°C
main.label <b>
23°C 23°C
main.point {1 2} {x:1 y:2}
*main.point &{x:3 y:4}
main.named named:n
*main.ptrOnly ptr:5
6.5
main.bare {2} {a:3}
*main.bare &{a:5}
main.bare {a:6}
main.codeErr code 7
main.codeErr code 8
main.celsius 24°C main.codeErr code 24
main.celsius 25°C s
main.celsius 9°C
main.celsius 26°C
main.celsius {5 6}
main.celsius 7°C
main.label <g> true
28°C true 29°C
true
<x> true
15 true
code 30 true 31
celsius 1°C
label <e>
point 0
*point 9
named k
error code 2
stringer ptr:3
bare 7
map[c:31°C p:{1 1}]
32°C <y> 33°C
34°C 35
code 36 true
named:z true ptr:37
main.celsius 40°C celsius 40°C
main.bare &{x:42 y:43}
main.celsius 44°C code 44
main.label <in> label <in>
code 45
`

// TestSbirAnyResultKeepsType checks sbir patches 160 to 164: a value of a
// declared type returned through an interface result keeps its type, as
// it does assigned to an interface variable (%T, String and Error
// methods, type switches with and without assignment, assertions), as a
// whole file and as top-level statements evaluated after the
// declarations. Before them, %T printed int, string or reflect's struct
// { Xa int ... } and the String method was not called.
func TestSbirAnyResultKeepsType(t *testing.T) {
	forms := []struct {
		name string
		srcs []string
	}{
		{"file", []string{"package main\n\nimport \"fmt\"\n" + anyResultDecls + "func main() {" + anyResultStmts + "}\n"}},
		{"toplevel", []string{"import \"fmt\"\n" + anyResultDecls, anyResultStmts}},
	}
	for _, form := range forms {
		t.Run(form.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			for _, src := range form.srcs {
				if _, err := i.Eval(src); err != nil {
					t.Fatalf("%v\noutput so far:\n%s", err, out.String())
				}
			}
			if got := out.String(); got != anyResultWant {
				t.Errorf("output:\n%s\nwant (go run):\n%s", got, anyResultWant)
			}
		})
	}
}
