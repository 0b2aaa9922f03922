package interp_test

import (
	"bytes"
	"strings"
	"testing"
)

// TestSbirLoopVarsPerIteration checks sbir patch 130: each iteration of a
// for statement has its own variables (Go 1.22). Closures made in the
// body and kept (in a slice, by a goroutine, deferred), pointers taken
// there (&i, a method with a pointer receiver keeping it, &i in the init
// statement), continue (plain and labelled) ending an iteration, every
// kind of three-clause loop and of range loop: go run's output. Without
// the patch the closures saw the last value, and workers calling closures
// while the loop went on read the variable its post statement wrote (a
// data race, and a wrong sum).
func TestSbirLoopVarsPerIteration(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"three", `package main

import "fmt"

type T struct{ n int }

var saved []*T

// Save keeps its receiver: called on a variable, its address.
func (t *T) Save() { saved = append(saved, t) }

func main() {
	var fs []func() int
	for i := 0; i < 3; i++ { // init; cond; post
		fs = append(fs, func() int { return i })
	}
	for i := 0; i < 3; { // init; cond
		fs = append(fs, func() int { return i })
		i++
	}
	for i := 0; ; i++ { // init; ; post
		if i == 3 {
			break
		}
		fs = append(fs, func() int { return i * 10 })
	}
	for i := 0; ; { // init
		fs = append(fs, func() int { return i * 100 })
		if i++; i == 3 {
			break
		}
	}
	for i, j := 0, 10; i < 3; i, j = i+1, j-1 { // two variables
		fs = append(fs, func() int { return i + j })
	}
	fmt.Println(call(fs))

	// continue, plain and labelled, ends the iteration too.
	fs = nil
outer:
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			fs = append(fs, func() int { return 10*i + j })
			if j == 1 {
				continue outer
			}
			if i%2 == 0 {
				continue
			}
		}
	}
	fmt.Println(call(fs))

	// Pointers: &i, a method value with a pointer receiver, and the
	// first iteration's variable taken in the init statement.
	var ps []*int
	for i := 0; i < 3; i++ {
		ps = append(ps, &i)
	}
	for t := (T{}); t.n < 3; t.n++ {
		t.Save()
	}
	for i, p := 0, (*int)(nil); i < 3; i++ {
		if p == nil {
			p = &i
		}
		fmt.Print(*p, i, ",")
	}
	fmt.Println(*ps[0], *ps[1], *ps[2], saved[0].n, saved[1].n, saved[2].n)

	// The body changes the variable through a closure: the next
	// iteration starts from the changed value.
	for i := 0; i < 10; i++ {
		inc := func() { i += 2 }
		inc()
		fmt.Print(i, ",")
	}
	fmt.Println()

	// Deferred closures see their own iteration's variable.
	func() {
		for i := 0; i < 3; i++ {
			defer func() { fmt.Print(i, ",") }()
		}
	}()
	fmt.Println()
}

func call(fs []func() int) []int {
	var r []int
	for _, f := range fs {
		r = append(r, f())
	}
	return r
}
`, "[0 1 2 1 2 3 0 10 20 100 200 300 10 10 10]\n[0 1 10 11 20 21 30 31]\n0 0,0 1,0 2,0 1 2 0 1 2\n2,5,8,11,\n2,1,0,"},
		{"ranges", `package main

import (
	"fmt"
	"sort"
)

func main() {
	var fs []func() int
	for i, v := range []int{10, 20, 30} {
		fs = append(fs, func() int { return i + v })
	}
	for _, v := range [2]int{40, 50} {
		fs = append(fs, func() int { return v })
	}
	for i := range 3 {
		fs = append(fs, func() int { return 100 + i })
	}
	for i, r := range "héllo" {
		if r == 'l' {
			continue
		}
		fs = append(fs, func() int { return 1000*i + int(r) })
	}
	m := map[int]int{1: 2, 3: 4}
	var keys []func() int
	for k, v := range m {
		keys = append(keys, func() int { return 10*k + v })
	}
	ch := make(chan int, 3)
	ch <- 7
	ch <- 8
	ch <- 9
	close(ch)
	for c := range ch {
		if c == 8 {
			continue
		}
		fs = append(fs, func() int { return c })
	}
	var ps []*int
	for _, v := range []int{1, 2, 3} {
		ps = append(ps, &v)
	}
	fmt.Print(call(fs), " ")
	var ks []int
	for _, f := range keys {
		ks = append(ks, f())
	}
	sort.Ints(ks)
	fmt.Println(ks, *ps[0], *ps[1], *ps[2])
}

func call(fs []func() int) []int {
	var r []int
	for _, f := range fs {
		r = append(r, f())
	}
	return r
}
`, "[10 21 32 40 50 100 101 102 104 1233 5111 7 9] [12 34] 1 2 3"},
		{"workers", `package main

import (
	"fmt"
	"sort"
	"sync"
)

func main() {
	// Closures made by a loop, called by workers while the loop goes on.
	jobs := make(chan func() int)
	out := make(chan int, 200)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				out <- f()
			}
		}()
	}
	for k := 0; k < 200; k++ {
		jobs <- func() int { return k * k }
	}
	close(jobs)
	wg.Wait()
	close(out)
	sum := 0
	for v := range out {
		sum += v
	}
	// Closures kept by a goroutine and called once the loop has ended.
	kept := make(chan func() int)
	res := make(chan int)
	go func() {
		var fs []func() int
		for f := range kept {
			fs = append(fs, f)
		}
		s := 0
		for _, f := range fs {
			s += f()
		}
		res <- s
	}()
	for k := 0; k < 50; k++ {
		kept <- func() int { return k }
	}
	close(kept)
	// Goroutines started in a loop, each with its iteration's variables.
	var got []int
	var mu sync.Mutex
	var wg2 sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			mu.Lock()
			got = append(got, i*3)
			mu.Unlock()
		}()
	}
	wg2.Wait()
	sort.Ints(got)
	fmt.Println(sum, <-res, got)
}
`, "2646700 1225 [0 3 6 9 12 15 18 21 24 27]"},
		{"nested closures", `package main

import "fmt"

func main() {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { g := func() int { return i }; return g() })
	}
	for _, s := range []string{"a", "bb"} {
		fs = append(fs, func() int { return func() int { return len(s) }() })
	}
	var r []int
	for _, f := range fs {
		r = append(r, f())
	}
	fmt.Println(r)
}
`, "[0 1 2 1 2]"},
	})
}

