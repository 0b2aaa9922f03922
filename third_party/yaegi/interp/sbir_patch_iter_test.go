package interp_test

import (
	"bytes"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// newIterInterp returns an interpreter with the standard library and a
// package "seqs" of compiled range functions (the Go 1.23 iterator functions
// the bundled symbol table does not have).
func newIterInterp(t *testing.T) (*interp.Interpreter, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &errb})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(interp.Exports{"seqs/seqs": {
		"Lines":    reflect.ValueOf(compiledLines),
		"SplitSeq": reflect.ValueOf(compiledSplit),
		"Ints":     reflect.ValueOf(compiledValues[int]),
		"Pairs":    reflect.ValueOf(compiledAll[string]),
		"Keys":     reflect.ValueOf(compiledKeys[string, int]),
		"Count": reflect.ValueOf(func(n int) func(func() bool) {
			return func(yield func() bool) {
				for i := 0; i < n; i++ {
					if !yield() {
						return
					}
				}
			}
		}),
	}}); err != nil {
		t.Fatal(err)
	}
	return i, &out
}

// Compiled range functions, as the standard library's (this module is
// go1.21, so strings.Lines, slices.Values and maps.Keys are not used).
type stringSeq func(yield func(string) bool)

func compiledLines(s string) stringSeq {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			i := strings.IndexByte(s, '\n') + 1
			if i == 0 {
				i = len(s)
			}
			if !yield(s[:i]) {
				return
			}
			s = s[i:]
		}
	}
}

func compiledSplit(s, sep string) stringSeq {
	return func(yield func(string) bool) {
		for _, p := range strings.Split(s, sep) {
			if !yield(p) {
				return
			}
		}
	}
}

func compiledValues[E any](s []E) func(func(E) bool) {
	return func(yield func(E) bool) {
		for _, v := range s {
			if !yield(v) {
				return
			}
		}
	}
}

func compiledAll[E any](s []E) func(func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i, v := range s {
			if !yield(i, v) {
				return
			}
		}
	}
}

func compiledKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Patch 8a: range over functions.
func TestRangeFunc(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"func literal, two values", `
func main() {
	squares := func(yield func(int, int) bool) {
		for i := 1; i <= 3; i++ {
			if !yield(i, i*i) {
				return
			}
		}
	}
	for n, sq := range squares {
		fmt.Println(n, sq)
	}
}`, "1 1\n2 4\n3 9\n"},
		{"named generic Seq, break and continue", `
type Seq[V any] func(yield func(V) bool)

func Count(n int) Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				fmt.Println("stopped at", i)
				return
			}
		}
		fmt.Println("exhausted")
	}
}

func main() {
	for i := range Count(10) {
		if i%2 == 0 {
			continue
		}
		if i > 6 {
			break
		}
		fmt.Print(i, " ")
	}
	fmt.Println()
	for i := range Count(2) {
		fmt.Print(i, " ")
	}
	n := 0
	for range Count(3) {
		n++
	}
	fmt.Println(n)
}`, "1 3 5 stopped at 7\n\n0 1 exhausted\nexhausted\n3\n"},
		{"method returning Seq2, return from the loop", `
type List struct{ items []string }

func (l *List) All() func(yield func(int, string) bool) {
	return func(yield func(int, string) bool) {
		defer fmt.Println("iterator done")
		for i, s := range l.items {
			if !yield(i, s) {
				return
			}
		}
	}
}

func find(l *List, w string) (int, bool) {
	for i, s := range l.All() {
		if s == w {
			return i, true
		}
	}
	return -1, false
}

func main() {
	l := &List{[]string{"a", "b", "c"}}
	fmt.Println(find(l, "b"))
	fmt.Println(find(l, "z"))
}`, "iterator done\n1 true\niterator done\n-1 false\n"},
		{"labeled break and continue, nested loops", `
func pairs(yield func(int) bool) {
	for i := 0; i < 3; i++ {
		if !yield(i) {
			return
		}
	}
}

func main() {
outer:
	for i := range pairs {
		for j := range pairs {
			if j > i {
				continue outer
			}
			if i == 2 && j == 1 {
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println()
loop:
	for k := 0; k < 3; k++ {
		for j := range pairs {
			if j == 1 {
				continue loop
			}
			if k == 2 {
				break loop
			}
			fmt.Print(k, j, " ")
		}
	}
	fmt.Println()
	for i := range pairs {
		switch i {
		case 1:
			break
		default:
			fmt.Print(i, " ")
		}
	}
	fmt.Println()
}`, "0 0 1 0 1 1 2 0 \n0 0 1 0 \n0 2 \n"},
		{"return from nested loops", `
func seq(yield func(int) bool) {
	for i := 0; i < 5; i++ {
		if !yield(i) {
			return
		}
	}
}

func f() string {
	for i := range seq {
		for j := range seq {
			if i*j == 6 {
				return fmt.Sprint(i, j)
			}
		}
	}
	return "none"
}

func main() { fmt.Println(f()) }`, "2 3\n"},
		{"defer in the body runs when the function returns", `
func seq(yield func(int) bool) {
	for i := 0; i < 3; i++ {
		if !yield(i) {
			return
		}
	}
}

func f() {
	for i := range seq {
		defer fmt.Println("deferred", i)
	}
	fmt.Println("end of f")
}

func main() { f() }`, "end of f\ndeferred 2\ndeferred 1\ndeferred 0\n"},
		{"closures and variables of the enclosing function", `
func seq(yield func(string) bool) {
	for _, s := range []string{"x", "y"} {
		if !yield(s) {
			return
		}
	}
}

func main() {
	total := ""
	var fs []func() string
	for s := range seq {
		s := s
		total += s
		fs = append(fs, func() string { return s + total })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
}`, "xxy yxy \n"},
		{"compiled range functions", `
import "seqs"

func main() {
	for line := range seqs.Lines("one\ntwo\n") {
		fmt.Printf("%q ", line)
	}
	for p := range seqs.SplitSeq("a,b,c", ",") {
		if p == "c" {
			break
		}
		fmt.Print(p, ";")
	}
	sum := 0
	for v := range seqs.Ints([]int{1, 2, 3}) {
		sum += v
	}
	for i, s := range seqs.Pairs([]string{"p", "q"}) {
		fmt.Print(i, s, " ")
	}
	n := 0
	for range seqs.Count(4) {
		n++
	}
	for k := range seqs.Keys(map[string]int{"k": 1}) {
		fmt.Print(k, " ")
	}
	fmt.Println(sum, n)
}`, "\"one\\n\" \"two\\n\" a;b;0p 1q k 6 4\n"},
		{"nil Seq compares with nil", `
type Seq[V any] func(yield func(V) bool)

func main() {
	var s Seq[int]
	var f func(func(int) bool)
	fmt.Println(s == nil, f == nil)
	s = func(yield func(int) bool) { yield(1) }
	fmt.Println(s != nil)
	for v := range s {
		fmt.Println(v)
	}
}`, "true true\ntrue\n1\n"},
		{"yield after the loop ended panics", `
func bad(yield func(int) bool) {
	yield(1)
	yield(2)
}

func main() {
	defer func() { fmt.Println("recovered:", recover()) }()
	for x := range bad {
		fmt.Println(x)
		break
	}
}`, "1\nrecovered: runtime error: range function continued iteration after function for loop body returned false\n"},
		{"panic in the body goes through the iterator", `
func seq(yield func(int) bool) {
	defer fmt.Println("iterator unwinds")
	yield(1)
}

func main() {
	defer func() { fmt.Println("recovered:", recover()) }()
	for x := range seq {
		panic(fmt.Sprint("boom ", x))
	}
}`, "iterator unwinds\nrecovered: boom 1\n"},
		{"panic in the iterator", `
func seq(yield func(int) bool) {
	yield(1)
	panic("iterator failed")
}

func main() {
	defer func() { fmt.Println("recovered:", recover()) }()
	for x := range seq {
		fmt.Println(x)
	}
}`, "1\nrecovered: iterator failed\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, out := newIterInterp(t)
			src := "package main\n\nimport \"fmt\"\n" + tc.src
			if strings.Contains(tc.src, "import \"seqs\"") {
				src = "package main\n\nimport \"fmt\"\n" + strings.Replace(tc.src, "import \"seqs\"", "import \"seqs\"\n\nvar _ = fmt.Sprint", 1)
			}
			if _, err := i.Eval(src); err != nil {
				t.Fatalf("%v\nstdout so far: %q", err, out)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("stdout = %q, want %q", got, tc.want)
			}
		})
	}
}

