package interp

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"unsafe"

	"github.com/traefik/yaegi/stdlib"
)

// TestSbirNopStepsSkipped checks sbir patch S11d: with
// DiscardDebugInfo, the steps that do nothing (blocks, ends of if
// statements, expression statements, the selector of a method called
// directly) are the steps after them, and the program's answers are go
// run's; an interpreter that keeps debug information keeps the steps.
func TestSbirNopStepsSkipped(t *testing.T) {
	src := `package main

import "fmt"

type t struct{ n int }

func (x *t) inc() { x.n++ }

func classify(k int) string {
	switch {
	case k < 0:
		return "neg"
	case k == 0:
	case k%2 == 0:
		{
			{
			}
		}
		return "even"
	default:
		if k > 100 {
		} else if k > 10 {
			return "big odd"
		} else {
			{
			}
		}
	}
	return "other"
}

func main() {
	x := &t{}
	out := []string{}
	for i := -2; i < 14; i++ {
		if i%3 == 0 {
			x.inc()
		} else {
		}
		{
			out = append(out, classify(i))
		}
	}
	fmt.Println(x.n, out)
	n := 0
outer:
	for i := 0; ; i++ {
		for j := 0; j < 5; j++ {
			if j == 3 {
				continue outer
			}
			if i == 4 {
				break outer
			}
			n += j
		}
	}
	k := 0
loop:
	if k < 5 {
		k++
		goto loop
	}
	switch k {
	case 5:
		fallthrough
	case 6:
		{
		}
	default:
		k = -1
	}
	for range 3 {
	}
	fmt.Println(n, k)
}
`
	const want = "5 [neg neg other other even other even other even other even other even big odd even big odd]\n12 5\n"
	for _, discard := range []bool{true, false} {
		var out, stderr bytes.Buffer
		i := New(Options{Stdout: &out, Stderr: &stderr, DiscardDebugInfo: discard})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		if got := out.String(); got != want {
			t.Errorf("discard %v: output:\n%s\nwant (go run's):\n%s", discard, got, want)
		}
		skipped, kept := 0, 0
		for _, name := range []string{"main", "classify"} {
			i.scopes[mainID].sym[name].node.Walk(func(n *node) bool {
				if !sameGen(n.gen, nop) || n.exec == nil || n.tnext == nil || n.tnext.exec == nil {
					return true
				}
				if closureOf(n.exec) == closureOf(n.tnext.exec) {
					skipped++
				} else {
					kept++
				}
				return true
			}, nil)
		}
		if discard && skipped < 10 {
			t.Errorf("with DiscardDebugInfo %d steps that do nothing skipped (%d kept), want at least 10", skipped, kept)
		}
		if !discard && skipped > 0 {
			t.Errorf("with debug information %d steps that do nothing skipped, want none", skipped)
		}
	}
}

// TestSbirNopLoopsInterrupt checks that loops made only of steps that do
// nothing keep a step (sbir patch S11d), so that an interrupt stops them
// (a loop of no step would have called itself until the stack overflowed).
func TestSbirNopLoopsInterrupt(t *testing.T) {
	for _, loop := range []string{
		"for {}",
		"for { {} }",
		"for { if true {} }",
		"L: for { {}; continue L }",
		"for { switch {} }",
	} {
		t.Run(loop, func(t *testing.T) {
			started := &signalWriter{c: make(chan struct{})}
			i := New(Options{DiscardDebugInfo: true, Stdout: started})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := i.EvalWithContext(ctx, `import "fmt"; func main() { fmt.Print("in"); `+loop+" }")
				done <- err
			}()
			<-started.c // the loop starts as the print returns
			cancel()
			if err := <-done; err == nil {
				t.Errorf("%s: no error once interrupted", loop)
			}
		})
	}
}

// closureOf returns the closure object of fn, to tell two func values
// made by the same func literal apart.
func closureOf(fn bltn) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&fn))
}

// signalWriter is a writer that closes c at its first write.
type signalWriter struct {
	once sync.Once
	c    chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.c) })
	return len(p), nil
}
