package interp_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirClosureCallsRead checks sbir patch S12 (a call reads the
// function an interpreter-made value runs from the value itself): closures
// sharing a captured variable across goroutines, held in maps and slices
// and called after their maker returned, made on another goroutine,
// recursive through a variable that is then bound to another closure,
// empty, nil, method values and expressions (not read: called through
// reflect), given to compiled code, panicking, with interface arguments.
// The output is go run's.
func TestSbirClosureCallsRead(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"closures", `package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type acc struct{ n int }

func (a *acc) add(x int) int { a.n += x; return a.n }
func (a acc) get() int       { return a.n }

func pair() (func() int, func(int)) {
	v := 0
	return func() int { return v }, func(x int) { v += x }
}

func makers() map[string]func(int) int {
	m := map[string]func(int) int{}
	for _, k := range []int{1, 2, 3} {
		k := k
		m[fmt.Sprint("add", k)] = func(x int) int { return x + k }
	}
	m["neg"] = func(x int) int { return -x }
	return m
}

func main() {
	get, add := pair()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				mu.Lock()
				add(1)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	fmt.Println("shared", get())

	m := makers()
	keys := []string{"add1", "add2", "add3", "neg"}
	s := 0
	for i := 0; i < 100; i++ {
		s = m[keys[i%4]](s)
	}
	fmt.Println("map", s)

	var fib func(int) int
	fib = func(n int) int {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	fmt.Println("fib", fib(20))
	old := fib
	fib = func(n int) int { return 100 + n }
	fmt.Println("rebound", old(5), fib(5))

	empty := func() {}
	empty()
	var nilf func()
	func() {
		defer func() { fmt.Println("nil call:", recover() != nil) }()
		nilf()
	}()

	a := &acc{}
	f := a.add
	g := acc.get
	h := (*acc).add
	for i := 0; i < 3; i++ {
		f(i)
		h(a, 10)
	}
	fmt.Println("methods", a.n, g(*a))

	ch := make(chan func(int) int)
	go func() {
		base := 7
		ch <- func(x int) int { base += x; return base }
	}()
	made := <-ch
	made(1)
	fmt.Println("from goroutine", made(2))

	xs := []int{5, 2, 8, 1}
	less := func(i, j int) bool { return xs[i] < xs[j] }
	sort.Slice(xs, less)
	fmt.Println("sorted", xs, less(0, 1), less(1, 0))
	up := strings.ToUpper
	fmt.Println(up("x"), strings.Map(func(r rune) rune { return r + 1 }, "abc"))

	fs := make([]func() int, 0)
	for i := 0; i < 3; i++ {
		i := i
		fs = append(fs, func() int { i *= 2; return i })
	}
	t := 0
	for r := 0; r < 3; r++ {
		for _, f := range fs {
			t += f()
		}
	}
	fmt.Println("slices", t)

	done := make(chan int)
	counter := 0
	inc := func() int { counter++; return counter }
	for i := 0; i < 3; i++ {
		go func() { mu.Lock(); inc(); mu.Unlock(); done <- 1 }()
	}
	for i := 0; i < 3; i++ {
		<-done
	}
	fmt.Println("goroutines", inc())

	func() {
		defer func() { fmt.Println("recovered", recover()) }()
		boom := func(x int) int { return 10 / x }
		fmt.Println(boom(2))
		fmt.Println(boom(0))
	}()
	var iface func(any) string = func(v any) string { return fmt.Sprintf("%T", v) }
	fmt.Println(iface(1), iface("s"), iface(nil))
}
`, `shared 4000
map -6
fib 6765
rebound 207 105
nil call: true
methods 33 33
from goroutine 10
sorted [1 2 5 8] true false
X bcd
slices 42
goroutines 4
5
recovered runtime error: integer divide by zero
int string <nil>`},
	})
}

// TestSbirClosureCallsReadRedeclared checks that a closure and a function
// value made before a function was declared again (sbir patch 52) call
// the new declaration when a call reads them (sbir patch S12), and that a
// closure another interpreter made runs as that interpreter's.
func TestSbirClosureCallsReadRedeclared(t *testing.T) {
	var out bytes.Buffer
	i := speedInterp(t, &out)
	for _, cell := range []string{
		`func double(x int) int { return 2 * x }`,
		`f := double; g := func(x int) int { return double(x) + 1 }; var h func(int) int = func(x int) int { return f(x) * 10 }`,
		`func double(x int) int { return 3 * x }`,
		`r := []int{f(1), g(1), h(1)}`,
	} {
		if _, err := i.Eval(cell); err != nil {
			t.Fatalf("%s: %v", cell, err)
		}
	}
	v, err := i.Eval(`r`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(v.Interface()); got != "[3 4 30]" {
		t.Errorf("after double was declared again: %s, want [3 4 30]", got)
	}

	other := speedInterp(t, &out)
	made, err := other.Eval(`func() func(int) int { n := 100; return func(x int) int { n += x; return n } }()`)
	if err != nil {
		t.Fatal(err)
	}
	if err := i.Use(interp.Exports{"ext/ext": {"F": made}}); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "ext"`); err != nil {
		t.Fatal(err)
	}
	v, err = i.Eval(`func() int { f := ext.F; f(1); return f(2) }()`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 103 {
		t.Errorf("another interpreter's closure: %d, want 103", v.Int())
	}
}
