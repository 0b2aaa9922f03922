package interp_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// speedInterp returns an interpreter with the standard library, its
// standard output in out.
func speedInterp(t testing.TB, out *bytes.Buffer) *interp.Interpreter {
	t.Helper()
	// Panic traces go to Stderr, which gc has no equivalent of.
	i := interp.New(interp.Options{Stdout: out, Stderr: io.Discard})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	// The patches these tests are about run the calls the int tier (S9)
	// would take; its own tests are in sbir_inttier_test.go.
	interp.DisableIntTier(i)
	return i
}

// runSpeedCases evaluates each program (Eval runs its main) and compares what it prints with
// what gc prints for it (written down in the case).
func runSpeedCases(t *testing.T, cases []struct{ name, src, want string }) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			i := speedInterp(t, &out)
			if _, err := i.Eval(c.src); err != nil {
				t.Fatalf("%v\noutput: %s", err, out.String())
			}
			if got := strings.TrimSuffix(out.String(), "\n"); got != c.want {
				t.Errorf("got:\n%s\nwant (gc):\n%s", got, c.want)
			}
		})
	}
}

// allocsPerIteration returns the allocations of one iteration of the
// loop in body, which runs n times in prog: the difference between runs
// of n and 2n iterations, divided by n, so that what the program does
// once does not count.
func allocsPerIteration(t *testing.T, decls, body string) float64 {
	t.Helper()
	var out bytes.Buffer
	i := speedInterp(t, &out)
	if _, err := i.Eval(decls); err != nil {
		t.Fatal(err)
	}
	run := func(n int) float64 {
		prog, err := i.Compile(strings.ReplaceAll(body, "N", strings.Repeat("1", 1)+strings.Repeat("0", n)))
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(3, func() {
			if _, err := i.Execute(prog); err != nil {
				t.Fatal(err)
			}
		})
	}
	return (run(4) - run(3)) / 9000
}

// TestSbirMethodCallsDirect checks sbir patch S1: an interpreted method
// called on a concrete value runs without a reflect.MakeFunc wrapper
// (it allocated a dozen objects per call), with the receiver semantics of
// gc: value receivers get a copy, pointer receivers the variable, through
// embedding and pointers, in every position a call can take.
func TestSbirMethodCallsDirect(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"receivers", `package main

import "fmt"

type counter struct{ n int }

func (c *counter) inc(by int) int { c.n += by; return c.n }
func (c counter) peek() int       { return c.n }
func (c counter) bump() int       { c.n += 100; return c.n } // a copy: the caller's n is unchanged

type named int

func (x named) double() named { return x * 2 }
func (x *named) set(v named)  { *x = v }

type outer struct {
	counter
	name string
}

type deep struct{ *outer }

func main() {
	var c counter
	p := &c
	fmt.Println(c.inc(2), p.inc(3), c.peek(), p.peek(), c.bump(), p.bump(), c.n)
	var x named = 21
	x.set(x.double())
	fmt.Println(x, x.double())
	o := outer{name: "o"}
	o.inc(5)
	d := deep{&o}
	d.inc(1)
	fmt.Println(o.peek(), d.peek(), o.counter.n, o.bump(), o.n)
	cs := []counter{{1}, {2}}
	cs[1].inc(40)
	m := map[string]*counter{"a": {7}}
	m["a"].inc(1)
	fmt.Println(cs[1].peek(), m["a"].peek())
}`, "2 5 5 5 105 105 5\n42 84\n6 6 6 106 6\n42 8"},
		{"positions", `package main

import "fmt"

type stack struct{ items []string }

func (s *stack) push(v ...string) int { s.items = append(s.items, v...); return len(s.items) }
func (s *stack) pop() (string, bool) {
	if len(s.items) == 0 {
		return "", false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}
func (s *stack) empty() bool { return len(s.items) == 0 }
func (s *stack) top() string { v, _ := s.pop(); s.push(v); return v }
func (s *stack) depth(n int) int {
	if n == 0 {
		return len(s.items)
	}
	return s.depth(n-1) + 1
}

func main() {
	var s stack
	n := s.push("a", "b")
	n += s.push([]string{"c", "d"}...)
	fmt.Println(n, s.top(), s.depth(3))
	for !s.empty() {
		if v, ok := s.pop(); ok {
			fmt.Print(v)
		}
	}
	fmt.Println()
	if s.empty() {
		fmt.Println("empty", fmt.Sprint(s.pop()))
	}
	f := s.push
	f("x")
	defer fmt.Println("deferred", s.top())
	done := make(chan int)
	go func() { done <- s.push("y") }()
	fmt.Println(<-done, len(s.items))
}`, "6 d 7\ndcba\nempty false\n2 2\ndeferred x"},
		{"generic", `package main

import "fmt"

type box[T any] struct{ v T }

func (b *box[T]) set(v T) { b.v = v }
func (b box[T]) get() T   { return b.v }

func main() {
	var b box[string]
	b.set("x")
	var i box[int]
	i.set(3)
	fmt.Println(b.get(), i.get()+1)
}`, "x 4"},
	})

	const decls = `type acc struct{ n int }
func (a *acc) add(x int) { a.n += x }`
	per := allocsPerIteration(t, decls, `func() { a := &acc{}; for i := 0; i < N; i++ { a.add(i) } }()`)
	// A frame and its values; the wrapper made about a dozen more.
	t.Logf("%.1f allocations per method call", per)
	if per > 6 {
		t.Errorf("%.1f allocations per method call, want at most 6", per)
	}
}

