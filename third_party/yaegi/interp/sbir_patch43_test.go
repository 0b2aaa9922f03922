package interp_test

import "testing"

// Patch 43: comparisons of untyped constants fold exactly, beyond int64.
func TestSbirUntypedConstCompare(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, s := range []string{
		`import "fmt"`,
		`const big = 1 << 64`,
		`const A bool = true != false`,
		`const B bool = (1 < 2)`,
		`const C = "x" == "x"`,
		`func run() {
	fmt.Println(5 > 18446744073709551614, big == 1<<64, "a" < "b", 2.5 > 2, big > 3)
	x := 18446744073709551615 > 4
	var y int64 = 7
	fmt.Println(x, y < 9, y == 7)
	if 3 < 5 && !(1<<70 < 2) {
		fmt.Println("if")
	}
	switch {
	case 1 > 2:
		fmt.Println("1 > 2")
	case "a" < "b", false:
		fmt.Println("a < b")
	}
	switch {
	case !true, 1<<70 < 0:
		fmt.Println("never")
	default:
		fmt.Println("default")
	}
	b := 2 == 2.0
	for i := 0; 1 > 2; i++ {
	}
	fmt.Println(b, "a" == "a" || false)
	fmt.Println(A, B, C)
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "false true true true true\ntrue true true\nif\na < b\ndefault\ntrue true\ntrue true true\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
