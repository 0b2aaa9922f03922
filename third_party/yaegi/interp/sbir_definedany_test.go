package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// definedAnyDecls and definedAnyStmts are a program comparing and keying
// values of defined types held in interfaces (sbir patches 200 to 202);
// definedAnyWant is what go run printed for it.
const definedAnyImports = `import (
	"fmt"
	"sort"
)

`

const definedAnyDecls = `
type celsius int

func (c celsius) String() string { return fmt.Sprintf("%d°C", int(c)) }

type code int

type label string

type flag bool

type ratio float64

type holder struct{ v any }

type pair [2]any

type codeErr int

func (e codeErr) Error() string { return fmt.Sprintf("code %d", int(e)) }

func asAny(x int) any            { return celsius(x) }
func codeAny(x int) any          { return code(x) }
func labelAny(s string) any      { return label(s) }
func double(c code) any          { return c * 2 }
func codePair(x int) (code, int) { return code(x), x }
func ident[T any](v T) any       { return v }

func kind(v any) string {
	switch v {
	case celsius(1):
		return "celsius(1)"
	case code(1):
		return "code(1)"
	case 1:
		return "1"
	case label("a"):
		return "label(a)"
	case "a":
		return "a"
	}
	return "other"
}

`

const definedAnyStmts = `	// == and != between interfaces holding defined types and their underlying types
	fmt.Println(asAny(1) == any(1), asAny(1) != any(1), asAny(1) == any(celsius(1)), asAny(1) == asAny(1), asAny(1) == any(code(1)))
	fmt.Println(codeAny(1) == any(1), codeAny(1) == any(code(1)), codeAny(1) == codeAny(1), codeAny(1) == code(1), codeAny(2) == code(1))
	fmt.Println(labelAny("a") == any("a"), labelAny("a") == any(label("a")), any(flag(true)) == any(true), any(ratio(0.5)) == any(0.5), any(ratio(0.5)) == ratio(0.5))
	var a, b any = code(2), 2
	fmt.Println(a == b, a != b, a == code(2), b == code(2), a == 2, b == 2)
	c := code(3)
	var x any = c
	fmt.Println(x == c, x == any(c), x == 3, ident(c) == x, ident(3) == x, ident(celsius(3)) == x)

	var fromPair any
	fromPair, _ = codePair(8)
	fmt.Printf("%T %v %v\n", fromPair, fromPair == code(8), fromPair == any(8))
	var prod any = 3 * c
	fmt.Printf("%T %T %v %v\n", double(c), prod, prod == code(9), double(c) == any(6))

	// switch on an any
	fmt.Println(kind(asAny(1)), kind(codeAny(1)), kind(1), kind(labelAny("a")), kind("a"), kind(x))

	// %T and %v of an any holding a defined type without methods
	var y any = code(4)
	ys := []any{code(5), label("l"), ratio(1.5), flag(false)}
	ys = append(ys, code(6))
	ch := make(chan any, 1)
	ch <- label("sent")
	fmt.Printf("%T %v %T %T\n", y, y, codeAny(1), ident(code(7)))
	for _, e := range ys {
		fmt.Printf("%T=%v ", e, e)
	}
	fmt.Printf("%T\n", <-ch)
	sel := make(chan any, 1)
	select {
	case sel <- code(10):
	}
	fmt.Printf("%T\n", <-sel)

	// struct fields and arrays of interface type
	fmt.Println(holder{asAny(1)} == holder{any(1)}, holder{asAny(1)} == holder{asAny(1)}, holder{codeAny(1)} == holder{1}, holder{codeAny(1)} == holder{code(1)})
	fmt.Println([2]any{asAny(1), 2} == [2]any{celsius(1), 2}, [2]any{codeAny(1), 2} == [2]any{1, 2}, pair{code(1), "x"} == pair{code(1), "x"})

	// map[any] keys
	m := map[any]string{}
	m[asAny(1)] = "celsius"
	_, ok := m[celsius(1)]
	fmt.Println(ok, len(m))
	var k any = celsius(2)
	m[k] = "var"
	_, ok = m[celsius(2)]
	fmt.Println(ok, len(m))
	m[codeAny(1)] = "code"
	m[1] = "int"
	m[label("a")] = "label"
	m["a"] = "string"
	fmt.Println(len(m), m[celsius(1)], m[code(1)], m[1], m[label("a")], m["a"], m[codeAny(1)])
	cnt := map[any]int{code(1): 1, 1: 10}
	cnt[code(1)]++
	cnt[codeAny(1)] += 5
	cnt[1]++
	cnt[c]++
	delete(cnt, code(3))
	fmt.Println(cnt[code(1)], cnt[1], len(cnt))
	var names []string
	for key, v := range cnt {
		names = append(names, fmt.Sprintf("%T:%v:%d", key, key, v))
	}
	sort.Strings(names)
	fmt.Println(names)

	// keys of struct and array types holding interfaces
	mh := map[holder]int{}
	mh[holder{asAny(1)}]++
	mh[holder{celsius(1)}]++
	mh[holder{1}]++
	mh[holder{code(1)}]++
	mh[holder{codeAny(1)}]++
	fmt.Println(len(mh), mh[holder{celsius(1)}], mh[holder{code(1)}], mh[holder{1}])
	mp := map[pair]int{{code(1), 2}: 1}
	mp[pair{codeAny(1), 2}]++
	fmt.Println(len(mp), mp[pair{code(1), 2}], mp[pair{1, 2}])
	for key := range mp {
		fmt.Printf("%T %T\n", key, key[0])
	}

	// pointers to defined types
	p := &c
	mptr := map[any]int{p: 1}
	mptr[any(p)]++
	fmt.Println(any(p) == any(p), mptr[p], len(mptr))

	// errors of a defined non-struct type
	// (errors.Is is the kernel's own: see the corpus program)
	var e1 error = codeErr(1)
	fmt.Println(e1 == codeErr(1), e1 == codeErr(2), any(codeErr(1)) == any(1), any(codeErr(1)) == any(codeErr(1)))
`