// TestSbirFrameValuesTogether checks sbir patch S2: a call allocates its
// frame with the values of small frames, and the zero values of all its
// variables in one struct, where it made one allocation per variable;
// each call still has variables of its own.
func TestSbirFrameValuesTogether(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"own variables", `package main

import "fmt"

type point struct{ x, y int }

func fresh(v int) (*int, *point, func() int) {
	n := v
	p := point{v, -v}
	var a, b, c, d, e, f, g, h, i, j int // more values than a small frame holds
	a, b, c, d, e, f, g, h, i, j = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	n += a + b + c + d + e + f + g + h + i + j - 55
	return &n, &p, func() int { n++; return n }
}

func one() *int { x := 7; return &x }

type empty struct{}

func zero(e empty, s []int) (empty, int) { var z struct{}; _ = z; n := len(s); return e, n }

func main() {
	p1, q1, next1 := fresh(1)
	p2, q2, next2 := fresh(2)
	next1()
	next1()
	next2()
	fmt.Println(*p1, *p2, *q1, *q2, p1 != p2, one() != one())
	var big [100000]int
	big[99999] = 3
	e, n := zero(empty{}, nil)
	fmt.Println(big[99999], e, n)
}`, "3 3 {1 -1} {2 -2} true true\n3 {} 0"},
	})

	const decls = `func add(a, b int) int { return a + b }`
	per := allocsPerIteration(t, decls, `func() { s := 0; for i := 0; i < N; i++ { s = add(s, i) } }()`)
	t.Logf("%.1f allocations per call", per)
	// The frame with its values, and the struct of variables: 5 before.
	if per > 2 {
		t.Errorf("%.1f allocations per call, want at most 2", per)
	}
}

