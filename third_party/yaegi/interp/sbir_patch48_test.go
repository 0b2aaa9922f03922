package interp_test

import "testing"

// Patch 48: a var declaration that makes a generic function instance
// runs the instance's body.
func TestSbirGenericInstanceInVarDecl(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, s := range []string{
		`import "fmt"`,
		`func Same[T any](x T) T { return x }`,
		`func Max[T int | uint8](a, b T) T { if a > b { return a }; return b }`,
		`var top = Same("top")`,
		`func run() {
	var n int = Same(5)
	var a any = Max(uint8(3), uint8(9))
	var f = Same(2.5) + 1
	fmt.Println(top, n, a, f)
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "top 5 9 3.5\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
