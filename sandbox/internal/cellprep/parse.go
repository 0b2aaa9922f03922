package cellprep

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// parseAll parses the cell's segments. A cell alternating declarations
// and statements has thousands of segments, and a parse per segment costs
// far more than the parsing itself, so the statements are parsed together
// in one wrapper function and the declarations together in one file, each
// from a copy of the cell with the other kind blanked out (newlines kept,
// so positions stay cell offsets), and the trees are handed back to their
// segments by position. If either combined parse fails, or a node does not
// fall inside one segment, each segment is parsed alone, which is also
// what names a syntax error's segment exactly.
func parseAll(fset *token.FileSet, code string, segs []segment, lt *lineTable, combined bool) ([]parsedSeg, error) {
	if combined {
		if parsed, ok := parseCombined(fset, code, segs); ok {
			return parsed, nil
		}
	}
	parsed := make([]parsedSeg, 0, len(segs))
	for _, s := range segs {
		ps, err := parseSegment(fset, code, s, lt)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, ps)
	}
	return parsed, nil
}

func parseCombined(fset *token.FileSet, code string, segs []segment) ([]parsedSeg, bool) {
	parsed := make([]parsedSeg, len(segs))
	for i, s := range segs {
		parsed[i].segment = s
	}
	for _, decl := range []bool{true, false} {
		var idx []int // of segs, of this kind, in order
		for i, s := range segs {
			if s.decl == decl {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		prefix, suffix := declPrefix, "\n"
		if !decl {
			prefix, suffix = stmtPrefix, "\n}"
		}
		src := prefix + blankOthers(code, segs, idx) + suffix
		f, err := parser.ParseFile(fset, "cell", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, false
		}
		tf := fset.File(f.Pos())
		base := tf.Base() + len(prefix) // the Pos of cell offset 0
		owner := func(n ast.Node, next *int) (int, bool) {
			s, e := int(n.Pos())-base, int(n.End())-base
			for *next < len(idx) && segs[idx[*next]].end <= s {
				*next++
			}
			if *next == len(idx) {
				return 0, false
			}
			seg := segs[idx[*next]]
			return idx[*next], s >= seg.start && e <= seg.end
		}
		next := 0
		if decl {
			for _, d := range f.Decls {
				i, ok := owner(d, &next)
				if !ok {
					return nil, false
				}
				ps := &parsed[i]
				if ps.file == nil {
					ps.file = &ast.File{Package: f.Package, Name: f.Name}
				}
				ps.file.Decls = append(ps.file.Decls, d)
				if g, isGen := d.(*ast.GenDecl); isGen && g.Tok == token.IMPORT {
					for _, spec := range g.Specs {
						ps.file.Imports = append(ps.file.Imports, spec.(*ast.ImportSpec))
					}
				}
			}
		} else {
			fd, ok := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
			if !ok || len(f.Decls) != 1 || fd.Body == nil {
				return nil, false
			}
			// Each segment's statements are a run of the body's, so each
			// list is sized once from the run's length.
			owners := make([]int, len(fd.Body.List))
			counts := make(map[int]int, len(idx))
			for k, st := range fd.Body.List {
				owners[k] = -1
				if _, empty := st.(*ast.EmptyStmt); empty {
					continue // a blanked separator
				}
				i, ok := owner(st, &next)
				if !ok {
					return nil, false
				}
				owners[k] = i
				counts[i]++
			}
			for k, st := range fd.Body.List {
				i := owners[k]
				if i < 0 {
					continue
				}
				ps := &parsed[i]
				if ps.file == nil {
					body := &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Rbrace, List: make([]ast.Stmt, 0, counts[i])}
					ps.file = &ast.File{Package: f.Package, Name: f.Name, Decls: []ast.Decl{
						&ast.FuncDecl{Name: fd.Name, Type: fd.Type, Body: body},
					}}
				}
				body := ps.file.Decls[0].(*ast.FuncDecl).Body
				body.List = append(body.List, st)
			}
		}
		for _, i := range idx {
			if parsed[i].file == nil {
				return nil, false // a segment that holds nothing the parse saw
			}
			parsed[i].tf = tf
			parsed[i].prefix = len(prefix) + segs[i].start
		}
	}
	return parsed, true
}

// blankOthers returns code with every byte outside the segments segs[idx]
// replaced by a space, newlines kept. A blanked stretch between two kept
// segments without a newline gets a semicolon, so that two statements on
// one line stay two statements.
func blankOthers(code string, segs []segment, idx []int) string {
	b := []byte(code)
	blank := func(from, to int, between bool) {
		sep := between
		for k := from; k < to; k++ {
			if b[k] == '\n' {
				sep = false
				continue
			}
			b[k] = ' '
		}
		if sep && to > from {
			b[from] = ';'
		}
	}
	last := 0
	for n, i := range idx {
		blank(last, segs[i].start, n > 0)
		last = segs[i].end
	}
	blank(last, len(b), false)
	return string(b)
}
