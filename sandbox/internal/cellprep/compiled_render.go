package cellprep

import (
	"fmt"
	"go/ast"
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
	expr := textOf(r.p.code, ps.start, ps.end, ps.renames)
	capture := "\t" + RuntimeName + ".Show(" + directive(CellFile, vline, vcol) + expr + ",\n\t)\n"
	src = head.String() + body.String() + capture + tail.String()
	if !ps.direct {
		noValue = head.String() + body.String() + directive(CellFile, vline, vcol) + expr + "\n" + tail.String()
	}
	return src, noValue, vline, vcol
}

// directive is a line directive: what follows it is at line:col of file.
func directive(file string, line, col int) string {
	return fmt.Sprintf("/*line %s:%d:%d*/", file, line, col)
}

func (r *resolution) writeImports(b *strings.Builder) {
	b.WriteString("package main\n\nimport (\n")
	fmt.Fprintf(b, "\t%s %q\n", RuntimeName, RuntimePath)
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
		b.WriteString(directive(EarlierPrefix+strings.ReplaceAll(entryName(e), ", ", ","), e.line, e.col))
		b.WriteString(e.text)
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
			b.WriteString(textOf(r.p.code, s, e, ps.renames))
			b.WriteString("\n\n")
		}
	}
}

// writeSegment writes a statement segment as part of main's body.
func (r *resolution) writeSegment(b *strings.Builder, ps *parsedSeg) {
	line, col := r.p.lt.pos(ps.start)
	b.WriteString(directive(CellFile, line, col))
	b.WriteString(textOf(r.p.code, ps.start, ps.end, ps.renames))
	b.WriteString("\n")
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
