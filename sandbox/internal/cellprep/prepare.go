package cellprep

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strings"

	"github.com/sbirtools/sbir-kernel/pkgenv"
)

// A chunk is one piece of a cell that yaegi can evaluate on its own: a run
// of declarations, a run of statements, or the cell's last expression.
// yaegi rejects a source that starts with a declaration and continues with
// statements, so a cell is split at those boundaries and the chunks are
// evaluated in order.
type Chunk struct {
	// Code is the source, padded with newlines and spaces so that the
	// interpreter's line and column numbers match the cell's (plus the one
	// line yaegi's own wrapper adds; see fixPositions).
	Code string `json:"code"`
	// Expr marks the cell's last expression: the worker evaluates it
	// through a helper that captures its values, and falls back to running
	// it as a statement when it has none.
	Expr bool `json:"expr,omitempty"`
	// Quiet marks an expression whose values are not worth showing
	// (fmt.Println's byte count and nil error).
	Quiet bool `json:"quiet,omitempty"`
	// Direct marks an expression that is not a call, and so certainly has
	// exactly one value.
	Direct bool `json:"direct,omitempty"`
}

// checkError is a cell refused before it ran: it names the construct, where
// it is and what to write instead.
type CheckError struct {
	Line, Column int
	Construct    string // e.g. `go statement`, `import "os"`
	Reason       string // why, and the allowed alternative
}

func (e *CheckError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s is not allowed: %s", e.Line, e.Column, e.Construct, e.Reason)
	}
	return fmt.Sprintf("%s is not allowed: %s", e.Construct, e.Reason)
}

// sessionState is what preparing later cells needs to know about earlier
// ones. It lives in the supervisor and is reset with the worker.
type State struct {
	// declared holds top-level names the session defined.
	declared map[string]bool
	// intNames holds top-level names known to be integers, so that
	// `for i := range n` can be rewritten in later cells.
	intNames map[string]bool
	// imports holds renamed imports already evaluated: "name path".
	// Imports of third-party packages are recorded too (as "name path"
	// with the name the cell gave, or "" for the package's own).
	imports map[string]bool
	// env is the session's package environment: cells may import the
	// packages it allows. nil when no cell declared packages.
	env *pkgenv.Env
}

// SetEnv sets the session's package environment: later cells may import
// the packages it allows.
func (st *State) SetEnv(env *pkgenv.Env) { st.env = env }

