package interp_test

import "testing"

// Patch 46: integer constants beyond int64 used as float or complex
// values, and folded constant expressions returned.
func TestSbirBigIntegerConstantsAsFloats(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, s := range []string{
		`import "fmt"`,
		`type F float64`,
		`const C = -9223372036854775808`,
		`func h() F { return C * C }`,
		`func k() float64 { return C + C }`,
		`func run() {
	var a float64 = C * C
	var b F = C + C
	var c complex128 = C * 4
	x := 1.5
	x = 1 << 70
	fmt.Println(a, b, c, x, h(), k(), []float32{1 << 65})
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	want := "8.507059173023462e+37 -1.8446744073709552e+19 (-3.6893488147419103e+19+0i) 1.1805916207174113e+21 8.507059173023462e+37 -1.8446744073709552e+19 [3.689349e+19]\n"
	if got := out.String(); got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
