package interp_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// intTierPrograms is a program whose functions run in the int tier (sbir
// patch S9): recursion, mutual recursion, loops with break and continue,
// parallel assignment, overflow, shifts, division of the least int by
// -1, shadowing, bools, a defined int type, deep recursion (the tier's
// stack grows) and calls from goroutines. The wanted output is go run's.
const intTierProgram = `package main

import (
	"fmt"
	"math"
	"sync"
)

type celsius int

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func fibIter(n int) int {
	a, b := 0, 1
	for i := 0; i < n; i++ {
		a, b = b, a+b
	}
	return a
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func isPrime(n int) bool {
	if n < 2 {
		return false
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

func collatz(n int64) int64 {
	steps := int64(0)
	for n != 1 {
		if n%2 == 0 {
			n /= 2
			continue
		}
		n = 3*n + 1
		steps++
	}
	return steps
}

func firstOver(limit int) (r int) {
	for i := 1; ; i++ {
		if i*i*i > limit {
			r = i
			break
		}
	}
	return
}

func wrap(x int) int { return x*x*x*x + math.MaxInt64 }

func shifts(x, s int) int {
	return x<<s ^ x>>s ^ -x>>1 ^ x&^s | (1 << 62 >> s)
}

func minDiv(x, y int) int { return x / y % 7 }

func shadow(x int) int {
	y := x
	if x > 0 {
		x := x + 100
		y += x
	}
	return x + y
}

func both(a, b bool, n int) bool { return (a && !b) || (n > 3 && a == b) }

func warm(c celsius) celsius { return c*9/5 + 32 }

func even(n int) bool {
	if n == 0 {
		return true
	}
	return odd(n - 1)
}

func odd(n int) bool {
	if n == 0 {
		return false
	}
	return even(n - 1)
}

func depth(n int) int {
	if n == 0 {
		return 0
	}
	return depth(n-1) + 1
}

func ack(m, n int) int {
	if m == 0 {
		return n + 1
	}
	if n == 0 {
		return ack(m-1, 1)
	}
	return ack(m-1, ack(m, n-1))
}

func nested(n int) int {
	total := 0
	for i := 0; i < n; i++ {
		if i%3 == 0 {
			continue
		}
		for j := i; j < n; j++ {
			if j > i+4 {
				break
			}
			total += i ^ j
		}
	}
	return total
}

func main() {
	fmt.Println(fib(20), fibIter(90), gcd(1071, 462), isPrime(97), isPrime(91), collatz(27))
	fmt.Println(firstOver(1000), wrap(1<<20), wrap(-3))
	fmt.Println(shifts(12345, 3), shifts(-7, 63), shifts(1, 64), shifts(math.MinInt64, 1))
	fmt.Println(minDiv(math.MinInt64, -1), minDiv(-17, 5), -17%5)
	fmt.Println(shadow(5), shadow(-5), both(true, false, 0), both(false, false, 9), both(true, true, 2))
	fmt.Println(warm(100), warm(-40), even(1001), odd(1001), ack(2, 3), nested(50))
	var x any = fib(10)
	primes := 0
	for i := 0; i < 1000; i++ {
		if isPrime(i) {
			primes++
		}
	}
	fmt.Println(x, primes, depth(200000))
	var wg sync.WaitGroup
	sums := make([]int, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				sums[g] += fib(i%12) + gcd(i, g+6)
			}
		}(g)
	}
	wg.Wait()
	fmt.Println(sums)
}
`

const intTierWant = `6765 2880067194370816120 21 true false 41
11 9223372036854775807 -9223372036854775728
-110572 -9223372036854775748 -2 -6917529027641081856
-1 -3 -2
115 -10 true true false
212 -40 false true 9 1291
55 168 200000
[6550 6358 6552 6504]
`

