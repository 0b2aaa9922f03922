// Command apidocgen writes the api_reference index of the MCP server: the
// documentation of the packages cells see (award_data and display), read
// with go/doc from their sources, with the runnable examples of their
// _test.go files attached to the names they illustrate.
//
// The pandas ↔ award_data table of docs/pandas.md (-pandas) is attached to
// the names its right-hand side calls, so that api_reference finds Join
// for "merge" and shows the idiom. Host-side hooks that cells cannot call
// (-hide) are left out.
//
// Usage (from mcpserver/, through go generate):
//
//	go run ./internal/apidocgen -o apidocs.json -pandas ../docs/pandas.md -hide award_data.Use,display.SetSink ../award_data ../display
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Package is one documented package; Entry is one exported name. The
// JSON shapes are read by package mcpserver (apidocs.go), which owns
// their meaning.
type Package struct {
	Name    string  `json:"name"`
	Doc     string  `json:"doc"`
	Entries []Entry `json:"entries"`
}

type Entry struct {
	Name      string    `json:"name"`               // "Where", "Frame", "Frame.Where"
	Kind      string    `json:"kind"`               // func, type, method, const, var
	Signature string    `json:"signature"`          // the declaration without body
	Doc       string    `json:"doc"`                // the doc comment, as text
	Examples  []Example `json:"examples,omitempty"` // from Example functions
	// Pandas are the rows of docs/pandas.md whose award_data side calls
	// the name ("pandas → award_data"); Aliases the pandas names in them
	// ("merge", "pct_change"), which api_reference matches.
	Pandas  []string `json:"pandas,omitempty"`
	Aliases []string `json:"aliases,omitempty"`
	// Words are plain words for the same thing (docs/pandas.md's "Other
	// words" table: "percent change" for pct_change's names).
	Words []string `json:"words,omitempty"`

	returns string // the type a func or method returns, for following chains
}

type Example struct {
	Name   string `json:"name"`
	Code   string `json:"code"`
	Output string `json:"output,omitempty"`
}

func main() {
	out := flag.String("o", "apidocs.json", "output file")
	pandas := flag.String("pandas", "", "docs/pandas.md, whose idioms are attached to the names they use")
	hide := flag.String("hide", "", "comma-separated package.Name entries to leave out (host-side hooks)")
	flag.Parse()
	hidden := map[string]bool{}
	for _, h := range strings.Split(*hide, ",") {
		hidden[strings.TrimSpace(h)] = true
	}
	var pkgs []Package
	for _, dir := range flag.Args() {
		p, err := load(dir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "apidocgen: %s: %v\n", dir, err)
			os.Exit(1)
		}
		kept := p.Entries[:0]
		for _, e := range p.Entries {
			if !hidden[p.Name+"."+e.Name] {
				kept = append(kept, e)
			}
		}
		p.Entries = kept
		pkgs = append(pkgs, p)
	}
	if *pandas != "" {
		if err := attachPandas(pkgs, *pandas); err != nil {
			fmt.Fprintf(os.Stderr, "apidocgen: %s: %v\n", *pandas, err)
			os.Exit(1)
		}
	}
	b, err := json.MarshalIndent(pkgs, "", " ")
	if err != nil {
		fmt.Fprintln(os.Stderr, "apidocgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "apidocgen:", err)
		os.Exit(1)
	}
}

func load(dir string) (Package, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		// Only the example tests: the rest of the tests are internal.
		if strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, "example") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		return Package{}, err
	}
	dp, err := doc.NewFromFiles(fset, files, "github.com/sbirtools/sbir-kernel/"+filepath.Base(dir))
	if err != nil {
		return Package{}, err
	}
	p := Package{Name: dp.Name, Doc: text(dp, dp.Doc)}
	add := func(name, kind string, decl ast.Node, docText string, exs []*doc.Example) {
		e := Entry{Name: name, Kind: kind, Signature: signature(fset, decl), Doc: text(dp, docText), returns: returns(decl)}
		for _, ex := range exs {
			e.Examples = append(e.Examples, example(fset, ex))
		}
		p.Entries = append(p.Entries, e)
	}
	for _, c := range dp.Consts {
		add(strings.Join(c.Names, ", "), "const", c.Decl, c.Doc, nil)
	}
	for _, v := range dp.Vars {
		add(strings.Join(v.Names, ", "), "var", v.Decl, v.Doc, nil)
	}
	for _, f := range dp.Funcs {
		add(f.Name, "func", f.Decl, f.Doc, f.Examples)
	}
	for _, t := range dp.Types {
		add(t.Name, "type", t.Decl, t.Doc, t.Examples)
		for _, c := range t.Consts {
			add(strings.Join(c.Names, ", "), "const", c.Decl, c.Doc, nil)
		}
		for _, f := range t.Funcs {
			add(f.Name, "func", f.Decl, f.Doc, f.Examples)
		}
		for _, m := range t.Methods {
			add(t.Name+"."+m.Name, "method", m.Decl, m.Doc, m.Examples)
		}
	}
	sort.SliceStable(p.Entries, func(i, j int) bool { return p.Entries[i].Name < p.Entries[j].Name })
	return p, nil
}

// text renders a doc comment as plain text (headings, lists and code
// blocks kept readable), the form a model reads best.
func text(dp *doc.Package, s string) string {
	return strings.TrimSpace(string(dp.Printer().Text(dp.Parser().Parse(s))))
}

// returns names the type a function declaration returns first, when it
// is a named type of the package ("Frame", "Grouped"), else "".
func returns(n ast.Node) string {
	d, ok := n.(*ast.FuncDecl)
	if !ok || d.Type.Results == nil || len(d.Type.Results.List) == 0 {
		return ""
	}
	if id, ok := d.Type.Results.List[0].Type.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// signature prints a declaration without its body or doc comment.
func signature(fset *token.FileSet, n ast.Node) string {
	switch d := n.(type) {
	case *ast.FuncDecl:
		c := *d
		c.Body, c.Doc = nil, nil
		n = &c
	case *ast.GenDecl:
		c := *d
		c.Doc = nil
		n = &c
	}
	var b bytes.Buffer
	if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&b, fset, n); err != nil {
		return ""
	}
	return b.String()
}

func example(fset *token.FileSet, ex *doc.Example) Example {
	var b bytes.Buffer
	var code string
	if ex.Play != nil {
		format.Node(&b, fset, ex.Play)
		code = b.String()
	} else {
		format.Node(&b, fset, ex.Code)
		code = strings.TrimSpace(b.String())
		code = strings.TrimSuffix(strings.TrimPrefix(code, "{"), "}")
		code = dedent(code)
	}
	name := "Example"
	if ex.Suffix != "" {
		name += "_" + ex.Suffix
	}
	return Example{Name: name, Code: code, Output: ex.Output}
}

// dedent removes one level of tab indentation from a block body.
func dedent(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "\n")
}
