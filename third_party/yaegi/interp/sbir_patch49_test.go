package interp_test

import "testing"

// Patch 49: f[T, U] with several type arguments as an element of an
// unkeyed composite literal.
func TestSbirExplicitInstanceInCompositeLiteral(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, s := range []string{
		`import "fmt"`,
		`func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}`,
		`type S struct{ b []bool }`,
		`func run() {
	t := S{Map[int8, bool]([]int8{1, 5}, func(a int8) bool { return a > 2 })}
	fmt.Println(t, []any{Map[int, string]([]int{1}, func(int) string { return "x" })})
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "{[false true]} [[x]]\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
