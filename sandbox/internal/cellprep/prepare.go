// Package cellprep turns a notebook cell into what the worker's
// interpreter evaluates. It runs in the supervisor, before any code reaches
// the worker, and is pure: no I/O, no state but the State a session passes.
//
// A cell is Go as people write it: a whole program (package main, imports,
// func main), or declarations and statements in any mix, imports anywhere.
// Preparation refuses what the sandbox does not allow (with the construct,
// where it is and what to write instead), rewrites what the interpreter
// cannot run as written (go and top-level defer statements, range over an
// integer, the min/max/clear builtins, a program's main), and splits the
// cell into chunks the interpreter evaluates in order. It is linear in the
// cell's size: every position is a byte offset of the cell, never a line
// and column recomputed from the start, and directives in the cell can
// never move what is checked or rewritten (they are refused).
package cellprep

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// State is what preparing later cells needs to know about earlier ones.
// It lives in the supervisor and is reset with the worker.
type State struct {
	// declared holds top-level names the session defined.
	declared map[string]bool
	// intNames holds top-level names known to be integers, so that a
	// two-variable `for i, v := range n` is refused in later cells.
	intNames map[string]bool
	// imports holds renamed imports already evaluated: "name path".
	// Imports of third-party packages are recorded too (as "name path"
	// with the name the cell gave, or "" for the package's own).
	imports map[string]bool
	// third decides which packages outside the allow-list cells may
	// import; nil allows none.
	third ImportChecker
	// store keeps the declarations later compiled cells carry in.
	store declStore
	// types holds the top-level type names, and methods the methods
	// declared for each (see checkRedefinedTypes).
	types   map[string]bool
	methods map[string]map[string]bool
	// capFuncs holds the functions that read the cap of a slice they
	// append to, or call one (stackbuf.go).
	capFuncs map[string]bool
}

// An ImportChecker decides which packages outside the allow-list (those
// of third-party modules) a session's cells may import. The session's
// package environment is one (*pkgenv.Env).
type ImportChecker interface {
	// CheckImports returns nil when cells may import every one of the
	// import paths, or an error saying why not: what is wrong with each
	// path and what to do.
	CheckImports(paths []string) error
}

// NewState returns the state of a session that has run no cell.
func NewState() *State {
	return &State{declared: map[string]bool{}, intNames: map[string]bool{}, imports: map[string]bool{}, store: newDeclStore(),
		types: map[string]bool{}, methods: map[string]map[string]bool{}, capFuncs: map[string]bool{}}
}

// SetImports sets what decides the third-party imports of later cells
// (the session's package environment); nil refuses them all.
func (st *State) SetImports(ic ImportChecker) { st.third = ic }

