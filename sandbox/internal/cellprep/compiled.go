package cellprep

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/gotrace"
)

// CompileDirective is the line comment, on a line of its own, that asks
// for a cell to run compiled with gc instead of interpreted.
const CompileDirective = "//sbir:compile"

// RuntimePath is the import path of the runtime every compiled cell links
// (the package that maps the data, sends displays and reports the end),
// imported under RuntimeName.
const (
	RuntimePath = "github.com/sbirtools/sbir-kernel/sandbox/internal/cellrt"
	RuntimeName = "_sbirrt"
)

// DataRuntimePath is the package that maps the awards data into a
// program that uses award_data (DataPath), imported for its init into
// those programs only: the others link neither award_data nor arrow-go,
// which takes a third of the link's time and of the binary's size.
const (
	DataRuntimePath = RuntimePath + "/celldata"
	DataPath        = "github.com/sbirtools/sbir-kernel/award_data"
)

// DisplayRuntimePath is the package that sends a program's displays to
// the supervisor, imported for its init into every program that imports
// a package beyond the standard library (display, award_data, a module:
// any of them may display); the others link neither it nor display.
const DisplayRuntimePath = RuntimePath + "/celldisplay"

// File names of a compiled cell's positions (package gotrace reads them
// back from stack traces).
const (
	CellFile      = gotrace.File
	EarlierPrefix = gotrace.EarlierPrefix
	GeneratedFile = gotrace.Generated
)

// WantsCompile reports whether code asks to run compiled: CompileDirective
// as a line comment on a line of its own (not in a string, not after
// code).
func WantsCompile(code string) bool {
	if !strings.Contains(code, CompileDirective) {
		return false
	}
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var s scanner.Scanner
	s.Init(file, []byte(code), func(token.Position, string) {}, scanner.ScanComments)
	lastLine := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return false
		}
		line := file.Line(pos)
		if tok != token.COMMENT {
			lastLine = line
			continue
		}
		if line != lastLine && strings.TrimRight(lit, " \t\r") == CompileDirective {
			return true
		}
	}
}

// IsProgram reports whether the cell declares func main: a whole program,
// which runs compiled whenever a toolchain is available.
func (p *Prepared) IsProgram() bool { return p.hasMain }

// A Program is a cell rendered as one Go file for gc: its declarations at
// the package level with those of earlier cells it uses, its statements
// as main's body, positions kept with line directives (CellFile,
// EarlierPrefix+name), and the runtime (RuntimePath) reporting its end.
type Program struct {
	// Source is the file, main.go of package main.
	Source string
	// NoValue is Source without the capture of the cell's last
	// expression, for when the build finds it has no value (a call of a
	// function without results); "" when Source captures nothing or the
	// expression certainly has a value.
	NoValue string
	// ValueLine and ValueColumn locate the captured expression in the cell.
	ValueLine, ValueColumn int
	// UsesData reports that the program links award_data, and maps the
	// data (DataRuntimePath): the supervisor passes it the data's
	// descriptor.
	UsesData bool

	prep *Prepared
}

// NotCompilableError reports a cell that needs the interpreter: it reads
// standard input, or imports a package of a declared module.
type NotCompilableError struct{ Reason string }

func (e *NotCompilableError) Error() string { return e.Reason }

