package main

import (
	"fmt"
	htmltemplate "html/template"
	"strings"
	"text/template"
)

type Addr struct {
	City string
}

type Line struct {
	Item string
	Qty  int
}

type Invoice struct {
	Customer string
	Lines    []Line
	Ship     *Addr
	secret   string
}

var out strings.Builder

func show(err error) {
	fmt.Printf("%q\n%v\n", out.String(), err)
	out.Reset()
}

func run(src string, data any) {
	t := template.Must(template.New("t").Parse(src))
	show(t.Execute(&out, data))
}

func main() {
	inv := Invoice{Customer: "acme", Lines: []Line{{"bolts", 2}}, secret: "s"}
	t := template.Must(template.New("missing").Parse("{{.Customer}} {{.Nope}}"))
	show(t.Execute(&out, inv))
	t = template.Must(template.New("unexported").Parse("{{.secret}}"))
	show(t.Execute(&out, inv))
	t = template.Must(template.New("nested").Parse("{{range .Lines}}{{.Item}} {{.Price}}{{end}}"))
	show(t.Execute(&out, inv))
	t = template.Must(template.New("ptr").Parse("{{.Nope}}"))
	show(t.Execute(&out, &inv))
	t = template.Must(template.New("nilptr").Parse("{{.Ship.City}}"))
	show(t.Execute(&out, inv))
	run("{{.inv.Lines}} {{.inv.Total}}", map[string]any{"inv": inv})
	h := htmltemplate.Must(htmltemplate.New("h").Parse("<p>{{.Customer}}</p>{{.Nope}}"))
	show(h.Execute(&out, inv))
	t = template.Must(template.New("tmpl").Parse(`{{define "x"}}{{.Qty}} {{.Zip}}{{end}}{{template "x" index .Lines 0}}`))
	show(t.ExecuteTemplate(&out, "tmpl", inv))
}

// Output:
// "acme "
// template: missing:1:16: executing "missing" at <.Nope>: can't evaluate field Nope in type main.Invoice
// ""
// template: unexported:1:2: executing "unexported" at <.secret>: secret is an unexported field of struct type main.Invoice
// "bolts "
// template: nested:1:28: executing "nested" at <.Price>: can't evaluate field Price in type main.Line
// ""
// template: ptr:1:2: executing "ptr" at <.Nope>: can't evaluate field Nope in type *main.Invoice
// ""
// template: nilptr:1:7: executing "nilptr" at <.Ship.City>: nil pointer evaluating *main.Addr.City
// "[{bolts 2}] "
// template: t:1:21: executing "t" at <.inv.Total>: can't evaluate field Total in type interface {}
// "<p>acme</p>"
// template: h:1:22: executing "h" at <.Nope>: can't evaluate field Nope in type main.Invoice
// "2 "
// template: tmpl:1:25: executing "x" at <.Zip>: can't evaluate field Zip in type main.Line