// Names returns the top-level names the session declared, sorted.
func (st *State) Names() []string {
	names := make([]string, 0, len(st.declared))
	for n := range st.declared {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Prepared is a checked, rewritten, split cell.
type Prepared struct {
	Chunks []wire.Chunk
	// InterpreterOnly, when set, refuses the cell if it runs interpreted:
	// a construct the interpreter would get wrong and gc builds as
	// written (a compiled cell runs).
	InterpreterOnly *CheckError
	declared        []string // top-level names the cell declares
	intNames        []string // of which integers
	imports         []string // renamed imports it adds
	typeDecls
	capFuncs []string // functions it declares that read cap after append (stackbuf.go)

	// What Compile and Commit need of the cell's syntax.
	code      string
	lt        *lineTable
	parsed    []parsedSeg
	hasMain   bool // the cell declares func main
	callsMain bool // and calls it itself
}

// Commit records what a cell that ran added to the session.
func (st *State) Commit(p *Prepared) {
	for _, n := range p.declared {
		st.declared[n] = true
		delete(st.intNames, n)
		delete(st.capFuncs, n)
	}
	for _, n := range p.capFuncs {
		st.capFuncs[n] = true
	}
	for _, n := range p.intNames {
		st.intNames[n] = true
	}
	for _, imp := range p.imports {
		st.imports[imp] = true
	}
	st.store.record(p, interpretedVar)
	for _, n := range p.declared {
		if _, isType := p.types[n]; !isType {
			delete(st.types, n)
			delete(st.methods, n)
		}
	}
	for n := range p.types {
		st.types[n] = true
		delete(st.methods, n) // the methods of the old type are not the new one's
	}
	for n, ms := range p.methods {
		if st.methods[n] == nil {
			st.methods[n] = map[string]bool{}
		}
		for m := range ms {
			st.methods[n][m] = true
		}
	}
}

// mainName is what a cell's func main is renamed to: the interpreter's
// REPL runs a function named main again at every later evaluation.
const mainName = "_sbirMain"

// parsedSeg is a segment with its syntax tree and planned rewrites.
type parsedSeg struct {
	segment
	file   *ast.File
	tf     *token.File
	prefix int // bytes of wrapper before the segment in the parsed source
	edits  []edit
	// renames are the offsets of main renamed to mainName (see Compile).
	renames []int
	expr    bool
	quiet   bool
	direct  bool
	// cut starts a new chunk (splitRedefinitions).
	cut bool
}

// Prepare checks code, rewrites what yaegi cannot run, and splits it into
// chunks. A refused construct returns a *CheckError; a syntax error returns
// a SyntaxError with cell positions.
func Prepare(code string, st *State) (*Prepared, error) {
	return prepare(code, st, true)
}

// prepare is Prepare; combined=false parses each segment alone (see
// parseAll), which the tests compare with the combined parse.
func prepare(code string, st *State, combined bool) (*Prepared, error) {
	lt := newLineTable(code)
	if err := checkDirectives(code, lt); err != nil {
		return nil, err
	}
	segs, err := splitTopLevel(code)
	if err != nil {
		return nil, err
	}
	p := &Prepared{}
	cellDecl := map[string]bool{}
	cellInts := map[string]bool{}
	hasMain := false
	kept := make([]segment, 0, len(segs))
	for _, s := range segs {
		if s.pkgClause {
			if err := checkPackageClause(code, s, lt); err != nil {
				return nil, err
			}
			continue // package main: a cell is always package main
		}
		kept = append(kept, s)
	}
	parsed, err := parseAll(token.NewFileSet(), code, group(code, kept), lt, combined)
	if err != nil {
		return nil, err
	}
	declNames := map[string]bool{} // of the cell's declarations only
	for _, ps := range parsed {
		collectNames(ps.file, ps.decl, cellDecl, cellInts)
		if ps.decl {
			collectNames(ps.file, true, declNames, map[string]bool{})
			hasMain = hasMain || declaresMain(ps.file)
		}
	}
	renameMain := hasMain || st.declared[mainName]
	if hasMain {
		delete(cellDecl, "main")
		cellDecl[mainName] = true
	}
	known := func(name string) bool { return cellDecl[name] || st.declared[name] }
	isInt := func(name string) bool { return cellInts[name] || st.intNames[name] }
	callsMain := false
	stackBufs, capRefused := stackBufSites(parsed)
	flagged := capFuncs(parsed, st.capFuncs)
	inlineRefused := inlinedCapRefusals(parsed, func(n string) bool { return flagged[n] || st.capFuncs[n] })
	for n := range flagged {
		p.capFuncs = append(p.capFuncs, n)
	}
	for i := range parsed {
		ps := &parsed[i]
		c := &checker{code: code, lines: lt, tf: ps.tf, prefix: ps.prefix, base: ps.start, end: ps.end,
			known: known, isInt: isInt, st: st, renameMain: renameMain, topLevel: !ps.decl, stackBufs: stackBufs, capRefused: capRefused,
			inlineRefused: inlineRefused}
		c.markTopLevel(ps.file)
		ast.Walk(c, ps.file)
		c.copyLoopVars(ps.file)
		c.finish()
		if c.err != nil {
			return nil, c.err
		}
		if p.InterpreterOnly == nil {
			p.InterpreterOnly = c.interpOnly
		}
		ps.edits = c.edits
		ps.renames = c.renames
		p.imports = append(p.imports, c.imports...)
		callsMain = callsMain || c.callsMain
		if i == len(parsed)-1 && !ps.decl {
			ps.expr, ps.quiet, ps.direct = lastExpr(ps.file)
		}
	}
	p.typeDecls = collectTypeDecls(parsed)
	if err := checkRedefinedTypes(lt, st, p.typeDecls); err != nil {
		return nil, err
	}
	parsed = splitRedefinitions(parsed, func(name string) bool { return st.declared[name] || declNames[name] })
	p.Chunks = assemble(code, lt, parsed)
	p.code, p.lt, p.parsed, p.hasMain, p.callsMain = code, lt, parsed, hasMain, callsMain
	if hasMain && !callsMain {
		p.Chunks = append(p.Chunks, wire.Chunk{Code: mainName + "()", Main: true})
	}
	for n := range cellDecl {
		p.declared = append(p.declared, n)
		if cellInts[n] {
			p.intNames = append(p.intNames, n)
		}
	}
	sort.Strings(p.declared)
	return p, nil
}

// assemble groups segments into chunks: the imports first (a person puts
// them anywhere; the interpreter needs them before their use), then runs
// of consecutive declarations and of consecutive statements, and the final
// expression alone. Segments that rewriting left empty (imports of
// packages every session has) are dropped.
func assemble(code string, lt *lineTable, parsed []parsedSeg) []wire.Chunk {
	var chunks []wire.Chunk
	var cur strings.Builder
	curDecl, have, prev := false, false, -1
	flush := func() {
		if have {
			cur.WriteByte('\n')
			chunks = append(chunks, wire.Chunk{Code: cur.String()})
		}
		cur.Reset()
		have, prev = false, -1
	}
	// add appends segment i. A segment that follows the previous one in
	// the cell gets the text between them (its separator, with the same
	// newlines), so positions stay exact; any other starts with a
	// directive naming its place in the cell (plus one line for the
	// interpreter's wrapper; see the worker's cellPositions).
	add := func(i int, text string) {
		ps := &parsed[i]
		if prev >= 0 && prev == i-1 {
			cur.WriteString(code[parsed[prev].end:ps.start])
		} else {
			if prev >= 0 {
				cur.WriteByte('\n')
			}
			line, col := lt.pos(ps.start)
			cur.WriteString("/*line :")
			cur.WriteString(strconv.Itoa(line + 1))
			cur.WriteByte(':')
			cur.WriteString(strconv.Itoa(col))
			cur.WriteString("*/")
		}
		cur.WriteString(text)
		prev = i
	}
	texts := make([]string, len(parsed))
	for i := range parsed {
		ps := &parsed[i]
		texts[i] = applyEdits(code[ps.start:ps.end], ps.start, ps.edits)
	}
	// Imports first, in one chunk.
	for i := range parsed {
		if parsed[i].decl && isImport(parsed[i].file) && strings.TrimSpace(texts[i]) != "" {
			add(i, texts[i])
			have, curDecl = true, true
		}
	}
	flush()
	for i := range parsed {
		ps := &parsed[i]
		text := texts[i]
		if ps.decl && isImport(ps.file) || strings.TrimSpace(text) == "" {
			continue
		}
		if ps.expr {
			flush()
			add(i, text)
			chunks = append(chunks, wire.Chunk{Code: cur.String(), Expr: true, Quiet: ps.quiet, Direct: ps.direct})
			cur.Reset()
			prev = -1
			continue
		}
		if have && (curDecl != ps.decl || ps.cut) {
			flush()
		}
		add(i, text)
		have, curDecl = true, ps.decl
	}
	flush()
	return chunks
}

// group merges runs of consecutive segments of one kind (imports, other
// declarations, statements) into one, so that each run is parsed and
// checked once: a cell of 50,000 statements is one parse, not 50,000. The
// cell's last statement stays alone, to be shown as its value.
func group(code string, segs []segment) []segment {
	kind := func(s segment) int {
		switch {
		case !s.decl:
			return 0
		case startsWithImport(code[s.start:s.end]):
			return 1
		}
		return 2
	}
	var out []segment
	for i, s := range segs {
		last := i == len(segs)-1 && !s.decl
		if n := len(out); n > 0 && !last && kind(out[n-1]) == kind(s) && !out[n-1].pkgClause {
			out[n-1].end = s.end
			continue
		}
		out = append(out, s)
	}
	return out
}

// startsWithImport reports whether a declaration's text is an import.
func startsWithImport(text string) bool {
	return strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "import")
}

// isImport reports whether a declaration segment is an import.
func isImport(f *ast.File) bool {
	if len(f.Decls) == 0 {
		return len(f.Imports) > 0
	}
	g, ok := f.Decls[0].(*ast.GenDecl)
	return ok && g.Tok == token.IMPORT
}

// declaresMain reports whether a declaration segment is func main().
func declaresMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			return true
		}
	}
	return false
}

