package sandbox

import (
	"strings"
	"testing"
)

// TestRedefinitionInLaterCells checks what a notebook user expects when a
// later cell declares a function, method or type again (issue 27; yaegi
// patches 52 and 25): the new function is the one earlier code calls, as
// in ipykernel; a type is a new type, values of the old one keep working,
// and code compiled for the old one refuses the new one with a message
// saying what to run again.
func TestRedefinitionInLaterCells(t *testing.T) {
	runCellsCases(t, []cellsCase{
		{name: "a function an earlier function calls", cells: []string{
			`func greet() string { return "hi" }`, "func caller() { fmt.Println(greet()) }", "caller()",
			`func greet() string { return "hello" }`, "caller()"},
			stdout: "hi\nhello\n"},
		{name: "a function passed to the standard library", cells: []string{
			"func less(a, b int) bool { return a < b }", "func sorted(xs []int) []int { sort.Slice(xs, func(i, j int) bool { return less(xs[i], xs[j]) }); return xs }",
			"fmt.Println(sorted([]int{3, 1, 2}))", "func less(a, b int) bool { return a > b }", "fmt.Println(sorted([]int{3, 1, 2}))"},
			stdout: "[1 2 3]\n[3 2 1]\n"},
		{name: "a method, also through fmt", cells: []string{
			"type temp float64", `func (t temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }`,
			"t := temp(21.5)\nfmt.Println(t)", `func (t temp) String() string { return fmt.Sprintf("%.1f°F", float64(t)*9/5+32) }`, "fmt.Println(t)"},
			stdout: "21.5°C\n70.7°F\n"},
		{name: "another signature", cells: []string{
			`func greet() string { return "hi" }`, "func caller() { fmt.Println(greet()) }",
			`func greet(name string) string { return "hi " + name }`, "caller()"},
			errName: "Panic", errText: "greet was declared again with another signature"},
		{name: "a type with a field more", cells: []string{
			"type kv struct{ k string; n int }", `a := kv{"a", 1}`,
			"type kv struct{ k string; n int; p float64 }", `fmt.Println(kv{"b", 2, 2.5}, a)`},
			stdout: "{b 2 2.5} {a 1}\n"},
		{name: "a type and its methods declared again together", cells: []string{
			"type kv struct{ k string }\nfunc (x kv) String() string { return \"kv \" + x.k }", `fmt.Println(kv{"a"})`,
			"type kv struct{ k string; n int }\nfunc (x kv) String() string { return fmt.Sprint(\"kv \", x.k, x.n) }", `fmt.Println(kv{"b", 2})`},
			stdout: "kv a\nkv b2\n"},
		{name: "a type without the methods another cell declared", cells: []string{
			"type kv struct{ k string }", "func (x kv) String() string { return x.k }", "type kv struct{ k string; n int }"},
			errName: "NotAllowed", errText: "declaring type kv again without its methods String"},
		{name: "code compiled for the old type", cells: []string{
			"type kv struct{ k string; n int }", "func key(x kv) string { return x.k }",
			"type kv struct{ k string; n int; p float64 }", `fmt.Println(key(kv{"b", 2, 2.5}))`},
			errName: "CompileError", errText: "declared before it was declared again"},
	})
}

// TestCompileErrorRunsNothing checks that a cell is compiled whole before
// any of it runs, as a Go program that does not compile runs nothing
// (issue 27; yaegi patch 54): nothing is printed and nothing it declares
// is left. A cell that fails while running keeps what ran before the
// failure and declares nothing after it.
func TestCompileErrorRunsNothing(t *testing.T) {
	s := newTestSession(t, nil)
	for _, step := range []struct {
		code             string
		stdout, errClass string
		errText          string
	}{
		{"fmt.Println(\"first\")\nz := 1\nvar q int = \"not an int\"", "", "CompileError", "cannot convert"},
		{"z", "", "CompileError", "undefined: z"},
		{"func helper() int { return 1 }\ntype Thing int\nfmt.Println(\"ran\")\nw := undefinedName", "", "CompileError", "undefined: undefinedName"},
		{"helper()", "", "CompileError", "undefined: helper"},
		{"Thing(1)", "", "CompileError", "undefined: Thing"},
		{"before := 1\nfmt.Println(\"before\")\npanic(\"boom\")\nfunc after() int { return 2 }", "before\n", "Panic", "boom"},
		{"fmt.Println(before)", "1\n", "", ""},
		{"after()", "", "CompileError", "undefined: after"},
		{`func greet() string { return "hi" }`, "", "", ""},
		{"func greet() string { return 1 }", "", "CompileError", "cannot use"},
		{"fmt.Println(greet())", "hi\n", "", ""},
	} {
		r := run(t, s, step.code)
		if r.Stdout != step.stdout {
			t.Errorf("%q: stdout %q, want %q", step.code, r.Stdout, step.stdout)
		}
		switch {
		case step.errClass == "" && !r.Success:
			t.Errorf("%q failed: %s: %s", step.code, r.ErrorName, r.ErrorMessage)
		case step.errClass != "" && (r.ErrorName != step.errClass || !strings.Contains(r.ErrorMessage, step.errText)):
			t.Errorf("%q: %s: %s; want %s containing %q", step.code, r.ErrorName, r.ErrorMessage, step.errClass, step.errText)
		}
	}
}