const definedAnyWant = `false true true true false
false true true true false
false true false false true
false true true false false true
true true false true false false
main.code true false
main.code main.code true false
celsius(1) code(1) 1 label(a) a other
main.code 4 main.code main.code
main.code=5 main.label=l main.ratio=1.5 main.flag=false main.code=6 main.label
main.code
false true false true
true false true
true 1
true 2
6 celsius code int label string code
7 11 2
[int:1:11 main.code:1:7]
3 2 2 1
1 2 0
main.pair main.code
true 2 1
true false false true
`

// TestSbirDefinedValuesInAnyCompareAndKey checks sbir patches 200 to 202:
// a value of a defined type (with methods or without, any underlying
// basic type) held in an interface keeps its type for ==, !=, a switch
// on the interface, %T, struct and array comparisons, and map keys
// (map[any], keys of struct and array types holding interfaces, map
// literals, ++, +=, delete, range), as a whole program and as top-level
// statements after the declarations. The output is go run's.
func TestSbirDefinedValuesInAnyCompareAndKey(t *testing.T) {
	forms := []struct {
		name string
		srcs []string
	}{
		{"file", []string{"package main\n\n" + definedAnyImports + definedAnyDecls + "func main() {\n" + definedAnyStmts + "}\n"}},
		{"toplevel", []string{definedAnyImports + definedAnyDecls, definedAnyStmts}},
	}
	for _, form := range forms {
		t.Run(form.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, RefuseIndistinctTypes: true})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			for _, src := range form.srcs {
				if _, err := i.Eval(src); err != nil {
					t.Fatalf("%v\noutput so far:\n%s", err, out.String())
				}
			}
			if got := out.String(); got != definedAnyWant {
				t.Errorf("output:\n%s\nwant (go run):\n%s", got, definedAnyWant)
			}
		})
	}
}

// TestSbirDefinedValuesInAnyAcrossEvaluations checks sbir patches 200
// and 202 across evaluations, as notebook cells run: keys stored and
// values kept in one evaluation are found and compared in later ones.
// A type declared again with the same underlying type is, for == and
// map keys, the type of that name (as == named types before: a value of
// the old declaration equals one of the new); gc has no such case.
func TestSbirDefinedValuesInAnyAcrossEvaluations(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, RefuseIndistinctTypes: true})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`import "fmt"`,
		`type code int
type celsius int
func (c celsius) String() string { return fmt.Sprint(int(c), "C") }
var m = map[any]int{}
var saved, other any`,
		`m[code(1)] = 1
m[celsius(1)] = 2
saved, other = code(1), celsius(1)`,
		`fmt.Println(m[code(1)], m[celsius(1)], m[1], len(m), saved == code(1), saved == any(1), other == saved, other == celsius(1))
for k, v := range m {
	if v == 2 {
		fmt.Printf("%T %v\n", k, k)
	}
}`,
		`type code int`,
		`fmt.Println(saved == code(1), m[code(1)], m[saved])`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%v\noutput so far:\n%s", err, out.String())
		}
	}
	want := "1 2 0 2 true false false true\nmain.celsius 1C\ntrue 1 1\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
