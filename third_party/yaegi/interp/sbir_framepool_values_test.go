package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirFrameReuseKeepsValues runs programs whose functions use their
// frames again (sbir patch S8) and checks that every value a call made
// is still the one it made once later calls have run: results, appended
// and stored structs, arrays, named results and variables that start
// from zero, frames of recursive and concurrent calls, a call that
// panicked, and callbacks from compiled code, and the programs of
// frameReuseRegressions. Each runs twice: with frames used again, and
// with frames spoiled when given back. The wanted outputs are go run's.
func TestSbirFrameReuseKeepsValues(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"results and stored values", `
type point struct{ x, y int }
var saved []point
var byName = map[string]point{}
func mk(i int) point { p := point{i, 2 * i}; p.x++; return p }
func keep(p point) { saved = append(saved, p) }
func put(k string, i int) { p := mk(i); byName[k] = p }
func arr(k int) [3]int { var a [3]int; a[0], a[2] = k, -k; return a }
func main() {
	var got []point
	var arrs [][3]int
	for i := 0; i < 5; i++ {
		got = append(got, mk(i))
		keep(mk(10 * i))
		put(string(rune('a'+i)), 100*i)
		arrs = append(arrs, arr(i))
	}
	fmt.Println(got, saved, byName["a"], byName["e"], arrs)
}`, "[{1 0} {2 2} {3 4} {4 6} {5 8}] [{1 0} {11 20} {21 40} {31 60} {41 80}] {1 0} {401 800} [[0 0 0] [1 0 -1] [2 0 -2] [3 0 -3] [4 0 -4]]\n"},
		{"zero values at each call", `
func named(x int) (r int) { if x > 0 { r = x }; return }
func local(b bool) int { var x int; if b { x = 7 }; return x }
func text(b bool) string { var s string; if b { s = "set" }; return s }
func main() {
	fmt.Println(named(5), named(-1), local(true), local(false), text(true), text(false) == "")
}`, "5 0 7 0 set true\n"},
		{"recursion", `
func fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }
func even(n int) bool { if n == 0 { return true }; return odd(n - 1) }
func odd(n int) bool { if n == 0 { return false }; return even(n - 1) }
func ack(m, n int) int {
	if m == 0 { return n + 1 }
	if n == 0 { return ack(m-1, 1) }
	return ack(m-1, ack(m, n-1))
}
func main() { fmt.Println(fib(20), even(101), odd(101), ack(2, 3)) }`, "6765 false true 9\n"},
		{"a call that panicked", `
func div(a, b int) int { q := a / b; return q }
func safe(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil { err = fmt.Errorf("%v", r) }
	}()
	return div(a, b), nil
}
func main() {
	fmt.Println(div(9, 3))
	fmt.Println(safe(1, 0))
	fmt.Println(div(8, 2), div(7, 7))
}`, "3\n0 runtime error: integer divide by zero\n4 1\n"},
		{"concurrent calls", `
func sq(i int) int { r := i * i; return r }
func main() {
	var wg sync.WaitGroup
	sums := make([]int, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 2000; i++ { sums[g] += sq(i + g) }
		}(g)
	}
	wg.Wait()
	fmt.Println(sums)
}`, "[2664667000 2668667000 2672671000 2676679000]\n"},
		{"callbacks", `
type rec struct{ id, score int }
func main() {
	recs := []rec{{1, 5}, {2, 9}, {3, 5}, {4, 1}, {5, 9}}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].score != recs[j].score { return recs[i].score > recs[j].score }
		return recs[i].id < recs[j].id
	})
	n := 0
	words := strings.FieldsFunc("a-b c,,dd e", func(r rune) bool {
		if r == ' ' || r == ',' { n++; return true }
		return false
	})
	up := strings.Map(func(r rune) rune { if r == 'a' { return 'A' }; return r }, "banana")
	fmt.Println(recs, words, n, up)
}`, "[{2 9} {5 9} {1 5} {3 5} {4 1}] [a-b c dd e] 4 bAnAnA\n"},
		{"slots that alias what they read", `
type point struct{ x, y int }
func first(xs []point) point { p := xs[0]; p.x = 99; return xs[0] }
func bump(xs []point, i int) { xs[i].x++ }
func main() {
	xs := []point{{1, 2}, {3, 4}}
	a := first(xs)
	bump(xs, 0)
	b := first(xs)
	bump(xs, 1)
	fmt.Println(a, b, xs)
}`, "{1 2} {2 2} [{2 2} {4 4}]\n"},
	}
	for _, tt := range append(tests, frameReuseRegressions...) {
		t.Run(tt.name, func(t *testing.T) { runFrameReuseCase(t, tt.name, tt.src, tt.want, false) })
		t.Run(tt.name+" (frames spoiled)", func(t *testing.T) { runFrameReuseCase(t, tt.name, tt.src, tt.want, true) })
	}
}