// TestSbirClosureCallsDirect checks sbir patch S3: interpreted code calls
// the function values the interpreter made (closures, declared functions
// used as values) directly, wherever they are held, with the variables
// they close over, and still through reflect when compiled code made them.
func TestSbirClosureCallsDirect(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"holders", `package main

import (
	"errors"
	"fmt"
	"strings"
)

type ops struct {
	apply func(int) int
	table map[string]func(int) int
}

func double(x int) int { return 2 * x }

func counter() func() int {
	c := 0
	return func() int { c++; return c }
}

func compose(fs ...func(int) int) func(int) int {
	return func(x int) int {
		for _, f := range fs {
			x = f(x)
		}
		return x
	}
}

func main() {
	next := counter()
	other := counter()
	next()
	next()
	fmt.Println(next(), other())
	var fs []func() int
	for i := 0; i < 3; i++ {
		i := i // yaegi has the loop variables of Go 1.21 (the sandbox rewrites loops)
		fs = append(fs, func() int { return i * 10 })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	o := ops{apply: double, table: map[string]func(int) int{"inc": func(x int) int { return x + 1 }}}
	g := double
	fmt.Println(o.apply(4), o.table["inc"](4), g(5), compose(double, o.table["inc"], g)(1))
	var fib func(int) int
	fib = func(n int) int {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	fmt.Println(fib(15))
	check := func(s string) error {
		if s == "" {
			return errors.New("empty")
		}
		return nil
	}
	fmt.Println(check(""), check("x"))
	join := func(sep string, parts ...string) string { return strings.Join(parts, sep) }
	fmt.Println(join("-", "a", "b"), join("+"), join(",", []string{"x", "y"}...))
	any1 := func(v any) string { return fmt.Sprintf("%T:%v", v, v) }
	fmt.Println(any1(3), any1("s"), any1(nil))
	upper := strings.ToUpper
	fmt.Println(upper("compiled"), strings.Map(func(r rune) rune { return r + 1 }, "HAL"))
	done := make(chan int)
	go func() { done <- next() }()
	fmt.Println(<-done)
}`, "3 1\n0 10 20 \n8 5 10 6\n610\nempty <nil>\na-b  x,y\nint:3 string:s <nil>:<nil>\nCOMPILED IBM\n4"},
	})

	const decls = `func mk() func(int) int { k := 1; return func(x int) int { return x + k } }`
	per := allocsPerIteration(t, decls, `func() { f := mk(); s := 0; for i := 0; i < N; i++ { s = f(s) } }()`)
	t.Logf("%.1f allocations per closure call", per)
	// The frame and the struct of its variables; through reflect, a
	// dozen.
	if per > 3 {
		t.Errorf("%.1f allocations per closure call, want at most 3", per)
	}
}

// TestSbirCompiledCallsDirect checks sbir patch S4: functions of packages
// with the common signatures of strings, unicode, strconv and math are
// called without reflect.Value.Call, and give what gc gives, as values,
// as arguments of other calls and as conditions.
func TestSbirCompiledCallsDirect(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"signatures", `package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type word string

func main() {
	s := "  Hello, World  "
	w := word("go")
	fmt.Println(strings.ToLower(s), strings.TrimSpace(s), strings.ToUpper(string(w)))
	fmt.Println(len(strings.Fields(strings.ToLower(s))), strings.Fields(" a b "), strings.Split("a,b,c", ","))
	fmt.Println(utf8.RuneCountInString("héllo"), strings.Contains(s, "World"), strings.HasPrefix(s, "x"))
	if strings.Contains(s, "Hello") && !strings.HasSuffix(s, "x") {
		fmt.Println("both")
	}
	fmt.Println(strings.Index(s, "o"), strings.Count("cheese", "e"), strings.TrimPrefix("prefix-x", "prefix-"))
	fmt.Println(strings.ReplaceAll("aaa", "a", "b"), strings.Replace("aaa", "a", "c", 2), strings.Repeat("ab", 3))
	fmt.Println(strings.IndexRune("chicken", 'k'), strings.IndexByte("golang", 'l'), strings.Join([]string{"x", "y"}, "+"))
	fmt.Println(strconv.Itoa(-42), unicode.IsLetter('é'), unicode.IsDigit('x'), string(unicode.ToUpper('q')))
	fmt.Println(math.Sqrt(2), math.Pow(2, 10), math.IsNaN(math.NaN()), math.Floor(-1.5))
	n := 0
	for _, r := range "a1 b2" {
		if unicode.IsDigit(r) {
			n++
		}
	}
	var parts []string
	parts = strings.Fields("x y z")
	joined := strings.Join(parts, "")
	fmt.Println(n, joined, strings.EqualFold("Go", "GO"), strings.Trim("xxhixx", "x"))
}`, "  hello, world   Hello, World GO\n2 [a b] [a b c]\n5 true false\nboth\n6 3 x\nbbb cca ababab\n4 2 x+y\n-42 true false Q\n1.4142135623730951 1024 true -2\n2 xyz true hi"},
	})

	per := allocsPerIteration(t, `import "strings"`, `func() { s := "abc"; n := 0; for i := 0; i < N; i++ { s = strings.ToLower(s); if strings.HasPrefix(s, "a") { n++ } } }()`)
	t.Logf("%.1f allocations per iteration", per)
	// ToLower of lower-case text allocates nothing; reflect.Value.Call
	// allocated its arguments, results and frames.
	if per > 0.5 {
		t.Errorf("%.1f allocations per iteration of two compiled calls, want none", per)
	}
}

