package interp_test

import (
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirOrFoldedConstLeft checks || whose left operand is a constant
// folded from an operation (sbir patch 170): the right operand runs, as
// in gc. Before the patch each of these was false: the || read its right
// operand's slot without running it.
func TestSbirOrFoldedConstLeft(t *testing.T) {
	tests := []struct{ name, expr string }{
		{"not", `!true || x == 1`},
		{"notConst", `!T || x == 1`},
		{"compare", `1 > 2 || x == 1`},
		{"stringCompare", `"a" == "b" || x == 1`},
		{"constOr", `!true || !T || x == 1`},
		{"conversion", `B(false) || x == 1`},
		{"paren", `(!true) || x == 1`},
		{"doubleNot", `!!false || x == 1`},
		{"inIf", `func() bool { if !true || x == 1 { return true }; return false }()`},
		{"inFor", `func() bool { n := 0; for i := 0; !true || i < 2; i++ { n++ }; return n == 2 }()`},
		{"inClosure", `func() bool { return 1 > 2 || x == 1 }()`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, tier := range []bool{true, false} {
				i, out, errs := intTierInterp(t, tier)
				if _, err := i.Eval("const T = true\ntype B bool\nvar x = 1"); err != nil {
					t.Fatal(err)
				}
				v, err := i.Eval(tc.expr)
				if err != nil {
					t.Fatalf("tier %v: %v\n%s%s", tier, err, out, errs)
				}
				if !v.Bool() {
					t.Errorf("tier %v: %s is false, want true (gc's)", tier, tc.expr)
				}
			}
		})
	}
	_ = interp.DisableIntTier
}