// TestSbirIntTierAnswers runs intTierProgram with the int tier and
// without it: both print what go run prints.
func TestSbirIntTierAnswers(t *testing.T) {
	for _, tier := range []bool{true, false} {
		t.Run(fmt.Sprintf("tier=%v", tier), func(t *testing.T) {
			i, out, errs := intTierInterp(t, tier)
			if _, err := i.Eval(intTierProgram); err != nil {
				t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
			}
			if got := out.String(); got != intTierWant {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, intTierWant)
			}
			checkIntTierUsed(t, i, tier)
		})
	}
}

// intTierClosures is a program whose function literals run in the int
// tier (sbir patch S9b): closures reading and writing the variables they
// capture and the globals, two closures sharing a variable, a captured
// variable changed after the closure was made,
// closures made and called by goroutines, callbacks of compiled code
// (sort.Slice's less reads a slice: not in the tier; FieldsFunc's writes
// a captured count), and a division by zero. The wanted output is go
// run's.
const intTierClosures = `package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

var calls int
var seen bool

func counter() (func() int, func() int) {
	c := 0
	inc := func() int {
		c++
		calls++
		return c
	}
	get := func() int { return c * 10 }
	return inc, get
}

func adder(k int) func(int) int {
	return func(x int) int { return x + k }
}

func flag(b bool) func(int) bool {
	return func(n int) bool {
		seen = seen || b
		return b && n > 2
	}
}

func scale(x int) int { return x * 3 }

func main() {
	inc, get := counter()
	adders := make([]func(int) int, 5)
	for k := range adders {
		adders[k] = adder(k)
	}
	total := 0
	for i := 0; i < 20; i++ {
		total += adders[i%5](inc())
	}
	fmt.Println(total, get(), calls)

	f := flag(true)
	fmt.Println(f(1), f(3), seen)

	limit := 7
	under := func(n int) bool { return n < limit }
	limit = 3
	fmt.Println(under(5), under(2))

	tripled := func(n int) int { return scale(n) + limit }
	fmt.Println(tripled(4))

	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			add := adder(g)
			s := 0
			for i := 0; i < 1000; i++ {
				s += add(i)
			}
			mu.Lock()
			sum += s
			mu.Unlock()
		}(g)
	}
	wg.Wait()
	fmt.Println(sum)

	xs := []int{5, 2, 8, 1, 9, 3}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	n := 0
	words := strings.FieldsFunc("a,b;;c d", func(r rune) bool { n++; return r == ',' || r == ';' || r == ' ' })
	fmt.Println(xs, words, n)

	div := func(a, b int) int { return a / b }
	defer func() { fmt.Println("recovered:", recover()) }()
	fmt.Println(div(7, 2))
	fmt.Println(div(1, 0))
}
`

const intTierClosuresWant = `250 200 20
false true true
false true
15
2004000
[1 2 3 5 8 9] [a b c d] 8
3
recovered: runtime error: integer divide by zero
`

// TestSbirIntTierClosures runs intTierClosures with the int tier and
// without it: both print what go run prints.
func TestSbirIntTierClosures(t *testing.T) {
	for _, tier := range []bool{true, false} {
		t.Run(fmt.Sprintf("tier=%v", tier), func(t *testing.T) {
			i, out, errs := intTierInterp(t, tier)
			if _, err := i.Eval(intTierClosures); err != nil {
				t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
			}
			if got := out.String(); got != intTierClosuresWant {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, intTierClosuresWant)
			}
			checkIntTierUsed(t, i, tier)
		})
	}
}

