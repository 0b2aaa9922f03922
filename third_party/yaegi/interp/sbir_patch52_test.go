package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// redefCase is a sequence of evaluations in one interpreter with its
// output, and the error the last one returns ("" for none).
type redefCase struct {
	name    string
	srcs    []string
	want    string
	wantErr string
}

func runRedefCases(t *testing.T, cases []redefCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			srcs := append([]string{`import "fmt"`, `import "sort"`}, tc.srcs...)
			for k, src := range srcs {
				_, err := i.Eval(src)
				if k < len(srcs)-1 || tc.wantErr == "" {
					if err != nil {
						t.Fatalf("Eval(%q): %v", src, err)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("Eval(%q): %v, want an error containing %q", src, err, tc.wantErr)
				}
			}
			if got := out.String(); got != tc.want {
				t.Errorf("output %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSbirRedefinedFunctions checks sbir patch 52: a function or method
// declared again in a later evaluation is the one that code compiled
// before calls, by its name or through a value or an interface taken
// before, as in a notebook (ipykernel) where a fixed function is run
// again; a call compiled for another signature fails saying so.
func TestSbirRedefinedFunctions(t *testing.T) {
	runRedefCases(t, []redefCase{
		{name: "caller uses the new function", srcs: []string{
			`func greet() string { return "hi" }`, `func caller() { fmt.Println(greet()) }`, "caller()",
			`func greet() string { return "hello" }`, "caller()", "fmt.Println(greet())"},
			want: "hi\nhello\nhello\n"},
		{name: "recursion and passing by name", srcs: []string{
			"func less(a, b int) bool { return a < b }", "func sorted(xs []int) []int { sort.Slice(xs, func(i, j int) bool { return less(xs[i], xs[j]) }); return xs }",
			"func fact(n int) int { if n == 0 { return 1 }; return n * fact(n-1) }",
			"func desc(xs []int) { sort.Slice(xs, func(i, j int) bool { return less(xs[j], xs[i]) }) }",
			"fmt.Println(sorted([]int{3, 1, 2}), fact(4))",
			"func less(a, b int) bool { return a > b }", "func fact(n int) int { return -n }",
			"fmt.Println(sorted([]int{3, 1, 2}), fact(4))"},
			want: "[1 2 3] 24\n[3 2 1] -4\n"},
		{name: "a value taken before", srcs: []string{
			`func greet() string { return "hi" }`, "g := greet", "m := map[string]func() string{\"g\": greet}",
			`func greet() string { return "hello" }`, "fmt.Println(g(), greet(), m[\"g\"]())"},
			want: "hello hello hello\n"},
		{name: "methods", srcs: []string{
			"type T struct{ n int }", `func (t T) S() string { return "a" }`, "func use(t T) string { return t.S() }",
			`func (t T) String() string { return "old" }`, "var s fmt.Stringer = T{}",
			"fmt.Println(T{}.S(), use(T{}), s)",
			`func (t T) S() string { return "b" }`, `func (t T) String() string { return "new" }`,
			"fmt.Println(T{}.S(), use(T{}), s, T.S(T{}))"},
			want: "a a old\nb b new b\n"},
		{name: "another signature", srcs: []string{
			`func greet() string { return "hi" }`, `func caller() { fmt.Println(greet()) }`,
			`func greet(name string) string { return "hi " + name }`, "caller()"},
			wantErr: "greet was declared again with another signature (func greet(string) string, was func greet() string)"},
		{name: "a method with another receiver", srcs: []string{
			"type T struct{ n int }", `func (t T) S() string { return "a" }`, "func use(t T) string { return t.S() }",
			`func (t *T) S() string { return "p" }`, "fmt.Println(use(T{}))"},
			wantErr: "T.S was declared again with another signature (func (*main.T) S() string, was func (main.T) S() string)"},
	})
}
