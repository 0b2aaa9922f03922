package interp_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirTemplateMethodRefused checks sbir patch 76: a template that
// calls a method of the script's type (which compiled text/template and
// html/template cannot see) panics with an *interp.Unsupported naming
// the method and the FuncMap rewrite, instead of failing with "can't
// evaluate field Total in type struct { ... }" or, when the program
// ignores Execute's error, printing part of its output as if it worked.
func TestSbirTemplateMethodRefused(t *testing.T) {
	decls := `import (
	htmltemplate "html/template"
	"strings"
	"text/template"
)

type Line struct {
	Item  string
	Qty   int
	Price float64
}

func (l Line) Cost() float64 { return float64(l.Qty) * l.Price }

type Invoice struct {
	Customer string
	Lines    []Line
}

func (inv Invoice) Total() float64 {
	t := 0.0
	for _, l := range inv.Lines {
		t += l.Cost()
	}
	return t
}

func (inv *Invoice) Add(item string, qty int) string {
	inv.Lines = append(inv.Lines, Line{item, qty, 1})
	return item
}

var inv = Invoice{Customer: "acme", Lines: []Line{{"bolts", 10, 0.25}}}
var out strings.Builder
`
	for _, tc := range []struct {
		name, src, want string
	}{
		{"value method", `template.Must(template.New("t").Parse("{{.Total}}")).Execute(&out, inv)`,
			`template: t:1:2: executing "t" at <.Total>: cannot call method Total of main.Invoice: ` +
				`a template cannot call the methods of a type declared in a cell (the compiled template package sees only its fields). ` +
				`Pass the method as a function instead: .Funcs(template.FuncMap{"total": Invoice.Total}) before Parse, and {{total .}} in the template; ` +
				`or compute the value in the cell and pass it in a field or a map`},
		{"pointer method with arguments", `template.Must(template.New("t").Parse("{{.Add \"nuts\" 2}}")).Execute(&out, &inv)`,
			`cannot call method Add of main.Invoice: `},
		{"method of an element", `template.Must(template.New("t").Parse("{{range .Lines}}{{.Cost}}{{end}}")).Execute(&out, inv)`,
			`.Funcs(template.FuncMap{"cost": Line.Cost})`},
		{"error ignored", `template.Must(template.New("t").Parse("{{.Customer}} {{.Total}}")).Execute(&out, inv); out.WriteString("never")`,
			`cannot call method Total of main.Invoice`},
		{"html/template", `htmltemplate.Must(htmltemplate.New("h").Parse("<b>{{.Total}}</b>")).Execute(&out, inv)`,
			`at <.Total>: cannot call method Total of main.Invoice`},
		{"ExecuteTemplate, data in a map", `template.Must(template.New("t").Parse("{{define \"x\"}}{{.inv.Total}}{{end}}")).ExecuteTemplate(&out, "x", map[string]any{"inv": inv})`,
			`cannot call method Total of main.Invoice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := interp.New(interp.Options{})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(decls); err != nil {
				t.Fatal(err)
			}
			_, err := i.Eval(tc.src)
			var p interp.Panic
			if !errors.As(err, &p) {
				t.Fatalf("Eval: %v, want a panic", err)
			}
			u, ok := p.Value.(*interp.Unsupported)
			if !ok {
				t.Fatalf("panic value %T %v, want *interp.Unsupported", p.Value, p.Value)
			}
			if !strings.Contains(u.Msg, tc.want) {
				t.Errorf("panic %q\nwant it to contain %q", u.Msg, tc.want)
			}
			if v, _ := i.Eval(`out.String()`); strings.Contains(v.String(), "never") {
				t.Errorf("the cell ran on after the refusal: %q", v.String())
			}
		})
	}
}

// TestSbirTemplateMethodRewrite checks that the rewrite the refusal of
// patch 76 suggests runs as gc does.
func TestSbirTemplateMethodRewrite(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `import (
	"fmt"
	"strings"
	"text/template"
)

type Invoice struct{ Qty int; Price float64 }

func (inv Invoice) Total() float64 { return float64(inv.Qty) * inv.Price }

func (inv *Invoice) Grow(n int) int { inv.Qty += n; return inv.Qty }

func main() {
	var b strings.Builder
	t := template.Must(template.New("t").Funcs(template.FuncMap{"total": Invoice.Total, "grow": (*Invoice).Grow}).Parse("{{printf \"%.2f\" (total .)}}"))
	err := t.Execute(&b, Invoice{3, 1.5})
	fmt.Println(b.String(), err)
	inv := &Invoice{1, 2}
	b.Reset()
	err = template.Must(t.New("g").Parse("{{grow . 2}} {{grow . 3}}")).Execute(&b, inv)
	fmt.Println(b.String(), err, inv.Qty)
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	if want := "4.50 <nil>\n3 6 <nil> 6\n"; out.String() != want { // go run's output
		t.Errorf("output %q, want %q", out.String(), want)
	}
}
