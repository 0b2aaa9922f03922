package sandbox_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
	"testing"
)

// programParts is a whole Go program cut where a notebook user cuts it:
// its imports, its other declarations, its functions, and the body of
// func main. The forms derived from it are what the gorun tests run
// besides the program itself (see gorun_test.go).
type programParts struct {
	imports []string // import declarations, with their comments
	decls   []string // type, const and var declarations
	funcs   []string // functions and methods other than main
	main    string   // func main, whole
	body    string   // the statements of main's body, one tab less indented
	// returns is set when main's body has a return statement of its own
	// (not one of a function literal's).
	returns bool
}

// splitProgram cuts a program (package clause, imports, declarations,
// func main) into its parts. Each declaration keeps the text before it
// back to the previous one (its doc comment, blank lines), so the parts
// joined in order are the program without its package clause.
func splitProgram(src string) (*programParts, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "prog.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }
	pp := &programParts{}
	prev := off(f.Name.End())
	var mainDecl *ast.FuncDecl
	for _, d := range f.Decls {
		text := strings.TrimLeft(src[prev:off(d.End())], "\n")
		prev = off(d.End())
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				pp.imports = append(pp.imports, text)
			} else {
				pp.decls = append(pp.decls, text)
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "main" {
				mainDecl, pp.main = d, text
				continue
			}
			pp.funcs = append(pp.funcs, text)
		}
	}
	if mainDecl == nil || mainDecl.Body == nil {
		return nil, fmt.Errorf("prog.go: no func main")
	}
	body := mainDecl.Body
	pp.body = dedent(src, off(body.Lbrace)+1, off(body.Rbrace))
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			pp.returns = true
		}
		return !pp.returns
	})
	return pp, nil
}

// dedent returns src[start:end] without its first and last blank lines
// and with one leading tab removed from each line, except the lines that
// continue a raw string literal, whose text is the program's data.
func dedent(src string, start, end int) string {
	inRaw := rawStringLines(src)
	var b strings.Builder
	lineStart := start
	for lineStart < end {
		lineEnd := strings.IndexByte(src[lineStart:end], '\n')
		if lineEnd < 0 {
			lineEnd = end
		} else {
			lineEnd += lineStart + 1
		}
		line := src[lineStart:lineEnd]
		if !inRaw(lineStart) {
			line = strings.TrimPrefix(line, "\t")
		}
		b.WriteString(line)
		lineStart = lineEnd
	}
	s := strings.TrimLeft(b.String(), " \t\r")
	s = strings.TrimPrefix(s, "\n")
	s = strings.TrimRight(s, " \t")
	if !strings.HasSuffix(s, "\n") && s != "" {
		s += "\n"
	}
	return s
}

// rawStringLines returns a function reporting whether the byte at an
// offset lies inside a raw string literal (after its opening quote).
func rawStringLines(src string) func(off int) bool {
	fset := token.NewFileSet()
	tf := fset.AddFile("prog.go", -1, len(src))
	var s scanner.Scanner
	s.Init(tf, []byte(src), nil, 0)
	var spans [][2]int
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.STRING && strings.HasPrefix(lit, "`") {
			o := tf.Offset(pos)
			spans = append(spans, [2]int{o + 1, o + len(lit)})
		}
	}
	return func(off int) bool {
		for _, sp := range spans {
			if off >= sp[0] && off < sp[1] {
				return true
			}
		}
		return false
	}
}

// topLevel is the program as one cell with main's body pasted at its top
// level, the way notebook users write: imports, declarations and functions
// first, then the statements.
func (pp *programParts) topLevel() string {
	var b strings.Builder
	for _, parts := range [][]string{pp.imports, pp.decls, pp.funcs} {
		for _, p := range parts {
			b.WriteString(p)
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	b.WriteString(pp.body)
	return b.String()
}

// cells splits the program the way a person pastes it into a notebook:
// imports with the type, const and var declarations in the first cell
// (imports go with the functions when there are no such declarations),
// the functions and methods in the next, and the body of main as
// top-level statements last; when main returns early it stays a function
// in the last cell, which runs it as go run does.
func (pp *programParts) cells() []string {
	join := func(parts ...[]string) string {
		var b strings.Builder
		for _, ps := range parts {
			for _, p := range ps {
				b.WriteString(p)
				b.WriteString("\n")
			}
		}
		return b.String()
	}
	var cells []string
	if len(pp.decls) > 0 {
		cells = append(cells, join(pp.imports, pp.decls))
		if len(pp.funcs) > 0 {
			cells = append(cells, join(pp.funcs))
		}
	} else if len(pp.imports)+len(pp.funcs) > 0 {
		cells = append(cells, join(pp.imports, pp.funcs))
	}
	last := pp.body
	if pp.returns {
		last = pp.main + "\n"
	}
	return append(cells, last)
}

func TestSplitProgram(t *testing.T) {
	src := "package main\n\nimport \"fmt\"\n\n// T is a thing.\ntype T int\n\nfunc (t T) S() string { return fmt.Sprint(int(t)) }\n\n" +
		"func main() {\n\tx := T(1)\n\ts := `a\n\tb`\n\tif x > 0 {\n\t\tfmt.Println(x.S(), s)\n\t}\n}\n"
	pp, err := splitProgram(src)
	if err != nil {
		t.Fatal(err)
	}
	wantTop := "import \"fmt\"\n// T is a thing.\ntype T int\nfunc (t T) S() string { return fmt.Sprint(int(t)) }\n\n" +
		"x := T(1)\ns := `a\n\tb`\nif x > 0 {\n\tfmt.Println(x.S(), s)\n}\n"
	if got := pp.topLevel(); got != wantTop {
		t.Errorf("topLevel:\n%s\nwant:\n%s", got, wantTop)
	}
	cells := pp.cells()
	if len(cells) != 3 || cells[0] != "import \"fmt\"\n// T is a thing.\ntype T int\n" || !strings.HasPrefix(cells[2], "x := T(1)") {
		t.Errorf("cells: %q", cells)
	}
	if pp.returns {
		t.Error("returns set for a main without return")
	}
	pp, err = splitProgram("package main\n\nfunc main() {\n\tf := func() int { return 1 }\n\tif f() > 0 {\n\t\treturn\n\t}\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if !pp.returns {
		t.Error("returns not set for a main that returns early")
	}
	if c := pp.cells(); len(c) != 1 || !strings.HasPrefix(c[0], "func main()") {
		t.Errorf("cells of a main that returns early: %q", c)
	}
	if _, err := splitProgram("package main\n\nfunc f() {}\n"); err == nil {
		t.Error("a program without main split without error")
	}
}
