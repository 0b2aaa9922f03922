package cellprep

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// A declEntry is one top-level declaration of a cell that ran (a function,
// a method, a type or a constant group), kept so that later compiled cells
// can carry it in: a compiled cell is a program of its own, and sees the
// session's functions, types and constants by having their source
// rendered into it (GoNB does the same), never its variables' values.
type declEntry struct {
	seq    int      // order of declaration in the session, for a stable rendering
	names  []string // top-level names it declares; none for a method
	recv   string   // a method's receiver base type
	method string   // a method's name
	text   string   // the source, main renamed as the cell had it
	line   int      // where the text starts in its cell
	col    int
	// free are the identifiers the text uses without declaring them:
	// the other declarations, packages and variables it depends on.
	free []string
	// compiled marks a declaration of a compiled cell, which the
	// interpreter never saw.
	compiled bool
}

// varOrigin says which kind of cell declared a session variable, for the
// message of a compiled cell that uses it.
type varOrigin int

const (
	interpretedVar varOrigin = iota + 1 // its value lives in the interpreter
	compiledVar                         // its value ended with its compiled cell
)

// declStore is what compiled cells can carry in of a session.
type declStore struct {
	seq     int
	decls   map[string]*declEntry            // function, type or constant name → its declaration
	methods map[string]map[string]*declEntry // receiver type → method name → declaration
	vars    map[string]varOrigin             // the session's variables
	imports map[string]string                // package name → path, as cells imported them
}

func newDeclStore() declStore {
	return declStore{decls: map[string]*declEntry{}, methods: map[string]map[string]*declEntry{}, vars: map[string]varOrigin{}, imports: map[string]string{}}
}

// record adds what a cell that ran declared: later declarations of a name
// replace earlier ones, as a later cell's do in the interpreter.
func (d *declStore) record(p *Prepared, origin varOrigin) {
	for _, e := range cellDecls(p) {
		d.seq++
		e.seq, e.compiled = d.seq, origin == compiledVar
		if e.recv != "" {
			if d.methods[e.recv] == nil {
				d.methods[e.recv] = map[string]*declEntry{}
			}
			d.methods[e.recv][e.method] = e
			continue
		}
		for _, n := range e.names {
			d.forget(n)
		}
		for _, n := range e.names {
			d.decls[n] = e
		}
	}
	for _, n := range cellVars(p) {
		d.forget(n)
		d.vars[n] = origin
	}
	for i := range p.parsed {
		if !p.parsed[i].decl {
			continue
		}
		for _, is := range p.parsed[i].file.Imports {
			path, err := strconv.Unquote(is.Path.Value)
			name := packageName(path)
			if is.Name != nil {
				name = is.Name.Name
			}
			if err == nil && name != "_" && name != "." {
				d.imports[name] = path
			}
		}
	}
}

// forget drops name, and the rest of a group that declared it with other
// names (a group's text cannot be carried in without redeclaring name).
func (d *declStore) forget(name string) {
	delete(d.vars, name)
	e := d.decls[name]
	if e == nil {
		return
	}
	for _, n := range e.names {
		if d.decls[n] == e {
			delete(d.decls, n)
		}
	}
}

// segOffset converts a position of a parsed segment's tree to a cell
// offset.
func (ps *parsedSeg) offset(p token.Pos) int {
	return ps.tf.Offset(p) - ps.prefix + ps.start
}

// textOf returns code[s:e] with the renames of main in it applied.
func textOf(code string, s, e int, renames []int) string {
	var b strings.Builder
	last := s
	for _, r := range renames {
		if r < s || r >= e {
			continue
		}
		b.WriteString(code[last:r])
		b.WriteString(mainName)
		last = r + len("main")
	}
	b.WriteString(code[last:e])
	return b.String()
}

// cellDecls returns the declarations of a prepared cell other than
// imports and variables, in cell order.
func cellDecls(p *Prepared) []*declEntry {
	var out []*declEntry
	for i := range p.parsed {
		ps := &p.parsed[i]
		if !ps.decl {
			continue
		}
		for _, d := range ps.file.Decls {
			e := declEntryOf(p, ps, d)
			if e != nil {
				out = append(out, e)
			}
		}
	}
	return out
}

// declEntryOf returns the entry of one declaration, or nil for imports
// and variables.
func declEntryOf(p *Prepared, ps *parsedSeg, d ast.Decl) *declEntry {
	e := &declEntry{}
	switch d := d.(type) {
	case *ast.GenDecl:
		if d.Tok == token.IMPORT || d.Tok == token.VAR {
			return nil
		}
		for _, spec := range d.Specs {
			switch sp := spec.(type) {
			case *ast.TypeSpec:
				e.names = append(e.names, sp.Name.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					if n.Name != "_" {
						e.names = append(e.names, n.Name)
					}
				}
			}
		}
		if len(e.names) == 0 {
			return nil
		}
	case *ast.FuncDecl:
		if d.Recv != nil {
			e.recv, e.method = recvType(d.Recv), d.Name.Name
			if e.recv == "" {
				return nil
			}
		} else {
			name := d.Name.Name
			if name == "main" && p.hasMain {
				name = mainName
			}
			e.names = []string{name}
		}
	default:
		return nil
	}
	s, end := ps.offset(d.Pos()), ps.offset(d.End())
	e.text = textOf(p.code, s, end, ps.renames)
	e.line, e.col = p.lt.pos(s)
	e.free = freeNames("package p;"+e.text, nil)
	return e
}

// recvType returns the base type name of a method's receiver.
func recvType(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	t := fl.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// cellVars returns the variables a prepared cell declares at its top
// level: var declarations, and := and var statements outside functions.
func cellVars(p *Prepared) []string {
	var out []string
	add := func(id *ast.Ident) {
		if id.Name != "_" {
			out = append(out, id.Name)
		}
	}
	addSpecs := func(g *ast.GenDecl) {
		if g.Tok != token.VAR {
			return
		}
		for _, spec := range g.Specs {
			for _, n := range spec.(*ast.ValueSpec).Names {
				add(n)
			}
		}
	}
	for i := range p.parsed {
		ps := &p.parsed[i]
		for _, d := range ps.file.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if ps.decl {
					addSpecs(d)
				}
			case *ast.FuncDecl:
				if ps.decl || d.Body == nil {
					continue
				}
				for _, st := range d.Body.List {
					switch st := st.(type) {
					case *ast.AssignStmt:
						if st.Tok == token.DEFINE {
							for _, l := range st.Lhs {
								if id, ok := l.(*ast.Ident); ok {
									add(id)
								}
							}
						}
					case *ast.DeclStmt:
						if g, ok := st.Decl.(*ast.GenDecl); ok {
							addSpecs(g)
						}
					}
				}
			}
		}
	}
	return out
}

// freeNames parses src (a Go file) with the parser's object resolution
// and returns the identifiers it uses without declaring them, sorted:
// the names of other declarations, packages, variables and the universe's.
// When first is not nil it receives the offset in src of each name's
// first use. A file that does not parse has none (its cell parsed, so
// this does not happen).
func freeNames(src string, first map[string]int) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil
	}
	tf := fset.File(f.Pos())
	seen := map[string]bool{}
	var out []string
	for _, id := range f.Unresolved {
		if first != nil {
			if o, ok := first[id.Name]; !ok || tf.Offset(id.Pos()) < o {
				first[id.Name] = tf.Offset(id.Pos())
			}
		}
		if !seen[id.Name] {
			seen[id.Name] = true
			out = append(out, id.Name)
		}
	}
	sort.Strings(out)
	return out
}