// Names returns the top-level names the session declared, sorted.
func (st *State) Names() []string {
	names := make([]string, 0, len(st.declared))
	for n := range st.declared {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewState returns the state of a session that has run no cell.
func NewState() *State {
	return &State{declared: map[string]bool{}, intNames: map[string]bool{}, imports: map[string]bool{}}
}

// prepared is a checked, rewritten, split cell.
type Prepared struct {
	Chunks   []Chunk
	declared []string // top-level names the cell declares
	intNames []string // of which integers
	imports  []string // renamed imports it adds
}

// segment is one top-level declaration or statement of a cell.
type segment struct {
	start, end int // byte offsets in the cell
	decl       bool
	pkgClause  bool
}

// prepare checks code, rewrites what yaegi cannot run, and splits it into
// chunks. A refused construct returns a *checkError; a syntax error returns
// a scanner.ErrorList with cell positions.
func Prepare(code string, st *State) (*Prepared, error) {
	segs, err := splitTopLevel(code)
	if err != nil {
		return nil, err
	}
	if err := checkDirectives(code); err != nil {
		return nil, err
	}
	p := &Prepared{}
	type parsedSeg struct {
		segment
		file   *ast.File
		fset   *token.FileSet
		edits  []edit
		expr   bool
		quiet  bool
		direct bool
	}
	var parsed []parsedSeg
	cellDecl := map[string]bool{}
	cellInts := map[string]bool{}
	for _, s := range segs {
		if s.pkgClause {
			line, col := lineCol(code, s.start)
			return nil, &CheckError{Line: line, Column: col, Construct: "package clause", Reason: "a cell is not a file; remove the `package` line"}
		}
		f, fset, err := parseSegment(code, s)
		if err != nil {
			return nil, err
		}
		ps := parsedSeg{segment: s, file: f, fset: fset}
		collectNames(f, s.decl, cellDecl, cellInts)
		parsed = append(parsed, ps)
	}
	known := func(name string) bool { return cellDecl[name] || st.declared[name] }
	isInt := func(name string) bool { return cellInts[name] || st.intNames[name] }
	for i := range parsed {
		ps := &parsed[i]
		v := &checker{code: code, fset: ps.fset, known: known, isInt: isInt, st: st}
		ast.Walk(v, ps.file)
		if v.err != nil {
			return nil, v.err
		}
		ps.edits = v.edits
		p.imports = append(p.imports, v.imports...)
		if i == len(parsed)-1 && !ps.decl {
			ps.expr, ps.quiet, ps.direct = lastExpr(ps.file)
		}
	}
	// Group segments into chunks: consecutive declarations, consecutive
	// statements, and the final expression alone.
	var cur strings.Builder
	curDecl, have := false, false
	flush := func() {
		if have {
			p.Chunks = append(p.Chunks, Chunk{Code: cur.String()})
		}
		cur.Reset()
		have = false
	}
	for _, ps := range parsed {
		text := applyEdits(code[ps.start:ps.end], ps.start, ps.edits)
		if ps.expr {
			flush()
			p.Chunks = append(p.Chunks, Chunk{Code: pad(code, ps.start, 0) + text, Expr: true, Quiet: ps.quiet, Direct: ps.direct})
			continue
		}
		if have && curDecl != ps.decl {
			flush()
		}
		if !have {
			cur.WriteString(pad(code, ps.start, 0))
			have, curDecl = true, ps.decl
		} else {
			cur.WriteString(";")
			cur.WriteString(pad(code, ps.start, lastLine(cur.String())))
		}
		cur.WriteString(text)
	}
	flush()
	for n := range cellDecl {
		p.declared = append(p.declared, n)
		if cellInts[n] {
			p.intNames = append(p.intNames, n)
		}
	}
	sort.Strings(p.declared)
	return p, nil
}

// commit records what a cell that ran added to the session.
func (st *State) Commit(p *Prepared) {
	for _, n := range p.declared {
		st.declared[n] = true
		delete(st.intNames, n)
	}
	for _, n := range p.intNames {
		st.intNames[n] = true
	}
	for _, imp := range p.imports {
		st.imports[imp] = true
	}
}

// pad returns the newlines and spaces that put text starting at offset off
// of code on the same line and column it has in the cell, given that
// curLines lines are already written. One extra line accounts for the
// wrapper line yaegi adds when it compiles statements.
func pad(code string, off, curLines int) string {
	line, col := lineCol(code, off)
	n := line - curLines
	if curLines == 0 {
		n = line // the first line is yaegi's wrapper
	}
	if n < 0 {
		n = 0
	}
	if n == 0 {
		return " "
	}
	return strings.Repeat("\n", n) + strings.Repeat(" ", col-1)
}

// lastLine is the number of lines in s, counting from 0.
func lastLine(s string) int { return strings.Count(s, "\n") }

// lineCol converts a byte offset of code to a 1-based line and column.
func lineCol(code string, off int) (int, int) {
	line := 1 + strings.Count(code[:off], "\n")
	col := off - strings.LastIndexByte(code[:off], '\n')
	return line, col
}

// splitTopLevel cuts code into top-level declarations and statements.
func splitTopLevel(code string) ([]segment, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, []byte(code), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var segs []segment
	depth := 0
	header := false
	start := -1
	var toks []token.Token
	var lastEnd int
	closeSeg := func() {
		if start < 0 {
			return
		}
		segs = append(segs, classify(start, lastEnd, toks))
		start, toks = -1, nil
	}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.SEMICOLON && depth == 0 && !(header && lit == ";") {
			closeSeg()
			header = false
			continue
		}
		// The explicit semicolons of `for i := 0; i < n; i++ {` and
		// `if x := f(); x > 0 {` do not end the statement.
		if depth == 0 {
			switch tok {
			case token.FOR, token.IF, token.SWITCH:
				header = true
			case token.LBRACE:
				header = false
			}
		}
		if start < 0 {
			start = off
		}
		toks = append(toks, tok)
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
		}
		if tok == token.SEMICOLON {
			lastEnd = min(off+1, len(code))
		} else if lit != "" && tok != token.SEMICOLON {
			lastEnd = min(off+len(lit), len(code))
		} else {
			lastEnd = min(off+len(tok.String()), len(code))
		}
	}
	closeSeg()
	if len(errs) > 0 {
		return nil, errs
	}
	return segs, nil
}

