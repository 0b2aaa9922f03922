package cellprep

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"
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

// typeDecls are the types and methods one cell declares.
type typeDecls struct {
	types   map[string]int             // type name → cell offset of its declaration
	methods map[string]map[string]bool // receiver type name → method names
}

// collectTypeDecls records the types and methods of the cell's
// declaration segments.
func collectTypeDecls(parsed []parsedSeg) typeDecls {
	td := typeDecls{types: map[string]int{}, methods: map[string]map[string]bool{}}
	for _, ps := range parsed {
		if !ps.decl || ps.file == nil {
			continue
		}
		for _, d := range ps.file.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, spec := range d.Specs {
					ts := spec.(*ast.TypeSpec)
					td.types[ts.Name.Name] = ps.tf.Offset(ts.Pos()) - ps.prefix + ps.start
				}
			case *ast.FuncDecl:
				if name := recvType(d.Recv); name != "" {
					if td.methods[name] == nil {
						td.methods[name] = map[string]bool{}
					}
					td.methods[name][d.Name.Name] = true
				}
			}
		}
	}
	return td
}

// checkRedefinedTypes refuses a cell that declares again a type whose
// methods earlier cells declared, unless it declares them again too: a
// method belongs to the type it was compiled with, so the new type would
// silently lose them (fmt would stop calling its String method).
func checkRedefinedTypes(lt *lineTable, st *State, td typeDecls) error {
	names := make([]string, 0, len(td.types))
	for name := range td.types {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var missing []string
		for m := range st.methods[name] {
			if !td.methods[name][m] {
				missing = append(missing, m)
			}
		}
		if len(missing) == 0 {
			continue
		}
		sort.Strings(missing)
		line, col := lt.pos(td.types[name])
		return &CheckError{Line: line, Column: col, Construct: "declaring type " + name + " again without its methods " + strings.Join(missing, ", "),
			Reason: "a method belongs to the type it was declared with, so the new " + name + " would not have them; " +
				"declare them again in this cell, after the type (or give the new type another name)"}
	}
	return nil
}
