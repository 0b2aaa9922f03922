package interp_test

import (
	"sync"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirEvalResultNotReadConcurrently checks sbir patch 132: an
// evaluation whose last statement has no value does not read the
// variable its result slot happens to hold. `go inc()` left the global
// mutex there, and Execute copied it (to see whether it was a function
// node) while the goroutine locked it: go test -race reported it. A
// function named last is still returned as a callable function.
func TestSbirEvalResultNotReadConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	i := interp.New(interp.Options{Go: func(f func()) {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "sync"

var mu sync.Mutex
var ran int

func inc() {
	for k := 0; k < 100; k++ {
		mu.Lock()
		ran++
		mu.Unlock()
	}
}`); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 10; k++ {
		if _, err := i.Eval("go inc()"); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
	}
	if v, err := i.Eval("ran"); err != nil || v.Int() != 1000 {
		t.Errorf("ran = %v, %v; want 1000", v, err)
	}
	if _, err := i.Eval("func three() int { return 3 }"); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval("three")
	if err != nil {
		t.Fatal(err)
	}
	f, ok := v.Interface().(func() int)
	if !ok || f() != 3 {
		t.Errorf("three evaluated to %v (%T), want a func() int giving 3", v, v.Interface())
	}
}
