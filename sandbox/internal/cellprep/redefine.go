package cellprep

import (
	"go/ast"
	"go/token"
)

// splitRedefinitions cuts statement segments before each top-level
// `name := value` that defines a name the cell did not define first: one
// an earlier cell defined, or one of this cell's package-level
// declarations. The interpreter declares a run of statements' variables
// before running any of them, so a redefinition in the same run would
// hide the old variable from the statements before it, which read it in
// Go. In a chunk of its own, the statements before it see the old one.
// (A name the cell's own statements defined earlier stays in the run:
// defining it again is Go's "no new variables" error.)
func splitRedefinitions(parsed []parsedSeg, known func(string) bool) []parsedSeg {
	var out []parsedSeg
	defined := map[string]bool{}
	for _, ps := range parsed {
		if ps.decl || ps.file == nil || len(ps.file.Decls) == 0 {
			out = append(out, ps)
			continue
		}
		fd, ok := ps.file.Decls[len(ps.file.Decls)-1].(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			out = append(out, ps)
			continue
		}
		start, cutHere := ps.start, false
		for _, stmt := range fd.Body.List {
			name := definedName(stmt)
			if name == "" {
				continue
			}
			if !defined[name] && known(name) {
				cut := ps.tf.Offset(stmt.Pos()) - ps.prefix + ps.start
				if cut > start && cut < ps.end {
					piece := ps
					piece.start, piece.end, piece.cut, piece.expr = start, cut, cutHere, false
					out = append(out, piece)
					start = cut
				}
				cutHere = true
			}
			defined[name] = true
		}
		rest := ps
		rest.start, rest.cut = start, cutHere
		out = append(out, rest)
	}
	return out
}

// definedName returns x for the statement `x := value`, else "".
func definedName(s ast.Stmt) string {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 {
		return ""
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" {
		return ""
	}
	return id.Name
}
