package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// attachPandas reads the tables of docs/pandas.md. Each row of the
// pandas ↔ award_data table is attached to the award_data names its
// right-hand side calls, following method chains by the types the calls
// return: the row of df.groupby(...)[...].sum() goes to Frame.GroupBy and
// Grouped.Sum; the pandas names of its left-hand side become the entries'
// aliases. Each row of the "Other words" table (words | pandas names)
// gives its words to every entry with one of those aliases.
func attachPandas(pkgs []Package, path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var ad *Package
	for i := range pkgs {
		if pkgs[i].Name == "award_data" {
			ad = &pkgs[i]
		}
	}
	if ad == nil {
		return fmt.Errorf("no award_data package to attach the table to")
	}
	byName := map[string]*Entry{}
	for i := range ad.Entries {
		byName[ad.Entries[i].Name] = &ad.Entries[i]
	}
	type row struct {
		line  int
		cells []string
	}
	var idioms, words []row
	inWords := false
	for n, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "## ") {
			inWords = strings.HasPrefix(line, "## Other words")
		}
		if cells := splitRow(line); len(cells) == 2 {
			if inWords {
				words = append(words, row{n + 1, cells})
			} else {
				idioms = append(idioms, row{n + 1, cells})
			}
		}
	}
	attached := 0
	for _, r := range idioms {
		ok, err := attachIdiom(r.cells, byName)
		if err != nil {
			return fmt.Errorf("line %d: %w", r.line, err)
		}
		if ok {
			attached++
		}
	}
	if attached == 0 {
		return fmt.Errorf("no table rows found")
	}
	for _, r := range words {
		if err := attachWords(r.cells, ad.Entries); err != nil {
			return fmt.Errorf("line %d: %w", r.line, err)
		}
	}
	return nil
}

// attachIdiom attaches one row of the pandas ↔ award_data table; ok is
// false for a row without code on both sides (the header).
func attachIdiom(cells []string, byName map[string]*Entry) (ok bool, err error) {
	pandas, ours := codeSpans(cells[0]), codeSpans(cells[1])
	if len(pandas) == 0 || len(ours) == 0 {
		return false, nil
	}
	names := map[string]bool{}
	for _, code := range ours {
		for _, name := range calledNames(code, byName) {
			names[name] = true
		}
	}
	if len(names) == 0 {
		return false, fmt.Errorf("%q calls no documented award_data name", cells[1])
	}
	idiom := strings.Join(pandas, " / ") + " → " + strings.Join(ours, " / ")
	aliases := pandasNames(strings.Join(pandas, " "))
	for name := range names {
		e := byName[name]
		e.Pandas = append(e.Pandas, idiom)
		e.Aliases = mergeSorted(e.Aliases, aliases)
	}
	return true, nil
}

// attachWords gives the words of one row of the "Other words" table to
// the entries that have one of its pandas names as an alias. A row whose
// names no entry has is an error: its words would find nothing.
func attachWords(cells []string, entries []Entry) error {
	names := codeSpans(cells[1])
	if len(names) == 0 {
		return nil // the header
	}
	var words []string
	for _, w := range strings.Split(cells[0], ",") {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			words = append(words, w)
		}
	}
	// An idiom's chain names every call in it (GroupBy, Sum, PctChange),
	// so a word would find the set-up calls as well as the one the word
	// means. Where an entry is the pandas name itself (pct_change is
	// PctChange), the words go to those entries alone.
	holders := func(exact bool) bool {
		reached := false
		for i := range entries {
			for _, n := range names {
				if slices.Contains(entries[i].Aliases, n) && (!exact || sameName(entries[i].Name, n)) {
					entries[i].Words = mergeSorted(entries[i].Words, words)
					reached = true
					break
				}
			}
		}
		return reached
	}
	reached := holders(true) || holders(false)
	if !reached {
		return fmt.Errorf("no pandas idiom of the table uses %s: add the idiom first", strings.Join(names, " or "))
	}
	return nil
}

// sameName reports whether the method of an entry's name (Frame.PctChange)
// is the pandas name (pct_change) written in Go's style.
func sameName(entry, pandas string) bool {
	_, method, found := strings.Cut(entry, ".")
	if !found {
		method = entry
	}
	return strings.EqualFold(method, strings.ReplaceAll(pandas, "_", ""))
}

// splitRow splits a Markdown table row into its cells, ignoring "|"
// inside code spans; a row that is not a table row gives nil.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || strings.HasPrefix(line, "|---") {
		return nil
	}
	var cells []string
	inCode, start := false, 1
	for i := 1; i < len(line); i++ {
		switch line[i] {
		case '`':
			inCode = !inCode
		case '|':
			if !inCode {
				cells = append(cells, strings.TrimSpace(line[start:i]))
				start = i + 1
			}
		}
	}
	return cells
}

// spanRE finds code spans: “x“ (which may hold a backtick) or `x`.
var spanRE = regexp.MustCompile("``\\s?(.+?)\\s?``|`([^`]+)`")

func codeSpans(cell string) []string {
	var out []string
	for _, m := range spanRE.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

// pandasNameRE finds the pandas names of an idiom: lower-case identifiers
// after a dot (df.merge, .pct_change, pd.cut); capitalised ones after a
// dot are column names (df.Agency).
var pandasNameRE = regexp.MustCompile(`\.([a-z_][a-z0-9_]*)`)

// stringRE finds string literals, whose dots ("out.csv") name nothing.
var stringRE = regexp.MustCompile(`"[^"]*"|'[^']*'`)

func pandasNames(code string) []string {
	code = stringRE.ReplaceAllString(code, `""`)
	seen := map[string]bool{}
	var out []string
	for _, m := range pandasNameRE.FindAllStringSubmatch(code, -1) {
		if n := m[1]; n != "str" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// narrowing are the calls that only pick the rows or columns a row of
// the table works on (f.Head(3).ToCSV()): they take the row when they
// end the chain, not otherwise.
var narrowing = map[string]bool{"Frame.Head": true, "Frame.Tail": true, "Frame.Select": true}

// calledNames returns the documented award_data names that code (Go
// statements or an expression) calls along its method chains: a
// package function (award_data.Concat), then each method by the type the
// previous call returns. Variables are taken to be frames. The calls in
// arguments are not followed: they are not what the row is about.
func calledNames(code string, byName map[string]*Entry) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+code+"\n}", 0)
	if err != nil {
		return nil
	}
	var out []string
	var typeOf func(e ast.Expr) string
	typeOf = func(e ast.Expr) string {
		switch x := e.(type) {
		case *ast.Ident:
			return "Frame"
		case *ast.ParenExpr:
			return typeOf(x.X)
		case *ast.CallExpr:
			sel, ok := x.Fun.(*ast.SelectorExpr)
			if !ok {
				return ""
			}
			name := sel.Sel.Name
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "award_data" {
				name = typeOf(sel.X) + "." + name
			}
			e := byName[name]
			if e == nil {
				return ""
			}
			out = append(out, name)
			return e.returns
		}
		return ""
	}
	var names []string
	chain := func(e ast.Expr) {
		out = out[:0]
		typeOf(e)
		for i, n := range out {
			if i == len(out)-1 || !narrowing[n] {
				names = append(names, n)
			}
		}
	}
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		switch s := st.(type) {
		case *ast.ExprStmt:
			chain(s.X)
		case *ast.AssignStmt:
			for _, r := range s.Rhs {
				chain(r)
			}
		}
	}
	return names
}