// TestSbirLoopVarsPerIterationTopLevel checks sbir patch 130 for a loop
// among a REPL's top-level statements, whose variables are globals.
func TestSbirLoopVarsPerIterationTopLevel(t *testing.T) {
	var out bytes.Buffer
	i := speedInterp(t, &out)
	for _, src := range []string{
		`import "fmt"`,
		`var fs []func() int`,
		`for i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }`,
		`for _, s := range []string{"a", "b"} { fs = append(fs, func() int { return len(s) + int(s[0]) }) }`,
		`fmt.Println(fs[0](), fs[1](), fs[2](), fs[3](), fs[4]())`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := strings.TrimSpace(out.String()), "0 1 2 98 99"; got != want {
		t.Errorf("got %q, want (gc) %q", got, want)
	}
}

// TestSbirLoopVarsNotCopiedUncaptured checks that sbir patch 130 costs
// nothing to a loop that neither captures nor addresses its variables:
// reading a field of a range variable, calling a value method of it,
// and a counter, allocate nothing per iteration.
func TestSbirLoopVarsNotCopiedUncaptured(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	decls := `type P struct{ n int }

func (p P) twice() int { return 2 * p.n }`
	for _, body := range []string{
		`func() { ps := make([]P, N); s := 0; for _, p := range ps { s += p.n + p.twice() }; _ = s }()`,
		`func() { s := 0; for i := 0; i < N; i++ { s += i }; _ = s }()`,
	} {
		if per := allocsPerIteration(t, decls, body); per > 0.01 {
			t.Errorf("%s: %.2f allocations an iteration, want 0", body, per)
		}
	}
}

// TestSbirLoopVarsShadowedNotCopied checks that sbir patch 130 tells a
// loop's variable from one of the same name its body declares (`i := i`,
// the pre-1.22 idiom, which the sandbox's cell rewriter inserts): a
// closure over the body's i costs what a closure over a j costs, where a
// copy of the loop's i would be one allocation more an iteration.
func TestSbirLoopVarsShadowedNotCopied(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	decls := `var sink func() int`
	for _, c := range []struct{ shadowed, other string }{
		{
			`func() { for i := 0; i < N; i++ { i := i; sink = func() int { return i } } }()`,
			`func() { for i := 0; i < N; i++ { j := i; sink = func() int { return j } } }()`,
		},
		{
			`func() { for _, v := range make([]int, N) { v := v; sink = func() int { return v } } }()`,
			`func() { for _, v := range make([]int, N) { w := v; sink = func() int { return w } } }()`,
		},
	} {
		shadowed, other := allocsPerIteration(t, decls, c.shadowed), allocsPerIteration(t, decls, c.other)
		if shadowed > other+0.5 {
			t.Errorf("%s: %.2f allocations an iteration, %s: %.2f; want the same", c.shadowed, shadowed, c.other, other)
		}
	}
}
