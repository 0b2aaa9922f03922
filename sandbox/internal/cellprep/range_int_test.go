package cellprep

import (
	"strings"
	"testing"
)

// TestTwoVariableRangeOverInteger checks that `for i, v := range n` is
// refused when n is an integer, and not when n names something else
// that was declared after an integer of the same name: a parameter or a
// variable of another type in a later function, or in a cell after one
// that declared an integer.
func TestTwoVariableRangeOverInteger(t *testing.T) {
	const refused = "a two-variable range over an integer"
	tests := []struct {
		name, earlier, code string
		refused             bool
	}{
		{"local integer", "", "func f() { n := 3; for i, v := range n { _, _ = i, v } }", true},
		{"integer parameter", "", "func f(n int) { for i, v := range n { _, _ = i, v } }", true},
		{"integer of an earlier cell", "n := 3", "for i, v := range n { _, _ = i, v }", true},
		{"string parameter after an integer", "",
			"func count(n int) int { s := 0; for i := 0; i < n; i++ { s += i }; return s }\n" +
				"func runes(s string) int { t := 0; for _, r := range s { t += int(r) }; return t }", false},
		{"string variable after an integer", "",
			"func f() { s := 1; _ = s }\nfunc g() { s := \"ab\"; for i, r := range s { _, _ = i, r } }", false},
		{"parameter hiding an integer of an earlier cell", "s := 0",
			"func runes(s string) int { t := 0; for _, r := range s { t += int(r) }; return t }", false},
		{"range variable hiding an integer", "",
			"func f(xs []string) { n := 1; _ = n; for _, n := range xs { for i, c := range n { _, _ = i, c } } }", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := NewState()
			if tc.earlier != "" {
				p, err := Prepare(tc.earlier, st)
				if err != nil {
					t.Fatalf("earlier cell: %v", err)
				}
				st.Commit(p)
			}
			_, err := Prepare(tc.code, st)
			got := err != nil && strings.Contains(err.Error(), refused)
			if got != tc.refused {
				t.Fatalf("refused %v (%v), want %v", got, err, tc.refused)
			}
			if !tc.refused && err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}
