package interp_test

import "testing"

// Patch 45: untyped constants beyond int64 returned or sent as an
// unsigned type.
func TestSbirBigUnsignedConstants(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, s := range []string{
		`import "fmt"`,
		`func f() uint { return 18446744073709551615 }`,
		`func h() (int, uint64) { return 1, 9223372036854775808 }`,
		`func k() any { return 3 }`,
		`func run() {
	ch := make(chan uint64, 2)
	ch <- 18446744073709551614
	ch <- 7
	a, b := h()
	fmt.Println(f(), a, b, <-ch, <-ch, k())
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "18446744073709551615 1 9223372036854775808 18446744073709551614 7 3\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