// Patch 8a: a nil range function and a range function that keeps calling
// yield after a panic fail as gc's do.
func TestRangeFuncRuntimeErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"nil function", `
func main() {
	var s func(func(int) bool)
	for v := range s {
		_ = v
	}
}`, "invalid memory address or nil pointer dereference"},
		{"yield after whole loop exit", `
var saved func(int) bool

func seq(yield func(int) bool) { saved = yield }

func main() {
	for v := range seq {
		_ = v
	}
	saved(1)
}`, "range function continued iteration after whole loop exit"},
		{"recovered body panic", `
func seq(yield func(int) bool) {
	defer func() { recover() }()
	yield(1)
}

func main() {
	for v := range seq {
		panic(v)
	}
}`, "range function recovered a loop body panic and did not resume panicking"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, _ := newIterInterp(t)
			_, err := i.Eval("package main\n" + tc.src)
			var rerr runtime.Error
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
			var pe interp.Panic
			if errors.As(err, &pe) {
				if _, ok := pe.Value.(runtime.Error); !ok {
					t.Errorf("panic value %T is not a runtime.Error", pe.Value)
				}
			} else if !errors.As(err, &rerr) {
				t.Errorf("error %T is neither a Panic nor a runtime.Error", err)
			}
		})
	}
}

// Patch 8a: wrong numbers of iteration variables are compile errors.
func TestRangeFuncVariableCount(t *testing.T) {
	for _, src := range []string{
		`func f(yield func(int) bool) {}; func main() { for a, b := range f { _, _ = a, b } }`,
		`func f(yield func() bool) {}; func main() { for a := range f { _ = a } }`,
	} {
		i, _ := newIterInterp(t)
		if _, err := i.Eval("package main\n" + src); err == nil || !strings.Contains(err.Error(), "permits") {
			t.Errorf("%s: error = %v, want a \"permits ... iteration variable\" error", src, err)
		}
	}
}