// checkPackageClause accepts `package main` (a cell, like a program, is
// package main) and refuses any other package name.
func checkPackageClause(code string, s segment, lt *lineTable) error {
	fields := strings.Fields(code[s.start:s.end])
	if len(fields) >= 2 && strings.TrimSuffix(fields[1], ";") == "main" {
		return nil
	}
	line, col := lt.pos(s.start)
	name := ""
	if len(fields) >= 2 {
		name = " " + fields[1]
	}
	return &CheckError{Line: line, Column: col, Construct: "package" + name,
		Reason: "a cell, like a program run with go run, is package main; write `package main` or leave the line out"}
}

// Prefixes that make a segment a Go file the parser accepts: declarations
// at top level, statements in a function body.
const (
	declPrefix = "package p;"
	stmtPrefix = "package p;func _(){"
)

// parseSegment parses one segment. Positions in its tree are offsets into
// the wrapper plus the segment; the checker converts them to cell offsets.
func parseSegment(fset *token.FileSet, code string, s segment, lt *lineTable) (parsedSeg, error) {
	prefix, suffix := declPrefix, "\n"
	if !s.decl {
		prefix, suffix = stmtPrefix, "\n}"
	}
	src := prefix + code[s.start:s.end] + suffix
	f, err := parser.ParseFile(fset, "cell", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		list, ok := err.(scanner.ErrorList)
		if !ok {
			return parsedSeg{}, err
		}
		var out scanner.ErrorList
		for _, e := range list {
			off := e.Pos.Offset - len(prefix)
			if off >= s.end-s.start {
				// The parser reached the wrapper: the statement ended
				// before it was complete.
				e.Msg = strings.TrimSuffix(strings.TrimSuffix(e.Msg, "'}'"), "'EOF'")
				if strings.HasSuffix(e.Msg, "found ") {
					e.Msg += "the end of the statement"
				}
			}
			off = max(0, min(off, s.end-s.start)) + s.start
			line, col := lt.pos(off)
			out.Add(token.Position{Filename: "cell", Offset: off, Line: line, Column: col}, e.Msg)
		}
		out.Sort()
		return parsedSeg{}, SyntaxError{out}
	}
	return parsedSeg{segment: s, file: f, tf: fset.File(f.Pos()), prefix: len(prefix)}, nil
}

// checkDirectives refuses //go:, //export and line directives anywhere in
// the cell: compiler directives have no effect in the interpreter, and a
// line directive would move the positions people read in errors.
func checkDirectives(code string, lt *lineTable) error {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var s scanner.Scanner
	s.Init(file, []byte(code), nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return nil
		}
		if tok != token.COMMENT {
			continue
		}
		name := ""
		switch {
		case strings.HasPrefix(lit, "//go:"), strings.HasPrefix(lit, "//export "), strings.HasPrefix(lit, "//line "):
			name = lit
		case strings.HasPrefix(lit, "/*line "), strings.HasPrefix(lit, "/*line\t"):
			name = "/*line"
		default:
			continue
		}
		if i := strings.IndexAny(name, " \t"); i > 0 {
			name = name[:i]
		}
		line, col := lt.pos(file.Offset(pos))
		return &CheckError{Line: line, Column: col, Construct: "the directive " + name, Reason: "compiler directives have no effect in a cell; remove the comment"}
	}
}
