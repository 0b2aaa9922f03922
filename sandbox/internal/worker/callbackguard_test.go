package worker_test

import "testing"

// TestCellsNeverHoldReflectValues: text/template reads fields by
// reflection and hands what it evaluates to a cell's FuncMap functions,
// so although the symbol table hides every type with a reflect field, a
// template run on a json error could give a cell the error's
// reflect.Type or reflect.Value. The interpreter now refuses such
// arguments (yaegi patch 18 with callbackGuard); the template reports
// the refusal as its error and the cell holds nothing. Values of allowed
// types still pass.
func TestCellsNeverHoldReflectValues(t *testing.T) {
	const setup = "var got []any\n" +
		"keep := func(xs ...any) string { got = append(got, xs...); return \"\" }\n" +
		"one := func(x any) string { got = append(got, x); return \"\" }\n" +
		"str := func(s fmt.Stringer) string { got = append(got, s); return \"\" }\n" +
		"run := func(src string, data any) {\n" +
		"\tt := template.Must(template.New(\"\").Funcs(template.FuncMap{\"keep\": keep, \"one\": one, \"str\": str}).Parse(src))\n" +
		"\tfmt.Println(t.Execute(io.Discard, data))\n" +
		"}\n" +
		"var n struct{ X int }\n" +
		"typeErr := json.Unmarshal([]byte(`{\"X\":\"s\"}`), &n)\n" +
		"_, valueErr := json.Marshal(math.Inf(1))\n"
	const refused = "cells cannot hold values of packages reflect or unsafe\n"
	held := "fmt.Println(len(got))\nfor _, g := range got { fmt.Printf(\"%T\\n\", g) }"
	runImportCases(t, []importCase{
		{name: "field of type reflect.Type", cells: []string{setup, "run(`{{one .Type}}`, typeErr)\n" + held},
			stdout: "template: :1:2: executing \"\" at <one .Type>: error calling one: compiled code handed the cell a value of type *reflect.rtype; " + refused + "0\n"},
		{name: "field of type reflect.Value", cells: []string{setup, "run(`{{one .Value}}`, valueErr)\n" + held},
			stdout: "template: :1:2: executing \"\" at <one .Value>: error calling one: compiled code handed the cell a value of type reflect.Value; " + refused + "0\n"},
		{name: "variadic argument", cells: []string{setup, "run(`{{keep 1 .Type}}`, typeErr)\n" + held},
			stdout: "template: :1:2: executing \"\" at <keep 1 .Type>: error calling keep: compiled code handed the cell a value of type *reflect.rtype; " + refused + "0\n"},
		{name: "as an interface of an allowed package", cells: []string{setup, "run(`{{str .Value}}`, valueErr)\n" + held},
			stdout: "template: :1:2: executing \"\" at <str .Value>: error calling str: compiled code handed the cell a value of type reflect.Value; " + refused + "0\n"},
		{name: "through the call builtin", cells: []string{setup, "run(`{{call .F .E.Type}}`, map[string]any{\"F\": one, \"E\": typeErr})\n" + held},
			stdout: "template: :1:2: executing \"\" at <call .F .E.Type>: error calling call: compiled code handed the cell a value of type *reflect.rtype; " + refused + "0\n"},
		{name: "unwrapped from a template error", cells: []string{setup, "err := template.Must(template.New(\"\").Parse(`{{.Value.Elem}}`)).Execute(io.Discard, valueErr)\n" +
			"func() {\n\tdefer func() { fmt.Println(recover()) }()\n" +
			"\tfor e := err; e != nil; e = errors.Unwrap(e) { fmt.Printf(\"%T\\n\", e) }\n}()"},
			stdout: "template.ExecError\n*fmt.wrapError\ncompiled code handed the cell a value of type *reflect.ValueError; " + refused},
		{name: "unwrapped through a function parameter", cells: []string{setup, "err := template.Must(template.New(\"\").Parse(`{{.Value.Elem}}`)).Execute(io.Discard, valueErr)\n" +
			"apply := func(f func(error) error, e error) error { return f(e) }\n" +
			"func() {\n\tdefer func() { fmt.Println(recover()) }()\n\tfmt.Printf(\"%T\\n\", apply(errors.Unwrap, apply(errors.Unwrap, err)))\n}()"},
			stdout: "compiled code handed the cell a value of type *reflect.ValueError; " + refused},
		{name: "recovered panic value", cells: []string{"func try(f func()) {\n\tdefer func() { r := recover(); s, ok := r.(string); fmt.Printf(\"%T %v %q %v\\n\", r, r, s, ok) }()\n\tf()\n}",
			"try(func() { panic(\"boom\") })\ntry(func() { panic(1) })\n" +
				"try(func() { slices.SortFunc([]int{2, 1}, func(a, b int) int { panic(\"in a callback\") }) })"},
			stdout: "string boom \"boom\" true\nint 1 \"\" false\nstring in a callback \"in a callback\" true\n"},
		{name: "recovered compiled panic", cells: []string{"type H []int\nfunc (h H) Len() int { return len(h) }\nfunc (h H) Less(i, j int) bool { return false }\nfunc (h H) Swap(i, j int) {}\nfunc (h *H) Push(x any) {}\nfunc (h *H) Pop() any { return 0 }",
			"func() {\n\tdefer func() { fmt.Println(recover()) }()\n\tfunc() {\n\t\tdefer func() { r := recover(); fmt.Printf(\"%T\\n\", r) }()\n\t\tvar h *H\n\t\theap.Init(h)\n\t}()\n}()"},
			stdout: "compiled code handed the cell a value of type *reflect.ValueError; " + refused},
		// The interpreter's struct types are unnamed and may refer to
		// themselves: the check once recursed until the stack overflowed.
		{name: "a cell type that refers to itself", cells: []string{
			"type Node struct {\n\tV    int\n\tNext *Node\n\tKids []*Node\n\tF    func(*Node) *Node\n}",
			"var m sync.Map\nm.Store(\"a\", &Node{V: 1, Next: &Node{V: 2}})\nm.Range(func(k, v any) bool { fmt.Println(k, v.(*Node).Next.V); return true })"},
			stdout: "a 2\n"},
		{name: "allowed values pass", cells: []string{setup, "run(`{{keep . .Offset \"s\"}}{{one .Field}}`, typeErr)\n" + held},
			stdout: "<nil>\n4\n*json.UnmarshalTypeError\nint64\nstring\nstring\n"},
	})
}
