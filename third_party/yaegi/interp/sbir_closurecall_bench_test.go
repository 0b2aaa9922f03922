package interp_test

import (
	"bytes"
	"testing"
)

// BenchmarkSbirClosureCalls runs the loop of bench/lang/closures (a
// counter closure and one of ten adder closures called per iteration),
// 20,000 iterations per operation, compiled once: the interpreter's cost
// of calling closures held in variables and slices, without start-up
// (sbir patch S12). Under callgrind, -benchtime 3x minus 1x is 40,000
// iterations.
func BenchmarkSbirClosureCalls(b *testing.B) {
	var out bytes.Buffer
	i := speedInterp(b, &out)
	if _, err := i.Eval(`
func counter() func() int {
	c := 0
	return func() int {
		c++
		return c
	}
}

func adder(k int) func(int) int {
	return func(x int) int { return x + k }
}

func closures(n int) int {
	next := counter()
	adders := make([]func(int) int, 10)
	for k := range adders {
		adders[k] = adder(k)
	}
	total := 0
	for i := 0; i < n; i++ {
		total += adders[i%10](next()) % 1000
	}
	return total
}`); err != nil {
		b.Fatal(err)
	}
	prog, err := i.Compile(`closures(20000)`)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for j := 0; j < b.N; j++ {
		v, err := i.Execute(prog)
		if err != nil {
			b.Fatal(err)
		}
		if got := v.Int(); got != 10000000 {
			b.Fatalf("closures(20000) = %d, want 10000000", got)
		}
	}
}