// TestSbirStringMapsDirect checks sbir patch S5: maps from strings to
// ints, float64s, strings and bools are read and updated as Go maps, with
// gc's results for present and missing keys, nil maps and computed keys.
func TestSbirStringMapsDirect(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"operations", `package main

import (
	"fmt"
	"sort"
	"strings"
)

type counts map[string]int

func main() {
	c := counts{}
	for _, w := range strings.Fields("a b a c a b") {
		c[w]++
		c[strings.ToUpper(w)] += 2
	}
	c["c"]--
	c["z"] -= 5
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Print(k, "=", c[k], " ")
	}
	fmt.Println(c["missing"], len(c))
	v, ok := c["a"]
	_, ok2 := c["nope"]
	x, _ := c["b"]
	fmt.Println(v, ok, ok2, x)
	f := map[string]float64{"pi": 3}
	f["pi"] += 0.14
	f["e"]++
	f["neg"] -= 1.5
	fmt.Println(f["pi"], f["e"], f["neg"], f["none"])
	s := map[string]string{"k": "v"}
	got, found := s["k"]
	fmt.Println(s["k"]+"!", s["none"] == "", got, found)
	stop := map[string]bool{"the": true, "off": false}
	n := 0
	for _, w := range strings.Fields("the cat off the mat") {
		if stop[w] {
			n++
			continue
		}
		if !stop[w] && len(w) > 2 {
			n += 10
		}
	}
	fmt.Println(n, stop["none"])
	var nilMap map[string]int
	fmt.Println(nilMap["x"], len(nilMap))
	defer func() { fmt.Println("recovered:", recover()) }()
	nilMap["x"]++
}`, "A=6 B=4 C=2 a=3 b=2 c=0 z=-5 0 7\n3 true false 2\n3.14 1 -1.5 0\nv! true v true\n32 false\n0 0\nrecovered: assignment to entry in nil map"},
	})

	per := allocsPerIteration(t, `import "strings"`, `func() {
	words := strings.Fields("the cat sat on the mat with the hat")
	stop := map[string]bool{"the": true}
	counts := map[string]int{}
	var w string
	for i := 0; i < N; i++ {
		w = words[i%len(words)]
		if stop[w] {
			continue
		}
		counts[w]++
	}
}()`)
	t.Logf("%.1f allocations per iteration", per)
	// reflect.Value.MapIndex allocated a copy of each element it read.
	if per > 0.5 {
		t.Errorf("%.1f allocations per iteration of a map test and a map increment, want none", per)
	}
}

