package interp_test

import (
	"bytes"
	"testing"
)

// TestSbirShadowedNilAndIota checks sbir patch 73: a variable named nil
// or iota is that variable where it is in scope, as in gc; upstream took
// every identifier nil for the predeclared nil and every iota for the
// constant counter, so `nil := 3; d := nil` gave d the zero value.
func TestSbirShadowedNilAndIota(t *testing.T) {
	tests := []struct {
		name string
		srcs []string
		want string
	}{
		{"top level", []string{"nil := 3\nd := nil\niota := 5\ne := iota + 1\nfmt.Println(d, nil*2, iota, e)"}, "3 6 5 6\n"},
		{"right side of its own definition", []string{"true, false := false, true\nlen := len(\"abc\")\nfmt.Println(true, false, !true, len)"}, "false true true 3\n"},
		{"in a function", []string{`func f() {
	nil := "n"
	iota := 2.5
	fmt.Println(nil+"!", iota*2)
}`, "f()"}, "n! 5\n"},
		{"composite literal element", []string{"nil := 4\nxs := []int{nil, 1}\nfmt.Println(xs)"}, "[4 1]\n"},
		{"package var", []string{"var nil = 7\nfunc g() int { return nil + 1 }", "fmt.Println(g())"}, "8\n"},
		{"predeclared still", []string{"const (\n\ta = iota\n\tb\n)\nvar p *int = nil", "fmt.Println(a, b, p == nil)"}, "0 1 true\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := newPatch51Interp(t, &out)
			for _, src := range tc.srcs {
				if _, err := i.Eval(src); err != nil {
					t.Fatalf("Eval(%q): %v", src, err)
				}
			}
			if got := out.String(); got != tc.want {
				t.Errorf("%q printed %q, want %q", tc.srcs, got, tc.want)
			}
		})
	}
}