// CompileError is a cell that cannot compile as it stands, found before
// any build: it uses a variable whose value a compiled cell cannot see.
type CompileError struct {
	Line, Column int
	Msg          string
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// CommitCompiled records what a compiled cell that ran declared, for later
// compiled cells. The interpreter never saw it: its variables ended with
// the cell, and its functions, types and constants exist only for
// compiled cells.
func (st *State) CommitCompiled(p *Program) { st.store.record(p.prep, compiledVar) }

// CompiledOnly reports whether name is a function, type or constant that
// only a compiled cell declared: the interpreter does not know it.
func (st *State) CompiledOnly(name string) bool {
	e := st.store.decls[name]
	return e != nil && e.compiled
}

// Compile renders a cell that Prepare accepted (p, prepared with st) as a
// program, carrying in the declarations of earlier cells it uses. It
// returns a *NotCompilableError for a cell that needs the interpreter and
// a *CompileError for one that uses a session variable.
func Compile(p *Prepared, st *State) (*Program, error) {
	if reason := needsInterpreter(p); reason != "" {
		return nil, &NotCompilableError{Reason: reason}
	}
	own, err := cellImports(p)
	if err != nil {
		return nil, err
	}
	r := &resolution{p: p, st: st, own: own, imports: map[string]string{}, carried: map[*declEntry]bool{}}
	if err := r.resolve(); err != nil {
		return nil, err
	}
	prog := &Program{prep: p}
	prog.Source, prog.NoValue, prog.ValueLine, prog.ValueColumn = r.render()
	prog.UsesData = r.usesData
	return prog, nil
}

// needsInterpreter returns why the cell cannot run compiled, or "".
func needsInterpreter(p *Prepared) string {
	reason := ""
	for i := range p.parsed {
		ast.Inspect(p.parsed[i].file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || reason != "" {
				return reason == ""
			}
			if x, ok := sel.X.(*ast.Ident); ok && readsStdin(x.Name, sel.Sel.Name) {
				reason = "the cell reads standard input (" + x.Name + "." + sel.Sel.Name + "), which only the interpreter can ask the notebook for"
			}
			return true
		})
	}
	return reason
}

// readsStdin reports whether pkg.name reads the process's standard input.
func readsStdin(pkg, name string) bool {
	return pkg == "os" && name == "Stdin" || pkg == "fmt" && strings.HasPrefix(name, "Scan")
}

// importSpec is one import of the rendered program.
type importSpec struct {
	name, path string
	off        int // its cell offset, or -1 for one the rendering added
}

// cellImports returns the cell's own imports; one of a package outside
// the standard allow-list (a declared module's) needs the interpreter.
func cellImports(p *Prepared) ([]importSpec, error) {
	var out []importSpec
	for i := range p.parsed {
		ps := &p.parsed[i]
		if !ps.decl {
			continue
		}
		for _, is := range ps.file.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			if !allowlist.Allowed(path) {
				return nil, &NotCompilableError{Reason: "the cell imports " + path + ", a package of a module declared with //sbir:require, which compiled cells cannot link yet"}
			}
			name := ""
			if is.Name != nil {
				name = is.Name.Name
			}
			out = append(out, importSpec{name: name, path: path, off: ps.offset(is.Pos())})
		}
	}
	return out, nil
}

// packageName is the name a package is known by when imported without
// one.
func packageName(path string) string {
	name := path[strings.LastIndexByte(path, '/')+1:]
	if path == "math/rand/v2" {
		return "rand"
	}
	return name
}

// resolution finds what a compiled cell uses of the session: the
// declarations it carries in and the packages it imports.
type resolution struct {
	p        *Prepared
	st       *State
	own      []importSpec
	imports  map[string]string // package name → path, added by the rendering
	carried  map[*declEntry]bool
	cellDecl map[string]bool
	usesData bool // the program imports award_data (set by writeImports)
}

// use is a name to resolve: where the cell uses it (directly, or through
// a carried declaration via).
type use struct {
	name string
	off  int
	via  *declEntry
}

func (r *resolution) resolve() error {
	r.cellDecl = map[string]bool{}
	for _, e := range cellDecls(r.p) {
		for _, n := range e.names {
			r.cellDecl[n] = true
		}
	}
	for _, n := range cellVars(r.p) {
		r.cellDecl[n] = true
	}
	ownNames := map[string]bool{}
	for _, is := range r.own {
		name := is.name
		if name == "" {
			name = packageName(is.path)
		}
		ownNames[name] = true
	}
	queue := r.cellFree()
	seen := map[string]bool{}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if seen[u.name] || r.cellDecl[u.name] {
			continue
		}
		seen[u.name] = true
		if e := r.st.store.decls[u.name]; e != nil {
			queue = append(queue, r.carry(e, u.off)...)
			continue
		}
		if origin := r.st.store.vars[u.name]; origin != 0 {
			return r.varError(u, origin)
		}
		if ownNames[u.name] {
			continue
		}
		path, err := r.packageFor(u.name)
		if err != nil {
			return err
		}
		if path != "" {
			r.imports[u.name] = path
		}
	}
	return nil
}