// intTierSlices is a program whose function literals read slices in the
// int tier (sbir patch S9c) and are called by compiled code through typed
// callbacks: sort.Slice's less over struct fields (int64, a nested
// struct's int and bool), over a global slice of ints and one of a
// defined int type, sort.Search's predicate, a slice assigned again
// between calls, and an index out of range, recovered. The wanted output
// is go run's.
const intTierSlices = `package main

import (
	"fmt"
	"sort"
)

type inner struct {
	a, b int
	ok   bool
}

type rec struct {
	id    int
	name  string
	in    inner
	score int64
}

type level int

var global = []int{5, 3, 9, 1}
var levels = []level{3, 1, 2}

func main() {
	recs := []rec{{3, "c", inner{1, 2, true}, 30}, {1, "a", inner{5, 6, false}, 10}, {2, "b", inner{3, 4, true}, 30}}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].score != recs[j].score {
			return recs[i].score > recs[j].score
		}
		return recs[i].in.a < recs[j].in.a
	})
	for _, r := range recs {
		fmt.Print(r.id, r.name, " ")
	}
	fmt.Println()

	oks := func(k int) bool { return recs[k].in.ok && recs[k].in.b > 3 }
	fmt.Println(oks(0), oks(1), oks(2))

	sort.Slice(global, func(i, j int) bool { return global[i] < global[j] })
	fmt.Println(global, sort.Search(len(global), func(i int) bool { return global[i] >= 4 }))

	sort.Slice(levels, func(i, j int) bool { return levels[i] > levels[j] })
	fmt.Println(levels)

	xs := []int{1, 2, 3}
	at := func(i int) int { return xs[i] * 10 }
	fmt.Println(at(2))
	xs = []int{7, 8, 9, 10}
	fmt.Println(at(3))
	xs = nil
	defer func() { fmt.Println("recovered:", recover()) }()
	fmt.Println(at(0))
}
`

const intTierSlicesWant = `3c 2b 1a 
false true false
[1 3 5 9] 2
[3 2 1]
30
100
recovered: runtime error: index out of range [0] with length 0
`

// TestSbirIntTierSlices runs intTierSlices with the int tier and without
// it: both print what go run prints.
func TestSbirIntTierSlices(t *testing.T) {
	for _, tier := range []bool{true, false} {
		t.Run(fmt.Sprintf("tier=%v", tier), func(t *testing.T) {
			i, out, errs := intTierInterp(t, tier)
			if _, err := i.Eval(intTierSlices); err != nil {
				t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
			}
			if got := out.String(); got != intTierSlicesWant {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, intTierSlicesWant)
			}
			checkIntTierUsed(t, i, tier)
		})
	}
}

// intTierInterp returns an interpreter, with the int tier or without it,
// printing to out and its panics' traces to errs.
func intTierInterp(t *testing.T, tier bool) (i *interp.Interpreter, out, errs *bytes.Buffer) {
	t.Helper()
	out, errs = new(bytes.Buffer), new(bytes.Buffer)
	i = interp.New(interp.Options{Stdout: out, Stderr: errs})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if !tier {
		interp.DisableIntTier(i)
	}
	return i, out, errs
}

// checkIntTierUsed fails t when i ran a function in the int tier and
// tier is false, or none when it is true (the test would test nothing).
func checkIntTierUsed(t *testing.T, i *interp.Interpreter, tier bool) {
	t.Helper()
	n := interp.IntTierFunctions(i)
	if tier && n == 0 {
		t.Error("no function ran in the int tier: the test tests nothing")
	}
	if !tier && n != 0 {
		t.Errorf("%d functions ran in the int tier with it disabled", n)
	}
}

// TestSbirIntTierPanics checks that a panic raised in the int tier (a
// division by zero, a negative shift count, deep in a recursion) reads
// as the interpreter's own: the same output, error and position, caught
// by recover or not. The tier runs the call again in the interpreter,
// which raises it.
func TestSbirIntTierPanics(t *testing.T) {
	decls := `package main
import "fmt"
func f(n, d int) int { if n == 0 { return 10 / d }; return f(n-1, d) + 1 }
func sh(x, s int) int { return x << s }
func safe(n, d int) (r int, err error) {
	defer func() {
		if p := recover(); p != nil { err = fmt.Errorf("recovered: %v", p) }
	}()
	return f(n, d), nil
}
`
	tests := []struct{ name, main, want string }{
		{"recovered", `func main() { fmt.Println(safe(3, 1)); fmt.Println(safe(40, 0)); fmt.Println(f(2, 5)) }`,
			"13 <nil>\n0 recovered: runtime error: integer divide by zero\n4\n"},
		{"uncaught division", `func main() { fmt.Println(f(3, 2)); fmt.Println(f(30, 0)) }`, "8\n"},
		{"negative shift", `func main() { fmt.Println(sh(1, 3)); fmt.Println(sh(1, -1)) }`, "8\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var runs [2]string
			for k, tier := range []bool{true, false} {
				i, out, errs := intTierInterp(t, tier)
				_, err := i.Eval(decls + tt.main)
				if !strings.HasPrefix(out.String(), tt.want) {
					t.Errorf("tier=%v: output:\n%s\nwant it to start with (go run's):\n%s", tier, out.String(), tt.want)
				}
				runs[k] = fmt.Sprintf("%s\nstderr:\n%s\nerror: %v", out.String(), errs.String(), err)
				checkIntTierUsed(t, i, tier)
			}
			if runs[0] != runs[1] {
				t.Errorf("with the int tier:\n%s\nwithout:\n%s", runs[0], runs[1])
			}
		})
	}
}

