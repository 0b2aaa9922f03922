package interp_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirDeepPanicLinear checks sbir patch 21: a panic unwinds a deep
// stack of interpreted calls in linear time, and every frame on the way
// still runs its deferred calls, may recover, and writes its trace line.
func TestSbirDeepPanicLinear(t *testing.T) {
	var stderr bytes.Buffer
	i := interp.New(interp.Options{Stderr: &stderr})
	if _, err := i.Eval(`
var trail []int
func f(n int) int {
	if n == 0 {
		panic("deep")
	}
	if n%10000 == 0 {
		defer func() { trail = append(trail, n) }()
	}
	return f(n-1) + 1
}
func g(n int) (r int) {
	defer func() {
		if x := recover(); x != nil {
			r = -1
		}
	}()
	return f(n)
}`); err != nil {
		t.Fatal(err)
	}
	// 30,000 calls: quadratic unwinding took about a minute here; linear,
	// well under a second. (The judge of the time is the sandbox's
	// TestPanicInDeepRecursion, where the cell's time limit is the bound.)
	v, err := i.Eval(`g(30000)`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != -1 {
		t.Errorf("g(30000) = %d, want -1 (recovered)", v.Int())
	}
	trail, err := i.Eval(`trail`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(trail.Interface()); got != "[10000 20000 30000]" {
		t.Errorf("deferred calls run during the unwinding: %s, want [10000 20000 30000]", got)
	}
	if n := strings.Count(stderr.String(), "panic: main.f(...)"); n != 30001 {
		t.Errorf("%d trace lines for f, want one per frame (30001)", n)
	}
	// A panic nothing recovers still reaches the caller with its value.
	_, err = i.Eval(`f(20000)`)
	if p, ok := err.(interp.Panic); !ok || fmt.Sprint(p.Value) != "deep" {
		t.Errorf("unrecovered deep panic: %T %v", err, err)
	}
}
