package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestStackCapRefused checks that cap() of a slice grown by append is
// refused where gc's escape analysis decides the capacity and the
// interpreter does not follow it (sbir patch 41), and allowed where it
// does: each refused body prints other numbers with gc than the
// runtime's 1 2 4 4 8 (4 4 4 4 8, or 1 2 3 4 8 in Go 1.26).
func TestStackCapRefused(t *testing.T) {
	const loop = "var s []int\n\tfor i := 0; i < 5; i++ {\n\t\ts = append(s, i)\n\t\tfmt.Print(cap(s), \" \")\n\t}\n\t"
	tests := []struct {
		name, body string
		refused    bool
	}{
		{"only appends, len, cap", loop + "fmt.Println(len(s))", false},
		{"printed by fmt", loop + "fmt.Println(s)", false},
		{"address taken", loop + "p := &s\n\tfmt.Println(len(*p))", false},
		{"sliced", loop + "fmt.Println(len(s[1:]))", true},
		{"set to nil", loop + "s = nil\n\tfmt.Println(len(s))", true},
		{"copied", loop + "t := s\n\tfmt.Println(len(t))", true},
		{"passed to a function", loop + "fmt.Println(strings.Join(nil, \"\"), sum(s))", true},
		{"captured", loop + "f := func() int { return len(s) }\n\tfmt.Println(f())", true},
		{"stored in a map", loop + "m := map[int][]int{1: s}\n\tfmt.Println(len(m))", true},
		{"cap in a closure", "var s []int\n\tfor i := 0; i < 5; i++ {\n\t\ts = append(s, i)\n\t\tfunc() { fmt.Print(cap(s)) }()\n\t}", true},
		{"variadic append", "var s []int\n\ts = append(s, []int{1, 2}...)\n\tfmt.Println(cap(s))", true},
		{"not grown by append", "s := make([]int, 3)\n\tt := s[1:]\n\tfmt.Println(cap(s), cap(t))", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc sum(xs []int) (n int) {\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn\n}\n\nfunc main() {\n\t" + tt.body + "\n}\n"
			var out strings.Builder
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			_, err := i.Eval(src)
			switch {
			case tt.refused && (err == nil || !strings.Contains(err.Error(), "cap(s) after append is not supported")):
				t.Errorf("got %v (output %q), want the cap(s) refusal", err, out.String())
			case !tt.refused && err != nil:
				t.Errorf("refused: %v", err)
			}
		})
	}
}