// TestSbirTypedCallbacks checks sbir patch S6: interpreted functions that
// compiled code calls back with the common signatures (predicates on
// runes, comparisons by index, sort.Interface methods) are Go functions
// of their type, and behave as gc's: captured variables, receivers,
// panics, blank parameters, and signatures that still need reflect.
func TestSbirTypedCallbacks(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"callbacks", `package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

type byLen []string

func (b byLen) Len() int           { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

type pos struct{ calls int }

func (p *pos) sep(r rune) bool { p.calls++; return r == ',' }

func main() {
	seps := 0
	words := strings.FieldsFunc("a,b;;c d", func(r rune) bool {
		if unicode.IsLetter(r) {
			return false
		}
		seps++
		return true
	})
	fmt.Println(words, seps)
	fmt.Println(strings.Map(func(r rune) rune {
		if r == 'a' {
			return -1
		}
		return unicode.ToUpper(r)
	}, "banana"))
	xs := []int{5, 2, 8, 1}
	sort.Slice(xs, func(i, j int) bool { return xs[i] > xs[j] })
	fmt.Println(xs, sort.Search(100, func(i int) bool { return i*i >= 50 }))
	b := byLen{"ccc", "a", "bb"}
	sort.Sort(b)
	fmt.Println(b)
	p := &pos{}
	fmt.Println(strings.FieldsFunc("x,y,z", p.sep), p.calls)
	re := regexp.MustCompile("[0-9]+")
	fmt.Println(re.ReplaceAllStringFunc("a1b22", func(s string) string { return "<" + s + ">" }))
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("once", i) })
	}
	fmt.Println(strings.IndexFunc("abc1", func(_ rune) bool { return true }))
	fmt.Println(strings.ContainsFunc("abc", func(r rune) bool { return r == 'c' }))
	defer func() { fmt.Println("recovered:", recover()) }()
	sort.Slice(xs, func(i, j int) bool { panic(fmt.Sprint("less ", len(xs))) })
}`, "[a b c d] 4\nBNN\n[8 5 2 1] 8\n[a bb ccc]\n[x y z] 5\na<1>b<22>\nonce 0\n0\ntrue\nrecovered: less 4"},
	})

	per := allocsPerIteration(t, `import "strings"`, `func() {
	n := 0
	f := func(r rune) bool { return r == ' ' }
	for i := 0; i < N; i++ {
		n += strings.IndexFunc("ab", f)
	}
}()`)
	t.Logf("%.1f allocations per iteration (two callbacks)", per)
	// Each callback: its frame and the struct of its variables. Through
	// reflect.MakeFunc, about four more each.
	if per > 4.5 {
		t.Errorf("%.1f allocations per iteration of two callbacks, want at most 4", per)
	}
}

// TestSbirDirectOperators checks sbir patch S7: arithmetic, assignment
// operators and comparisons of ints, int64s, float64s and strings give
// gc's results for every kind of operand: locals, constants, globals,
// captured variables, fields, elements, named types; overflow, division
// by zero and NaN included.
func TestSbirDirectOperators(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"operators", `package main

import (
	"fmt"
	"math"
)

type meters float64
type count int

var g = 7

type box struct {
	n int
	x float64
	s string
}

func ints(a, b int) (int, int, int, int, int, bool, bool, bool, bool, bool, bool) {
	return a + b, a - b, a * b, a / b, a % b, a == b, a != b, a < b, a <= b, a > b, a >= b
}

func anyRet(a int) any { return a * 2 }

func pair(a float64) (float64, any) { return a + 1, a - 1 }

func floats(a, b float64) (float64, float64, float64, float64, bool, bool, bool) {
	return a + b, a - b, a * b, a / b, a < b, a == b, a >= b
}

func main() {
	fmt.Println(ints(17, 5))
	fmt.Println(ints(-17, 5))
	fmt.Println(anyRet(21))
	fmt.Println(pair(1.5))
	fmt.Println(floats(1.5, 0.25))
	fmt.Println(floats(1, 0))
	nan := math.NaN()
	fmt.Println(nan == nan, nan != nan, nan < 1, 1 >= nan)
	x := math.MaxInt64
	x++
	y := int64(math.MinInt64)
	y--
	fmt.Println(x, y, x*2, -x/-1)
	s, t := "abc", "abd"
	u := s + t
	u += "!"
	fmt.Println(u, s < t, s == "abc", "b" > s, s+"x" != t)
	var d meters = 2.5
	d *= 2
	var c count = 10
	c -= 3
	c %= 4
	fmt.Println(d, c, d > 4, c == 3)
	sum, i := 0, 0
	for i = 0; i < 10; i++ {
		if i%2 == 0 {
			continue
		}
		sum += i * g
	}
	g += sum
	fmt.Println(sum, i, g, 100-g, g/3)
	b := box{n: 1, x: 1.5, s: "a"}
	xs := []int{1, 2, 3}
	fs := []float64{0.5}
	b.n += 41
	b.x *= 2
	b.s += "b"
	xs[1] *= 10
	xs[2]++
	fs[0] -= 1
	fmt.Println(b, xs, fs)
	k := 3
	add := func(v int) int { k += v; return k * 2 }
	fmt.Println(add(4), k, k > 5)
	var i64 int64 = 1 << 40
	i64 /= 3
	fmt.Println(i64, i64%7, 1<<41 > i64)
	defer func() { fmt.Println("recovered:", recover()) }()
	zero := 0
	fmt.Println(10 / zero)
}`, "22 12 85 3 2 false true false false true true\n-12 -22 -85 -3 -2 false true true true false false\n42\n2.5 0.5\n1.75 1.25 0.375 6 false false true\n1 1 0 +Inf false false true\nfalse true false false\n-9223372036854775808 9223372036854775807 0 -9223372036854775808\nabcabd! true true true true\n5 3 true true\n175 10 182 -82 60\n{42 3 ab} [1 20 4] [-0.5]\n14 7 true\n366503875925 5 true\nrecovered: runtime error: integer divide by zero"},
	})
}

