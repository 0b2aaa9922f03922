package interp_test

import (
	"bytes"
	"testing"
)

// TestSbirConstOperandTypes checks sbir patch 70: in a constant (or
// variable) declared with a comparison or a shift whose operand is
// parenthesised, the operand does not take the comparison's bool type or
// the shifted value's type. A package-level constant is compiled twice,
// and upstream reported "constant definition loop" for these.
func TestSbirConstOperandTypes(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"untyped comparison", `const c = (8 + 1) <= 9`, "true bool"},
		{"typed comparison", `const c bool = (2 * 3) > 7`, "false bool"},
		{"named bool", "type B bool\nconst c B = !((1 + 1) == 2)", "false main.B"},
		{"float shift", "type S float64\nconst c S = 1 << (10 * 2)", "1.048576e+06 main.S"},
		{"iota shift", "type S float64\nconst (\n\t_ = iota\n\tKiB S = 1 << (10 * iota)\n\tc\n)", "1.048576e+06 main.S"},
		{"shift then divide", "type W float64\nconst (\n\t_ = iota\n\tKG W = 1 << (10 * iota) / 1024 * 1000\n\tc\n)", "1.024e+06 main.W"},
		{"unsigned shift count", "const k = 2\nconst c uint8 = (200 + 50) >> (k - 1)", "125 uint8"},
		{"var", "const k = 2\nvar c float64 = 1 << (10 * k)", "1.048576e+06 float64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := newPatch51Interp(t, &out)
			if _, err := i.Eval(tc.src); err != nil {
				t.Fatalf("Eval(%q): %v", tc.src, err)
			}
			if _, err := i.Eval(`fmt.Printf("%v %T", c, c)`); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("%q printed %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}
