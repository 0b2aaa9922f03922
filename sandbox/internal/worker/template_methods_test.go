package worker_test

import "testing"

// TestTemplateMethodRefused pins yaegi patch 76 through a worker: a
// template calling a method of a cell's type, which the compiled template
// package cannot see, ends the cell with a NotAllowed error naming the
// method and the FuncMap rewrite, even when the cell ignores Execute's
// error (gc would have printed the method's result); the session goes on.
func TestTemplateMethodRefused(t *testing.T) {
	const decls = "type Invoice struct{ Qty int; Price float64 }\n" +
		"func (inv Invoice) Total() float64 { return float64(inv.Qty) * inv.Price }\n" +
		"func (inv *Invoice) Grow(n int) int { inv.Qty += n; return inv.Qty }"
	const why = ": a template cannot call the methods of a type declared in a cell"
	runImportCases(t, []importCase{
		{name: "value receiver, error ignored",
			cells:   []string{decls, "t := template.Must(template.New(\"t\").Parse(\"total {{.Total}}\\n\"))\nt.Execute(os.Stdout, Invoice{2, 1.5})\nfmt.Println(\"after\")"},
			stdout:  "total ",
			errName: "NotAllowed", errMsg: `executing "t" at <.Total>: cannot call method Total of main.Invoice` + why},
		{name: "pointer receiver, in a function",
			cells:   []string{decls, "func render(inv *Invoice) error {\n\treturn template.Must(template.New(\"g\").Parse(\"{{.Grow 2}}\")).Execute(os.Stdout, inv)\n}\nfmt.Println(render(&Invoice{1, 1}))"},
			errName: "NotAllowed", errMsg: `template.FuncMap{"grow": (*Invoice).Grow}`},
		{name: "html/template, data in a map",
			cells:   []string{decls, "import htmltemplate \"html/template\"\nh := htmltemplate.Must(htmltemplate.New(\"h\").Parse(\"<b>{{.inv.Total}}</b>\"))\nh.Execute(os.Stdout, map[string]any{\"inv\": Invoice{1, 2}})"},
			stdout:  "<b>",
			errName: "NotAllowed", errMsg: "cannot call method Total of main.Invoice"},
		{name: "the session goes on, and the rewrite runs",
			cells: []string{decls, "template.Must(template.New(\"t\").Parse(\"{{.Total}}\")).Execute(os.Stdout, Invoice{})",
				"t := template.Must(template.New(\"t\").Funcs(template.FuncMap{\"total\": Invoice.Total}).Parse(\"{{total .}}\\n\"))\nt.Execute(os.Stdout, Invoice{2, 1.5})"},
			mayFail: true,
			stdout:  "3\n"},
	})
}
