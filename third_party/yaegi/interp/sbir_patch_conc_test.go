package interp_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Patch 10a: a function literal passed to compiled code keeps the
// variables of the iteration that created it.
func TestSbirConcFuncLitToCompiled(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	var kept []func()
	if err := i.Use(interp.Exports{"keep/keep": {
		"Keep": reflect.ValueOf(func(f func()) { kept = append(kept, f) }),
		"Any":  reflect.ValueOf(func(f any) { kept = append(kept, f.(func())) }),
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`package main
import ("fmt"; "keep")
func main() {
	for i := 0; i < 3; i++ {
		i := i
		keep.Keep(func() { fmt.Print("k", i, " ") })
		keep.Any(func() { fmt.Print("a", i, " ") })
	}
}`); err != nil {
		t.Fatal(err)
	}
	for _, f := range kept {
		f()
	}
	if got, want := out.String(), "k0 a0 k1 a1 k2 a2 "; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Patch 10b: ranging with a key and a value over a slice of channels
// ranges over the slice, not over the value variable taken for a channel.
func TestSbirConcRangeSliceOfChans(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`package main
import "fmt"
func lens(cs ...<-chan int) (n []int) {
	for _, c := range cs {
		n = append(n, len(c))
	}
	return n
}
func main() {
	a, b := make(chan int, 2), make(chan int, 2)
	a <- 1
	b <- 1
	b <- 2
	fmt.Println(lens(a, b))
	for i, c := range [2]chan int{a, b} {
		fmt.Println(i, cap(c), c == a)
	}
	for v := range a {
		fmt.Println("got", v)
		close(a)
	}
}`); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "[1 2]\n0 2 true\n1 2 false\ngot 1\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Patch 10c: index and nil dereference mistakes panic with gc's runtime
// errors.
func TestSbirConcRuntimeErrors(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`package main
import (
	"fmt"
	"runtime"
)
type node struct {
	next *node
	val  int
}
type I interface{ M() }
func try(f func()) {
	defer func() {
		r := recover()
		_, isRuntime := r.(runtime.Error)
		fmt.Println(r, isRuntime)
	}()
	f()
}
func main() {
	xs := []int{1, 2, 3}
	i := 5
	try(func() { fmt.Println(xs[i]) })
	try(func() { xs[i] = 1 })
	try(func() { fmt.Println(xs[1:][i-3]) })
	try(func() { a := [3]int{}; fmt.Println(a[i-2]) })
	try(func() { s := "abc"; fmt.Println(s[i-2]) })
	try(func() { j := -1; fmt.Println(xs[j]) })
	try(func() { n := &node{val: 1}; fmt.Println(n.next.val) })
	try(func() { var n *node; n.val = 3 })
	try(func() { var p *int; fmt.Println(*p) })
	try(func() { var v I; v.M() })
}`); err != nil {
		t.Fatal(err)
	}
	want := `runtime error: index out of range [5] with length 3 true
runtime error: index out of range [5] with length 3 true
runtime error: index out of range [2] with length 2 true
runtime error: index out of range [3] with length 3 true
runtime error: index out of range [3] with length 3 true
runtime error: index out of range [-1] true
runtime error: invalid memory address or nil pointer dereference true
runtime error: invalid memory address or nil pointer dereference true
runtime error: invalid memory address or nil pointer dereference true
runtime error: invalid memory address or nil pointer dereference true
`
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant (as gc)\n%s", got, want)
	}
}

// Patch 10d: deferring a closure held in a variable of the same function
// does not hang, and the closure can recover.
func TestSbirConcDeferClosureVariable(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := i.Eval(`package main
import "fmt"
func g() {
	x := 1
	cleanup := func() { fmt.Println("cleanup", x) }
	defer cleanup()
	x = 2
}
func h() (err error) {
	rescue := func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}
	defer rescue()
	panic("boom")
}
func main() {
	g()
	fmt.Println(h())
}`)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the deferred closure hung")
	}
	if got, want := out.String(), "cleanup 2\nrecovered: boom\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Patch 17: calling a closure does not write to the frame its literal was
// evaluated in. The call used to put back the value the literal's slot held
// before the closure was made, so calling the previous iteration's closure
// between a literal's evaluation and its use handed on that older closure
// (here: none at all, a nil function).
func TestSbirConcClosureCallLeavesFrame(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`package main
import "fmt"
func call(p func() int) int {
	if p == nil {
		return 0
	}
	return p()
}
func first(f func() int, _ int) func() int { return f }
func main() {
	var prev func() int
	for i := 1; i <= 3; i++ {
		i := i
		// The literal is evaluated, then prev called, then first.
		f := first(func() int { return i }, call(prev))
		fmt.Print(f(), " ")
		prev = f
	}
	fmt.Println()
}`); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "1 2 3 \n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Patch 17, as the sandbox met it: closures made in a loop and handed to an
// interpreted WaitGroup.Go that starts them through compiled code. A
// closure that ended while the loop was between making the next closure
// and passing it put its predecessor back in the loop's frame, so one
// iteration's closure ran twice and another's never (5050 - 68 seen). Run
// with -race, the detector also reports the unguarded write.
func TestSbirConcClosuresFromLoopToGoroutines(t *testing.T) {
	const src = `package main
import ("fmt"; "start"; "sync")
type WaitGroup struct{ wg sync.WaitGroup }
func (w *WaitGroup) Go(f func()) {
	w.wg.Add(1)
	start.Go(func() { defer w.wg.Done(); f() })
}
func main() {
	var wg WaitGroup
	var mu sync.Mutex
	total := 0
	for i := 1; i <= 100; i++ {
		i := i
		wg.Go(func() { mu.Lock(); total += i; mu.Unlock() })
	}
	wg.wg.Wait()
	fmt.Println(total)
}`
	for run := 0; run < 50; run++ {
		var out bytes.Buffer
		i := interp.New(interp.Options{Stdout: &out})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if err := i.Use(interp.Exports{"start/start": {
			"Go": reflect.ValueOf(func(f func()) { go f() }),
		}}); err != nil {
			t.Fatal(err)
		}
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if got, want := out.String(), "5050\n"; got != want {
			t.Fatalf("run %d: got %q, want %q", run, got, want)
		}
	}
}