// TestSbirIntTierRedeclared declares a function called by one that runs
// in the int tier, calls it, declares it again in a later evaluation
// (sbir patch 52), and calls again: the caller calls the new
// declaration, and one of another signature fails as without the tier.
func TestSbirIntTierRedeclared(t *testing.T) {
	cells := []string{
		`import "fmt"; func g(x int) int { return x + 1 }; func f(x int) int { return g(x) * 2 }`,
		`fmt.Println(f(1))`,
		`func g(x int) int { return x + 10 }`,
		`fmt.Println(f(1))`,
		`func g(x int) string { return "no" }`,
		`fmt.Println(f(1))`,
	}
	var runs [2]string
	for k, tier := range []bool{true, false} {
		i, out, errs := intTierInterp(t, tier)
		for _, c := range cells {
			if _, err := i.Eval(c); err != nil {
				fmt.Fprintf(out, "error: %v\n", err)
			}
		}
		runs[k] = out.String() + "stderr:\n" + errs.String()
		if want := "4\n22\nerror: "; !strings.HasPrefix(runs[k], want) {
			t.Errorf("tier=%v: output:\n%s\nwant it to start with:\n%s", tier, runs[k], want)
		}
	}
	if runs[0] != runs[1] {
		t.Errorf("with the int tier:\n%s\nwithout:\n%s", runs[0], runs[1])
	}
}

// TestSbirIntTierInterrupted checks that a loop that never ends and a
// recursion of 2^61 calls in the int tier stop when their evaluation is
// interrupted, as the interpreter stops at its next node, and that the
// interpreter runs the next evaluation. Each evaluation runs on a
// goroutine of the test's, which it waits for: EvalWithContext returns as
// soon as its context is done, while its evaluation still unwinds, and
// the next evaluation raced with it on the global frame and the tier's
// register stack (go test -race).
func TestSbirIntTierInterrupted(t *testing.T) {
	i, out, errs := intTierInterp(t, true)
	if _, err := i.Eval(`
func spin(n int) int { for n >= 0 { n++; if n > 1<<40 { n = 0 } }; return n }
func grow(n int) int { if n > 60 { return 1 }; return grow(n+1) + grow(n+1) }
func sq(n int) int { return n * n }`); err != nil {
		t.Fatal(err)
	}
	for _, call := range []string{"spin(1)", "grow(1)"} {
		compiled := interp.IntTierFunctions(i)
		done := make(chan error, 1)
		go func() {
			_, err := i.Eval(call)
			done <- err
		}()
		// Interrupt once the call is running in the tier: its function
		// is compiled at its first call.
		deadline := time.Now().Add(time.Minute * slowFactor())
		for interp.IntTierFunctions(i) == compiled && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		interp.StopRunning(i)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: the interrupted evaluation: %v", call, err)
			}
		case <-time.After(time.Minute * slowFactor()):
			t.Fatalf("%s: still running a minute after it was interrupted", call)
		}
	}
	if v, err := i.Eval("sq(12)"); err != nil || v.Int() != 144 {
		t.Errorf("after the interrupts: sq(12) = %v, %v, want 144\n%s%s", v, err, out.String(), errs.String())
	}
}