// runFrameReuseCase runs src, a program's declarations after its imports,
// and checks that it prints want and that some function of it used its
// frames again. With spoil, each frame a call gives back is filled with
// garbage and dropped instead (interp.SpoilReleasedFrames): a value read
// after its call returned shows even where reuse would have written the
// same value again.
func runFrameReuseCase(t *testing.T, name, src, want string, spoil bool) {
	var out, stderr bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &stderr})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	interp.DisableIntTier(i) // the calls S8 reuses frames for, not S9's
	if spoil {
		interp.SpoilReleasedFrames(i)
	}
	src = "package main\nimport (\"fmt\"; \"sort\"; \"strings\"; \"sync\")\nvar _, _, _ = sort.Ints, strings.Fields, sync.NewCond\n" + src
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), stderr.String())
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
	}
	if interp.FramesReused(i) == 0 && !strings.Contains(name, "callbacks") {
		t.Errorf("no function of the program used its frames again: the test tests nothing")
	}
}

// TestSbirFrameReuseRedeclared evaluates a function and a method, calls
// them, declares them again (sbir patch 52) with other frames, and calls
// them through the calls compiled against the first declarations: each
// declaration uses frames of its own. The wanted output is go run's for
// the same program with function variables in place of the declarations.
func TestSbirFrameReuseRedeclared(t *testing.T) {
	cells := []string{
		`import "fmt"
type pt struct{ x, y int }
func f(i int) pt { p := pt{i, i}; return p }
var keep []pt
func use(n int) { for i := 0; i < n; i++ { keep = append(keep, f(i)) } }
func g(i int) int { return f(i).x }`,
		`use(2); fmt.Println(keep, g(5))`,
		`func f(i int) pt { var a [5]pt; a[i%5] = pt{-i, i * 100}; q := a[i%5]; q.y++; return q }`,
		`use(3); fmt.Println(keep, g(6))`,
		`func f(i int) pt { return pt{7, 7} }`,
		`use(1); fmt.Println(keep, g(1))`,
		`func (p pt) sum() int { return p.x + p.y }
func h(p *pt) int { return p.sum() }`,
		`fmt.Println(h(&keep[0]), h(&keep[5]))`,
		`func (p pt) sum() int { var z [3]int; z[1] = p.x * p.y; return z[1] }`,
		`fmt.Println(h(&keep[0]), h(&keep[5]), h(&pt{3, 4}))`,
	}
	const want = `[{0 0} {1 1}] 5
[{0 0} {1 1} {0 1} {-1 101} {-2 201}] -6
[{0 0} {1 1} {0 1} {-1 101} {-2 201} {7 7}] 7
0 14
0 49 12
`
	for _, spoil := range []bool{false, true} {
		var out bytes.Buffer
		i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		interp.DisableIntTier(i) // the calls S8 reuses frames for, not S9's
		if spoil {
			interp.SpoilReleasedFrames(i)
		}
		for _, c := range cells {
			if _, err := i.Eval(c); err != nil {
				t.Fatalf("%s: %v\n%s", c, err, out.String())
			}
		}
		if got := out.String(); got != want {
			t.Errorf("spoiled frames %v: output:\n%s\nwant:\n%s", spoil, got, want)
		}
		if interp.FramesReused(i) == 0 {
			t.Errorf("no function of the program used its frames again: the test tests nothing")
		}
	}
}

// TestSbirFrameReuseAllocatesNothing checks that a call whose frame is
// used again (sbir patch S8) allocates nothing: a declared function, a
// recursive one, a method through a pointer, and a callback from
// compiled code. Each allocated its frame and its values before.
func TestSbirFrameReuseAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops frames on purpose")
	}
	const decls = `
import "sort"
type acct struct{ n int }
func (a *acct) add(x int) { a.n += x }
func add(a, b int) int { return a + b }
func fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }
var xs = make([]int, 64)
var ac = &acct{}
`
	tests := []struct {
		name, body string
		max        float64
	}{
		{"declared function", `func() { s := 0; for i := 0; i < N; i++ { s = add(s, i) } }()`, 0.05},
		{"recursion", `func() { s := 0; for i := 0; i < N; i++ { s += fib(3) } }()`, 0.05},
		{"method through a pointer", `func() { for i := 0; i < N; i++ { ac.add(i) } }()`, 0.05},
		// 63 calls of less per call of SliceIsSorted, which allocates a
		// few objects of its own: well under one per call of less, where
		// each call allocated two before.
		{"callback", `func() { less := func(i, j int) bool { return xs[i] < xs[j] }; for i := 0; i < N/64; i++ { sort.SliceIsSorted(xs, less) } }()`, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			per := allocsPerIteration(t, decls, tt.body)
			if per > tt.max {
				t.Errorf("%.2f allocations per call, want at most %.2f", per, tt.max)
			}
		})
	}
}
