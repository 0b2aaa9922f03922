package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirClosuresRunAfterInterrupt checks sbir patch 114: closures made
// in a function's frame in an earlier evaluation run their bodies after an
// interrupt, called from interpreted code, as a typed callback (sort.Slice)
// and as a MakeFunc value (through reflect). Their calls took the run id of
// the frame they captured, stale once the interrupt changed the
// interpreter's: they ran nothing and returned zero values. The wanted
// output is what go run prints for the cells as one program.
func TestSbirClosuresRunAfterInterrupt(t *testing.T) {
	for _, tier := range []bool{false, true} {
		var out bytes.Buffer
		i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if !tier {
			interp.DisableIntTier(i)
		}
		for _, cell := range []string{`import ("fmt"; "reflect"; "sort")
var _, _ = sort.Ints, reflect.ValueOf
func mk() (func() string, func(i, j int) bool, func(a, b int) int, func(n int) int) {
	c := ""
	return func() string { c += "x"; return c },
		func(i, j int) bool { return i > j },
		func(a, b int) int { return b - a },
		func(n int) int { return n * 2 }
}`, `ctr, less, cmp, twice := mk()
ctr()`} {
			if _, err := i.Eval(cell); err != nil {
				t.Fatal(err)
			}
		}
		// What an interrupt or the end of a cell does to the interpreter.
		interp.StopRunning(i)
		if _, err := i.Eval(`xs := []int{1, 3, 2}
sort.Slice(xs, func(a, b int) bool { return less(xs[a], xs[b]) })
d := reflect.ValueOf(cmp).Call([]reflect.Value{reflect.ValueOf(5), reflect.ValueOf(9)})[0].Int()
fmt.Println(ctr(), len(ctr()), xs, d, twice(21))`); err != nil {
			t.Fatal(err)
		}
		if got, want := out.String(), "xx 3 [3 2 1] 4 42\n"; got != want {
			t.Errorf("tier=%v: output %q, want %q (go run's)", tier, got, want)
		}
	}
}
