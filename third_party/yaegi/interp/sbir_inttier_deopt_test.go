package interp_test

import (
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirIntTierDeopts checks how often calls of the int tier (sbir
// patch S9) run again in the interpreter: never for a recursive function
// whose locals are declared after its recursive call (the call's window
// had the registers known when the call was compiled, too few, and every
// call panicked on its index and ran again), and four times for a panic
// 3,000 calls deep (the interpreter's run called the function one level
// down, which ran in the tier to the same panic, at every level, so the
// time grew with the square of the depth; now the function leaves the
// tier after four). The wanted output is go run's.
func TestSbirIntTierDeopts(t *testing.T) {
	tests := []struct {
		name, src, want string
		deopts          int
	}{
		{"locals after the recursive call", `package main
import "fmt"
func sum(n int) int {
	if n == 0 {
		return 0
	}
	s := sum(n - 1)
	u := s + n
	return u
}
func even(n int) bool {
	if n == 0 {
		return true
	}
	o := odd(n - 1)
	r := o
	return r
}
func odd(n int) bool {
	if n == 0 {
		return false
	}
	e := even(n - 1)
	return e
}
func main() {
	x := 0
	for i := 0; i < 20; i++ {
		x += sum(300 + i)
	}
	fmt.Println(x, even(301), odd(301))
}
`, "961330 false true\n", 0},
		{"a panic deep in a recursion", `package main
import "fmt"
var zero int
func f(n int) int {
	if n == 0 {
		return 1 / zero
	}
	return f(n-1) + 1
}
func try(n int) (r int) {
	defer func() {
		if p := recover(); p != nil {
			r = -1
		}
	}()
	return f(n)
}
func main() {
	zero = 1
	fmt.Println(try(3000))
	zero = 0
	fmt.Println(try(3000), try(10))
	zero = 2
	fmt.Println(try(3000))
}
`, "3001\n-1 -1\n3000\n", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i, out, errs := intTierInterp(t, true)
			if _, err := i.Eval(tc.src); err != nil {
				t.Fatalf("%v\n%s", err, errs)
			}
			if out.String() != tc.want {
				t.Errorf("output %q, want %q", out, tc.want)
			}
			checkIntTierUsed(t, i, true)
			if n := interp.IntTierDeopts(i); n != tc.deopts {
				t.Errorf("%d calls of the int tier ran again in the interpreter, want %d", n, tc.deopts)
			}
		})
	}
}