// Patch 8b: a deferred call's arguments are evaluated at the defer statement.
func TestDeferEvaluatesArguments(t *testing.T) {
	i, out := newIterInterp(t)
	_, err := i.Eval(`package main

import "fmt"

func show(s string, n int) { fmt.Println(s, n) }

func f() {
	for _, i := range []int{0, 1, 2} {
		defer fmt.Println("compiled", i)
		defer show("interpreted", i)
	}
	x := 5
	defer fmt.Println("x", x)
	x = 6
	ch := make(chan int, 1)
	defer close(ch)
	ch = nil
}

func main() { f() }`)
	if err != nil {
		t.Fatal(err)
	}
	want := "x 5\ninterpreted 2\ncompiled 2\ninterpreted 1\ncompiled 1\ninterpreted 0\ncompiled 0\n"
	if got := out.String(); got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8c: comma-ok definitions at top level (a REPL's statements).
func TestTopLevelCommaOk(t *testing.T) {
	i, out := newIterInterp(t)
	for _, src := range []string{
		`import "fmt"`,
		`type Reader interface{ Read() string }
type buf struct{}
func (buf) Read() string { return "r" }`,
		`m := map[string]int{"a": 42}
v, ok := m["a"]
w, ok2 := m["zz"]
_, ok3 := m["a"]
var x Reader = buf{}
_, isReader := x.(Reader)
var a any = 3.5
_, isInt := a.(int)
ch := make(chan string, 1)
ch <- "c"
c, open := <-ch
fmt.Println(v, ok, w, ok2, ok3, isReader, isInt, c, open)`,
		`k, found := m["a"]`,
		`fmt.Println(k, found)`,
		`f := func() (int, bool) { return 7, true }
for _, key := range []string{"a", "b"} {
	n, ok := m[key]
	r, ok2 := f()
	if s, ok3 := m[key]; ok3 {
		fmt.Println("if", s)
	}
	fmt.Println(n, ok, r, ok2)
}`,
		// The result of a call in an if statement's init, then a
		// definition of the same name after the if.
		`func pair() (int, bool) { return 1, true }`,
		"if v, ok := pair(); ok {\n\tfmt.Println(\"in\", v)\n}\n_, ok4 := pair()\nfmt.Println(ok4)",
		"if w, ok5 := pair(); ok5 {\n\tfmt.Println(\"in2\", w)\n}\nok5 := false\nfmt.Println(ok5)",
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := out.String(), "42 true 0 false true true false c true\n42 true\nif 42\n42 true 7 true\n0 false 7 true\nin 1\ntrue\nin2 1\nfalse\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8d: a deferred call in a top-level block runs once, at the end of
// its evaluation, not again at every later one.
func TestTopLevelDeferRunsOnce(t *testing.T) {
	i, out := newIterInterp(t)
	for _, src := range []string{
		`import "fmt"`,
		`for i := 0; i < 2; i++ {
	defer fmt.Println("deferred", i)
}
fmt.Println("body")`,
		`fmt.Println("next")`,
		`fmt.Println("last")`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := out.String(), "body\ndeferred 1\ndeferred 0\nnext\nlast\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8e: a var declaration may use a variable an earlier evaluation
// defined with :=, and globals of one evaluation still wait for each other.
func TestVarUsesEarlierDefinition(t *testing.T) {
	i, out := newIterInterp(t)
	for _, src := range []string{
		`import "fmt"`,
		`primes := [6]int{2, 3, 5, 7, 11, 13}`,
		`var s []int = primes[1:4]`,
		`var b = a + len(s)
var a = primes[0]`,
		`fmt.Println(s, a, b)`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := out.String(), "[3 5 7] 2 5\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8f: type parameters inferred from arguments of compiled types.
func TestGenericInferenceFromCompiledTypes(t *testing.T) {
	i, out := newIterInterp(t)
	_, err := i.Eval(`package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

func Map[T, U any](s []T, f func(T) U) []U {
	out := make([]U, 0, len(s))
	for _, v := range s {
		out = append(out, f(v))
	}
	return out
}

func Head[E any](s []E) E { return s[0] }

func Keys[K comparable, V any](m map[K]V) int { return len(m) }

func main() {
	strs := Map([]int{1, 22}, strconv.Itoa)
	fmt.Println(strs, len(strs[1]))
	lens := Map(strs, func(s string) int { return len(s) })
	fmt.Println(lens, Head(strings.Fields("x y")), Keys(url.Values{"a": nil}))
}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "[1 22] 2\n[1 2] x 1\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8g: generic types with several type parameters: recursive ones,
// and composite literals of one instance sharing its type.
func TestGenericMultiParamTypes(t *testing.T) {
	i, out := newIterInterp(t)
	_, err := i.Eval(`package main

import (
	"cmp"
	"fmt"
)

type node[K cmp.Ordered, V any] struct {
	k           K
	v           V
	left, right *node[K, V]
}

type Tree[K cmp.Ordered, V any] struct{ root *node[K, V] }

func (t *Tree[K, V]) Put(k K, v V) {
	p := &t.root
	for *p != nil {
		if k < (*p).k {
			p = &(*p).left
		} else {
			p = &(*p).right
		}
	}
	*p = &node[K, V]{k: k, v: v}
}

func (t *Tree[K, V]) Walk(f func(K, V)) {
	var walk func(n *node[K, V])
	walk = func(n *node[K, V]) {
		if n != nil {
			walk(n.left)
			f(n.k, n.v)
			walk(n.right)
		}
	}
	walk(t.root)
}

type pair[A, B any] struct {
	a A
	b B
}

func main() {
	var t Tree[string, int]
	for i, w := range []string{"m", "c", "x"} {
		t.Put(w, i)
	}
	t.Walk(func(k string, v int) { fmt.Print(k, v, " ") })
	x := pair[string, int]{a: "a"}
	y := pair[string, int]{a: "b", b: 2}
	fmt.Println(x.a, y.a, y.b)
}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "c1 m0 x2 a b 2\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8h: type parameters inferred through a parameter written as an
// instance of a generic type (seq Seq[T]).
func TestGenericInstanceParams(t *testing.T) {
	i, out := newIterInterp(t)
	_, err := i.Eval(`package main

import "fmt"

type Seq[V any] func(yield func(V) bool)

func Values[V any](s []V) Seq[V] {
	return func(yield func(V) bool) {
		for _, v := range s {
			if !yield(v) {
				return
			}
		}
	}
}

func Sum[T int | float64](seq Seq[T]) T {
	var s T
	for v := range seq {
		s += v
	}
	return s
}

func Filter[V any](seq Seq[V], keep func(V) bool) Seq[V] {
	return func(yield func(V) bool) {
		for v := range seq {
			if keep(v) && !yield(v) {
				return
			}
		}
	}
}

func main() {
	even := Filter(Values([]int{1, 2, 3, 4}), func(v int) bool { return v%2 == 0 })
	fmt.Println(Sum(even), Sum(Values([]float64{1.5, 2})))
}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "6 3.5\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8i: %T of an instance of a recursive generic struct type names it
// (it recursed through its fields until the stack overflowed).
func TestTypeVerbGenericStruct(t *testing.T) {
	i, out := newIterInterp(t)
	_, err := i.Eval(`package main

import "fmt"

type tn[K any] struct {
	k    K
	left *tn[K]
}

func main() {
	type local struct{ a int }
	fmt.Printf("%T %T %+v\n", tn[int]{}, local{}, tn[string]{k: "x"})
}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "main.tn[int] main.local {k:x left:<nil>}\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8j: range statements that assign to existing variables.
func TestRangeAssign(t *testing.T) {
	i, out := newIterInterp(t)
	_, err := i.Eval(`package main

import "fmt"

type P struct{ x int }

func seq(yield func(string, int) bool) {
	yield("a", 1)
	yield("b", 2)
}

func main() {
	var i, v int
	for i, v = range []int{7, 8} {
	}
	var k string
	m := map[string]int{"only": 1}
	for k = range m {
	}
	var p P
	for _, p.x = range []int{3, 4} {
	}
	var s string
	var n int
	for s, n = range seq {
		if n == 2 {
			break
		}
	}
	for i = range []int{1, 2, 3} {
		if i == 1 {
			continue
		}
	}
	fmt.Println(i, v, k, p.x, s, n)
}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "2 8 only 4 b 2\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// Patch 8a: each iteration of a range over a function has its own
// variables, as in Go 1.22.
func TestRangeFuncPerIterationVariables(t *testing.T) {
	i, out := newIterInterp(t)
	_, err := i.Eval(`package main

import "fmt"

func pairs(yield func(int, string) bool) {
	yield(1, "a")
	yield(2, "b")
}

func main() {
	var fs []func() string
	for k, v := range pairs {
		fs = append(fs, func() string { return fmt.Sprint(k, v) })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "1a 2b \n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}