// TestSbirSpeedPathsCallLatestDeclaration checks that the direct calls of
// the speed patches call a function's or method's latest declaration, as
// the calls they replace do (patch 52): a method called directly (S1), a
// function value called directly (S3) and a function handed to compiled
// code as a typed callback (S6), each taken before the declaration
// changed.
func TestSbirSpeedPathsCallLatestDeclaration(t *testing.T) {
	runRedefCases(t, []redefCase{
		{name: "method called directly", srcs: []string{
			"type T struct{ n int }", "func (t *T) add(k int) { t.n += k }",
			"func sum() int { var t T; for i := 0; i < 3; i++ { t.add(i) }; return t.n }",
			"fmt.Println(sum())", "func (t *T) add(k int) { t.n += 10 * k }", "fmt.Println(sum())"},
			want: "3\n30\n"},
		{name: "function value called directly", srcs: []string{
			"func g(x int) int { return x + 1 }", "h := g", "func call() int { return h(1) }",
			"fmt.Println(call(), h(1))", "func g(x int) int { return x + 2 }", "fmt.Println(call(), h(1))"},
			want: "2 2\n3 3\n"},
		{name: "typed callbacks", srcs: []string{
			`import "strings"`,
			"func sep(r rune) bool { return r == ' ' }", "pred := sep",
			"func less(a, b int) bool { return a < b }", "xs := []int{2, 3, 1}", "lf := func(i, j int) bool { return less(xs[i], xs[j]) }",
			`fmt.Println(len(strings.FieldsFunc("a b,c", pred)), len(strings.FieldsFunc("a b,c", sep)))`,
			"sort.Slice(xs, lf)", "fmt.Println(xs)",
			"func sep(r rune) bool { return r == ' ' || r == ',' }", "func less(a, b int) bool { return a > b }",
			`fmt.Println(len(strings.FieldsFunc("a b,c", pred)), len(strings.FieldsFunc("a b,c", sep)))`,
			"sort.Slice(xs, lf)", "fmt.Println(xs)"},
			want: "2 2\n[1 2 3]\n3 3\n[3 2 1]\n"},
	})
}

// TestSbirDirectOperatorsConstants checks that operators of constants
// only are left to op.go, whatever kind of operator is tried first: the
// string operators were offered 1 < 2 and read 1 as a string (a panic
// while compiling, "1 not a String").
func TestSbirDirectOperatorsConstants(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"constants", `package main

import "fmt"

func main() {
	x, s := 2.5, "b"
	fmt.Printf("%t %t %t %t\n", false, 1 < 2, "a" < "b", 2.5 > 1)
	fmt.Println(1 < 2, "a" >= "b", 3 == 3.0, x > 1, x+1, 1+x, s < "c", "a"+s)
}
`, "false true true true\ntrue false true true 3.5 3.5 true ab"},
	})
}
