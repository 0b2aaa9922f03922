package cellprep

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"sort"
	"strings"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
)

// render writes the program: src captures the last expression's value,
// noValue (when not "") is the same without the capture; vline and vcol
// locate the expression.
func (r *resolution) render() (src, noValue string, vline, vcol int) {
	var head strings.Builder
	r.writeImports(&head)
	r.writeCarried(&head)
	r.writeCellDecls(&head)
	head.WriteString(directive(GeneratedFile, 1, 1) + "func main() {\n\tdefer " + RuntimeName + ".Finish()\n")

	var body strings.Builder
	last := -1
	if n := len(r.p.parsed); n > 0 && r.p.parsed[n-1].expr && !r.p.parsed[n-1].quiet {
		last = n - 1
	}
	for i := range r.p.parsed {
		ps := &r.p.parsed[i]
		if ps.decl || i == last {
			continue
		}
		r.writeSegment(&body, ps)
	}
	var tail strings.Builder
	tail.WriteString(directive(GeneratedFile, 2, 1))
	for _, n := range uniqueSorted(cellVars(r.p)) {
		tail.WriteString("\t_ = " + n + "\n")
	}
	if r.p.hasMain && !r.p.callsMain {
		tail.WriteString("\t" + mainName + "()\n")
	}
	tail.WriteString("}\n")

	if last < 0 {
		return head.String() + body.String() + tail.String(), "", 0, 0
	}
	ps := &r.p.parsed[last]
	vline, vcol = r.p.lt.pos(ps.start)
	expr := guardGo(textOf(r.p.code, ps.start, ps.end, ps.renames), CellFile, vline, vcol)
	capture := "\t" + RuntimeName + ".Show(" + directive(CellFile, vline, vcol) + expr + ",\n\t)\n"
	src = head.String() + body.String() + capture + tail.String()
	if !ps.direct {
		noValue = head.String() + body.String() + directive(CellFile, vline, vcol) + expr + "\n" + tail.String()
	}
	return src, noValue, vline, vcol
}

// isStd reports whether path is a package of the standard library, which
// never imports display: its first element has no dot (the go command's
// rule).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// directive is a line directive: what follows it is at line:col of file.
func directive(file string, line, col int) string {
	return fmt.Sprintf("/*line %s:%d:%d*/", file, line, col)
}

func (r *resolution) writeImports(b *strings.Builder) {
	b.WriteString("package main\n\nimport (\n")
	fmt.Fprintf(b, "\t%s %q\n", RuntimeName, RuntimePath)
	displays := false
	for _, is := range r.own {
		r.usesData = r.usesData || allowlist.RealPath(is.path) == DataPath
		displays = displays || !isStd(allowlist.RealPath(is.path))
	}
	for _, p := range r.imports {
		r.usesData = r.usesData || allowlist.RealPath(p) == DataPath
		displays = displays || !isStd(allowlist.RealPath(p))
	}
	if r.usesData {
		fmt.Fprintf(b, "\t_ %q\n", DataRuntimePath)
	}
	if displays {
		fmt.Fprintf(b, "\t_ %q\n", DisplayRuntimePath)
	}
	for _, is := range r.own {
		line, col := r.p.lt.pos(is.off)
		name, real := is.name, allowlist.RealPath(is.path)
		if name == "" && real != is.path {
			name = packageName(is.path) // award_data, under its module path
		}
		fmt.Fprintf(b, "\t%s%s %q\n", directive(CellFile, line, col), name, real)
	}
	names := make([]string, 0, len(r.imports))
	for n := range r.imports {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(b, "\t%s %q\n", n, allowlist.RealPath(r.imports[n]))
	}
	b.WriteString(")\n\n")
}

// writeCarried writes the declarations of earlier cells the cell uses, in
// the order the session declared them.
func (r *resolution) writeCarried(b *strings.Builder) {
	entries := make([]*declEntry, 0, len(r.carried))
	for e := range r.carried {
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].seq < entries[j].seq })
	for _, e := range entries {
		file := EarlierPrefix + strings.ReplaceAll(entryName(e), ", ", ",")
		b.WriteString(directive(file, e.line, e.col))
		b.WriteString(guardGo(e.text, file, e.line, e.col))
		b.WriteString("\n\n")
	}
}

// writeCellDecls writes the cell's declarations (imports aside) at the
// package level.
func (r *resolution) writeCellDecls(b *strings.Builder) {
	for i := range r.p.parsed {
		ps := &r.p.parsed[i]
		if !ps.decl {
			continue
		}
		for _, d := range ps.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok.String() == "import" {
				continue
			}
			s, e := ps.offset(d.Pos()), ps.offset(d.End())
			line, col := r.p.lt.pos(s)
			b.WriteString(directive(CellFile, line, col))
			b.WriteString(guardGo(textOf(r.p.code, s, e, ps.renames), CellFile, line, col))
			b.WriteString("\n\n")
		}
	}
}

// writeSegment writes a statement segment as part of main's body.
func (r *resolution) writeSegment(b *strings.Builder, ps *parsedSeg) {
	line, col := r.p.lt.pos(ps.start)
	b.WriteString(directive(CellFile, line, col))
	b.WriteString(guardGo(textOf(r.p.code, ps.start, ps.end, ps.renames), CellFile, line, col))
	b.WriteString("\n")
}

// guardGo puts a call of the runtime's Go before every go statement of
// text, which starts at line:col of file, so that a compiled cell has the
// interpreter's goroutine limit; a line directive after each call keeps
// the statement at its own position.
func guardGo(text, file string, line, col int) string {
	if !strings.Contains(text, "go") {
		return text
	}
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(text))
	var s scanner.Scanner
	s.Init(tf, []byte(text), func(token.Position, string) {}, 0)
	var b strings.Builder
	last := 0
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.GO {
			continue
		}
		off := tf.Offset(pos)
		p := tf.Position(pos)
		l, c := line+p.Line-1, p.Column
		if p.Line == 1 {
			c += col - 1
		}
		b.WriteString(text[last:off])
		b.WriteString(RuntimeName + ".Go(); " + directive(file, l, c))
		last = off
	}
	b.WriteString(text[last:])
	return b.String()
}

func uniqueSorted(names []string) []string {
	sort.Strings(names)
	out := names[:0]
	for i, n := range names {
		if i == 0 || n != names[i-1] {
			out = append(out, n)
		}
	}
	return out
}