// classify decides whether a segment is a declaration from its tokens.
func classify(start, end int, toks []token.Token) segment {
	s := segment{start: start, end: end}
	switch toks[0] {
	case token.IMPORT, token.TYPE, token.VAR, token.CONST:
		s.decl = true
	case token.PACKAGE:
		s.pkgClause = true
	case token.FUNC:
		if len(toks) > 1 && toks[1] == token.IDENT {
			s.decl = true
		} else if len(toks) > 1 && toks[1] == token.LPAREN {
			// A method has a receiver list followed by its name; a
			// function literal has its parameters followed by a result
			// type or a body.
			depth := 0
			for i := 1; i < len(toks); i++ {
				switch toks[i] {
				case token.LPAREN:
					depth++
				case token.RPAREN:
					depth--
				}
				if depth == 0 {
					s.decl = i+2 < len(toks) && toks[i+1] == token.IDENT && toks[i+2] == token.LPAREN
					break
				}
			}
		}
	}
	return s
}

// parseSegment parses one segment at its cell position: line numbers are
// one more than the cell's (the wrapper takes line 1); columns match.
func parseSegment(code string, s segment) (*ast.File, *token.FileSet, error) {
	line, col := lineCol(code, s.start)
	body := strings.Repeat("\n", line-1) + strings.Repeat(" ", col-1) + code[s.start:s.end]
	var src string
	if s.decl {
		src = "package p;\n" + body + "\n"
	} else {
		src = "package p;func _(){\n" + body + "\n}"
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		if list, ok := err.(scanner.ErrorList); ok {
			for _, e := range list {
				e.Pos.Line--
			}
			list.Sort()
			return nil, nil, SyntaxError{list}
		}
		return nil, nil, err
	}
	return f, fset, nil
}

// syntaxError reports the first parse errors with cell positions.
type SyntaxError struct{ list scanner.ErrorList }

func (e SyntaxError) Error() string {
	var b strings.Builder
	for i, err := range e.list {
		if i == 3 {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(e.list)-3)
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "line %d, column %d: %s", err.Pos.Line, err.Pos.Column, err.Msg)
	}
	return b.String()
}

// checkDirectives refuses //go: and //export comments anywhere in the cell.
func checkDirectives(code string) error {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var s scanner.Scanner
	s.Init(file, []byte(code), nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return nil
		}
		if tok == token.COMMENT && (strings.HasPrefix(lit, "//go:") || strings.HasPrefix(lit, "//export ") || strings.HasPrefix(lit, "//line ")) {
			p := fset.Position(pos)
			name := lit
			if i := strings.IndexAny(name, " \t"); i > 0 {
				name = name[:i]
			}
			return &CheckError{Line: p.Line, Column: p.Column, Construct: "the directive " + name, Reason: "compiler directives have no effect in a cell; remove the comment"}
		}
	}
}

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
			return isIntExpr(e.X, isInt) && isIntExpr(e.Y, isInt) ||
				isIntExpr(e.X, isInt) && isUntypedConst(e.Y) || isUntypedConst(e.X) && isIntExpr(e.Y, isInt)
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
