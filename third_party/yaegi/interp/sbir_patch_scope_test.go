package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestTopLevelBlockScopes checks sbir patch 13: a := in a block nested at
// the REPL's top level declares a new variable, as in a function, and the
// top level itself keeps its globals across evaluations.
func TestTopLevelBlockScopes(t *testing.T) {
	tests := []struct {
		name  string
		cells []string
		want  string
	}{
		{"bare block", []string{"x := 1\n{\n\tx := 2\n\tfmt.Println(x)\n}\nfmt.Println(x)"}, "2\n1\n"},
		{"if init", []string{"x := 1\nif x, err := strconv.Atoi(\"42\"); err == nil {\n\tfmt.Println(x)\n}\nfmt.Println(x)"}, "42\n1\n"},
		{"else if init", []string{"x := 1\nif x, err := strconv.Atoi(\"z\"); err == nil {\n\tfmt.Println(x)\n} else if x, err := strconv.Atoi(\"7\"); err == nil {\n\tfmt.Println(x)\n}\nfmt.Println(x)"}, "7\n1\n"},
		{"switch init", []string{"x := 1\nswitch x := 5; x {\ncase 5:\n\tfmt.Println(x)\n}\nfmt.Println(x)"}, "5\n1\n"},
		{"loop body copy", []string{"r := make([]int, 3)\nfor i := range r {\n\ti := i\n\tr[i] = i * i\n}\nfmt.Println(r)"}, "[0 1 4]\n"},
		{"for init does not leak", []string{"i := 9\nfor i := 0; i < 2; i++ {\n}\nfmt.Println(i)"}, "9\n"},
		{"globals across cells", []string{"x := 1", "if true {\n\tx = 2\n}", "fmt.Println(x)"}, "2\n"},
		{"redeclared across cells", []string{"x := 1", "x := \"s\"", "fmt.Println(x)"}, "s\n"},
		{"define after a parenthesized func literal", []string{"(func() {\n})()\nr := 3", "fmt.Println(r)"}, "3\n"},
		// sbir patch 13a: closures handed to compiled code or deferred keep
		// the variables of their iteration.
		{"deferred closures per iteration", []string{"func m() {\n\tfor _, s := range []int{7, 8} {\n\t\ts := s\n\t\tdefer func() { fmt.Println(s) }()\n\t}\n}", "m()"}, "8\n7\n"},
		{"closures given to compiled code per iteration", []string{"func m() {\n\tvar fs []func()\n\tfor i := 0; i < 3; i++ {\n\t\ti := i\n\t\tfs = append(fs, sync.OnceFunc(func() { fmt.Println(i) }))\n\t}\n\tfor _, f := range fs {\n\t\tf()\n\t}\n}", "m()"}, "0\n1\n2\n"},
		{"recover in a deferred literal", []string{"func div(a, b int) (q int, err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf(\"recovered: %v\", r)\n\t\t}\n\t}()\n\treturn a / b, nil\n}", "fmt.Println(div(1, 0))"}, "0 recovered: runtime error: integer divide by zero\n"},
		// sbir patch 13b: a deferred call's arguments are evaluated at the defer.
		{"deferred arguments evaluated at the defer", []string{"func show(n int) { fmt.Println(\"x\", n) }", "func m() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer fmt.Println(i)\n\t}\n\tx := 1\n\tdefer show(x)\n\tx = 2\n}", "m()"}, "x 1\n2\n1\n0\n"},
		{"closures given to compiled code share what is not redeclared", []string{"func m() {\n\tn := 0\n\txs := []int{3, 1, 2}\n\tsort.Slice(xs, func(i, j int) bool { n++; return xs[i] < xs[j] })\n\tfmt.Println(xs, n > 0)\n}", "m()"}, "[1 2 3] true\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			for _, src := range append([]string{`import "fmt"`, `import "strconv"`, `import "sort"`, `import "sync"`}, tc.cells...) {
				if _, err := i.Eval(src); err != nil {
					t.Fatalf("Eval(%q): %v", src, err)
				}
			}
			if got := out.String(); got != tc.want {
				t.Errorf("output %q, want %q", got, tc.want)
			}
		})
	}
}
