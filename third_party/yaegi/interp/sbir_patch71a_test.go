package interp_test

import (
	"bytes"
	"testing"
)

// TestSbirGenericFuncValue checks sbir patch 71a: a generic function
// instantiated with two or more type arguments and not called (f[T, U]
// as a value) is the instantiated function, as f[T] is; upstream refused
// it with "not a generic type".
func TestSbirGenericFuncValue(t *testing.T) {
	var out bytes.Buffer
	i := newPatch51Interp(t, &out)
	src := `
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Pick[K comparable, V any](m map[K]V, k K) V { return m[k] }

func run() {
	sq := Map[int, int]
	fmt.Println(sq([]int{1, 2, 3}, func(n int) int { return n * n }))
	fmt.Printf("%T\n", sq)
	var f func(map[string]float64, string) float64 = Pick[string, float64]
	fmt.Println(f(map[string]float64{"a": 1.5}, "a"))
	fs := []func([]int, func(int) string) []string{Map[int, string]}
	fmt.Println(fs[0]([]int{7}, func(n int) string { return fmt.Sprint(n, "!") }))
}`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("run()"); err != nil {
		t.Fatal(err)
	}
	want := "[1 4 9]\nfunc([]int, func(int) int) []int\n1.5\n[7!]\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