// carry adds e (and, for a type, its methods) to the program and returns
// the names they use.
func (r *resolution) carry(e *declEntry, off int) []use {
	var more []use
	add := func(e *declEntry) {
		if r.carried[e] {
			return
		}
		r.carried[e] = true
		for _, n := range e.free {
			more = append(more, use{name: n, off: off, via: e})
		}
	}
	add(e)
	for _, n := range e.names {
		for _, m := range sortedMethods(r.st.store.methods[n]) {
			add(m)
		}
	}
	return more
}

func sortedMethods(m map[string]*declEntry) []*declEntry {
	out := make([]*declEntry, 0, len(m))
	for _, e := range m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// cellFree returns the names the cell uses without declaring, with the
// offset of each one's first use, in the order of those uses.
func (r *resolution) cellFree() []use {
	segs := make([]segment, len(r.p.parsed))
	var declIdx, stmtIdx []int
	for i := range r.p.parsed {
		segs[i] = r.p.parsed[i].segment
		if segs[i].decl {
			declIdx = append(declIdx, i)
		} else {
			stmtIdx = append(stmtIdx, i)
		}
	}
	first := map[string]int{}
	collect := func(prefix, suffix string, idx []int) {
		if len(idx) == 0 {
			return
		}
		offs := map[string]int{}
		freeNames(prefix+blankOthers(r.p.code, segs, idx)+suffix, offs)
		for n, o := range offs {
			o -= len(prefix)
			if prev, ok := first[n]; !ok || o < prev {
				first[n] = o
			}
		}
	}
	collect(declPrefix, "\n", declIdx)
	collect(stmtPrefix, "\n}", stmtIdx)
	out := make([]use, 0, len(first))
	for n, o := range first {
		out = append(out, use{name: n, off: o})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].off < out[j].off || out[i].off == out[j].off && out[i].name < out[j].name
	})
	return out
}

// packageFor returns the import path of the package a cell means by
// name: one an earlier cell imported under that name, else one every
// session has; "" when name is no package.
func (r *resolution) packageFor(name string) (string, error) {
	if path, ok := r.st.store.imports[name]; ok {
		if !allowlist.Allowed(path) {
			return "", &NotCompilableError{Reason: "the cell uses " + name + " (" + path + "), a package of a module declared with //sbir:require, which compiled cells cannot link yet"}
		}
		return path, nil
	}
	for _, path := range allowlist.Preimported() {
		if packageName(path) == name {
			return path, nil
		}
	}
	return "", nil
}

// varError explains a compiled cell's use of a session variable.
func (r *resolution) varError(u use, origin varOrigin) error {
	line, col := r.p.lt.pos(u.off)
	who := u.name
	if u.via != nil {
		who = fmt.Sprintf("%s, declared in an earlier cell, uses %s:", entryName(u.via), u.name)
	}
	var msg string
	switch origin {
	case compiledVar:
		msg = fmt.Sprintf("%s is a variable of an earlier compiled cell, whose values ended with it (a compiled cell runs as a program of its own): declare and compute %s in this cell", who, u.name)
	default:
		instead := "remove " + CompileDirective + " to run the cell interpreted"
		if r.p.hasMain {
			instead = "run the code as a cell without func main, which the interpreter runs in the session"
		}
		msg = fmt.Sprintf("%s is a variable of this session, set by an interpreted cell; a compiled cell runs as a program of its own and sees the session's functions, types and constants but not its variables' values: compute %s in this cell, or %s", who, u.name, instead)
	}
	if u.via != nil {
		msg = strings.Replace(msg, who+" is a variable", who+" it is a variable", 1)
	}
	return &CompileError{Line: line, Column: col, Msg: msg}
}

// entryName names a declaration in messages.
func entryName(e *declEntry) string {
	if e.recv != "" {
		return e.recv + "." + e.method
	}
	return strings.Join(e.names, ", ")
}
