package cellprep

import (
	"go/ast"
	"go/token"
)

// collectNames records the top-level names a segment declares, and which
// of them are syntactically integers.
func collectNames(f *ast.File, decl bool, names, ints map[string]bool) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if !decl {
				continue
			}
			for _, spec := range d.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					names[sp.Name.Name] = true
				case *ast.ValueSpec:
					for i, n := range sp.Names {
						if n.Name == "_" {
							continue
						}
						names[n.Name] = true
						var val ast.Expr
						if i < len(sp.Values) && len(sp.Values) == len(sp.Names) {
							val = sp.Values[i]
						}
						ints[n.Name] = isIntType(sp.Type) || (sp.Type == nil && val != nil && isIntExpr(val, func(s string) bool { return ints[s] }))
					}
				}
			}
		case *ast.FuncDecl:
			if decl {
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
				continue
			}
			// Statements: top-level := and var declarations.
			if d.Body == nil {
				continue
			}
			for _, stmt := range d.Body.List {
				switch s := stmt.(type) {
				case *ast.AssignStmt:
					if s.Tok != token.DEFINE {
						continue
					}
					for i, l := range s.Lhs {
						id, ok := l.(*ast.Ident)
						if !ok || id.Name == "_" {
							continue
						}
						names[id.Name] = true
						ints[id.Name] = len(s.Lhs) == len(s.Rhs) && isIntExpr(s.Rhs[i], func(s string) bool { return ints[s] })
					}
				case *ast.DeclStmt:
					collectNames(&ast.File{Decls: []ast.Decl{s.Decl}}, true, names, ints)
				}
			}
		}
	}
}

var intTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}

func isIntType(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && intTypes[id.Name]
}

// isIntExpr reports whether e is, syntactically, an integer: an integer
// literal, len/cap, a conversion to an integer type, a name known to be an
// integer, or arithmetic on those.
func isIntExpr(e ast.Expr, isInt func(string) bool) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT || e.Kind == token.CHAR
	case *ast.Ident:
		return isInt(e.Name)
	case *ast.ParenExpr:
		return isIntExpr(e.X, isInt)
	case *ast.UnaryExpr:
		return isIntExpr(e.X, isInt)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.SHL, token.SHR:
			return isIntExpr(e.X, isInt)
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			// Each side is looked at once: a long chain of operators
			// must stay linear.
			xInt, yInt := isIntExpr(e.X, isInt), isIntExpr(e.Y, isInt)
			return xInt && (yInt || isUntypedConst(e.Y)) || yInt && isUntypedConst(e.X)
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			return id.Name == "len" || id.Name == "cap" || intTypes[id.Name]
		}
	}
	return false
}

func isUntypedConst(e ast.Expr) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && (b.Kind == token.INT || b.Kind == token.CHAR)
}

// printFuncs are the fmt functions whose results (a byte count and a nil
// error) are not shown as a cell's value.
var printFuncs = map[string]bool{"Print": true, "Printf": true, "Println": true, "Fprint": true, "Fprintf": true, "Fprintln": true}

// lastExpr reports whether the statement segment f is a single expression
// statement (to be shown as the cell's value), whether its value is noise
// (a fmt print call's byte count), and whether it is not a call (so it has
// exactly one value).
func lastExpr(f *ast.File) (expr, quiet, direct bool) {
	fd, ok := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	if !ok || fd.Body == nil || len(fd.Body.List) != 1 {
		return false, false, false
	}
	es, ok := fd.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false, false, false
	}
	call, isCall := ast.Unparen(es.X).(*ast.CallExpr)
	if !isCall {
		_, recv := es.X.(*ast.UnaryExpr)
		return true, false, !recv || es.X.(*ast.UnaryExpr).Op != token.ARROW
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && printFuncs[sel.Sel.Name] {
			return true, true, false
		}
	}
	return true, false, false
}
