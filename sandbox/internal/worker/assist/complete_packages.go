package assist

import (
	"bytes"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/textcut"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"

	"github.com/sbirtools/sbir-kernel/internal/importpath"

	"golang.org/x/mod/module"
)

// Bounds on the third-party source read for completion and inspection: a
// package is read at most once per worker, and a hostile or huge package
// costs at most this much.
const (
	maxDocFileBytes  = 1 << 20  // a larger .go file is skipped
	maxDocFiles      = 200      // files read per package
	maxDocTotalBytes = 16 << 20 // source bytes read per package
	maxDocPackages   = 200      // packages (or failed lookups) cached per worker
	maxCellImports   = 50       // imports of the edited cell considered per request
	maxDocSigBytes   = 600      // a longer declaration is cut
	maxDocTextBytes  = 1500     // a longer doc comment is cut
)

// sourceDocs answers completion and inspection for the third-party
// packages of a worker's package environment, from their source. It is
// used only from the worker's serve goroutine, so it needs no lock.
type sourceDocs struct {
	dir     string              // the environment's root (GOPATH layout), "" for none
	root    *os.Root            // dir, opened on first use; nil if it cannot be
	opened  bool                // root was tried
	pkgs    map[string]*pkgDocs // by import path; nil: unreadable
	imports map[string]bool     // "name path" of the imports of cells that ran ("" name: the package's)
}

// pkgDocs is the exported API of one package, read from its source.
type pkgDocs struct {
	name    string                     // the package clause's name
	members []string                   // exported package-level names, sorted
	entries map[string]allowlist.Entry // by Name, Type.Method and "" (the package)
}

func newSourceDocs(dir string) *sourceDocs {
	return &sourceDocs{dir: dir, pkgs: map[string]*pkgDocs{}, imports: map[string]bool{}}
}

// noteImports records the third-party imports of the chunks of a cell
// about to run. It reads no package: an import without a name is
// resolved when completion or inspection first needs it.
func (d *sourceDocs) noteImports(chunks []wire.Chunk) {
	if d == nil || d.dir == "" {
		return
	}
	for _, c := range chunks {
		scanImports(c.Code, func(name, p string) {
			if len(d.imports) < maxDocPackages && thirdPartyPath(p) {
				d.imports[name+" "+p] = true
			}
		})
	}
}

// each calls f with the name each third-party import of the session, and
// of the cell being edited (code), binds and that package's API, until f
// returns false. The name of an import without one is its package's. If
// want is not "", imports named otherwise are skipped without reading them.
func (d *sourceDocs) each(code, want string, f func(name string, pd *pkgDocs) bool) {
	if d == nil || d.dir == "" {
		return
	}
	visit := func(name, p string) bool {
		if want != "" && name != "" && name != want {
			return true
		}
		pd := d.load(p)
		if pd == nil {
			return true
		}
		if name == "" {
			name = pd.name
		}
		return f(name, pd)
	}
	more, n := true, 0
	scanImports(code, func(name, p string) {
		if n++; more && n <= maxCellImports {
			more = visit(name, p)
		}
	})
	keys := make([]string, 0, len(d.imports))
	for k := range d.imports {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !more {
			return
		}
		name, p, _ := strings.Cut(k, " ")
		more = visit(name, p)
	}
}

// lookup returns the API of the third-party package that code, or the
// session, imports as name; nil if there is none.
func (d *sourceDocs) lookup(code, name string) *pkgDocs {
	var found *pkgDocs
	d.each(code, name, func(n string, pd *pkgDocs) bool {
		if n == name {
			found = pd
			return false
		}
		return true
	})
	return found
}

// names returns the names the session's and the cell's third-party
// imports bind.
func (d *sourceDocs) names(code string) []string {
	var out []string
	d.each(code, "", func(n string, _ *pkgDocs) bool {
		out = append(out, n)
		return true
	})
	return out
}

// load returns the API of the package at import path p, reading it the
// first time; nil if it is not a third-party package of the environment
// or cannot be read.
func (d *sourceDocs) load(p string) *pkgDocs {
	if pd, ok := d.pkgs[p]; ok {
		return pd
	}
	if !thirdPartyPath(p) {
		return nil
	}
	if !d.opened {
		d.opened = true
		if r, err := os.OpenRoot(d.dir); err == nil {
			d.root = r
		}
	}
	if d.root == nil {
		return nil
	}
	pd := readPkgDocs(d.root, p)
	if len(d.pkgs) < maxDocPackages {
		d.pkgs[p] = pd
	}
	return pd
}

// thirdPartyPath reports whether p is a well-formed import path outside
// the standard library: one that may name a package of the environment.
// Malformed paths (.., absolute, backslashes) are never opened.
func thirdPartyPath(p string) bool {
	if module.CheckImportPath(p) != nil || importpath.IsStdlib(p) {
		return false
	}
	for _, allowed := range allowlist.Packages() {
		if p == allowed {
			return false
		}
	}
	return true
}

// readPkgDocs parses the package at import path p beneath root (src/p) and
// documents its exported API. Only regular files are read: symbolic links
// are skipped, and root keeps every open inside the environment. Files the
// interpreter would not load (tests, other systems' build constraints, cgo)
// are skipped too.
func readPkgDocs(root *os.Root, p string) *pkgDocs {
	dir := path.Join("src", p)
	f, err := root.Open(dir)
	if err != nil {
		return nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil
	}
	ctx := build.Default
	ctx.CgoEnabled = false
	ctx.UseAllFiles = false
	ctx.JoinPath = path.Join
	ctx.OpenFile = func(name string) (io.ReadCloser, error) { return root.Open(name) }
	fset := token.NewFileSet()
	var files []*ast.File
	var pkgName string
	total := 0
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if len(files) >= maxDocFiles {
			break
		}
		info, err := e.Info()
		if err != nil || info.Size() > maxDocFileBytes || total+int(info.Size()) > maxDocTotalBytes {
			continue
		}
		if ok, err := ctx.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		src, err := readBounded(root, path.Join(dir, name), maxDocFileBytes)
		if err != nil {
			continue
		}
		total += len(src)
		file, err := parser.ParseFile(fset, path.Join(p, name), src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil || importsC(file) {
			continue
		}
		if pkgName == "" {
			pkgName = file.Name.Name
		} else if file.Name.Name != pkgName {
			continue
		}
		files = append(files, file)
	}
	if len(files) == 0 || pkgName == "main" {
		return nil
	}
	dp, err := doc.NewFromFiles(fset, files, p)
	if err != nil {
		return nil
	}
	return documentPackage(fset, dp)
}

// importsC reports whether f uses cgo, which the interpreter cannot load.
func importsC(f *ast.File) bool {
	for _, is := range f.Imports {
		if is.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// readBounded reads the regular file name beneath root, refusing it if it
// is longer than limit (it may have grown since it was listed).
func readBounded(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fs.ErrInvalid
	}
	return b, nil
}

// documentPackage indexes the exported API of dp as the standard library's
// documentation is indexed (see package symbols): by Name, Type.Method, and
// "" for the package itself.
func documentPackage(fset *token.FileSet, dp *doc.Package) *pkgDocs {
	pd := &pkgDocs{name: dp.Name, entries: map[string]allowlist.Entry{}}
	pd.entries[""] = allowlist.Entry{Sig: "package " + dp.Name, Doc: clipText(dp.Doc, maxDocTextBytes)}
	member := func(name string, e allowlist.Entry) {
		if !ast.IsExported(name) {
			return
		}
		if _, dup := pd.entries[name]; !dup {
			pd.members = append(pd.members, name)
		}
		pd.entries[name] = e
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			e := allowlist.Entry{Sig: declText(fset, v.Decl), Doc: clipText(v.Doc, maxDocTextBytes)}
			for _, n := range v.Names {
				member(n, e)
			}
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			member(f.Name, allowlist.Entry{Sig: declText(fset, f.Decl), Doc: clipText(f.Doc, maxDocTextBytes)})
		}
	}
	values(dp.Consts)
	values(dp.Vars)
	funcs(dp.Funcs)
	for _, t := range dp.Types {
		member(t.Name, allowlist.Entry{Sig: declText(fset, t.Decl), Doc: clipText(t.Doc, maxDocTextBytes)})
		// Constants, variables and constructors of a type are members of
		// the package too.
		values(t.Consts)
		values(t.Vars)
		funcs(t.Funcs)
		for _, m := range t.Methods {
			if ast.IsExported(m.Name) {
				pd.entries[t.Name+"."+m.Name] = allowlist.Entry{Sig: declText(fset, m.Decl), Doc: clipText(m.Doc, maxDocTextBytes)}
			}
		}
	}
	sort.Strings(pd.members)
	return pd
}

// declText prints a declaration without its body and doc comments.
func declText(fset *token.FileSet, n ast.Node) string {
	switch d := n.(type) {
	case *ast.FuncDecl:
		d.Body, d.Doc = nil, nil
	case *ast.GenDecl:
		d.Doc = nil
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				s.Doc, s.Comment = nil, nil
			case *ast.ValueSpec:
				s.Doc, s.Comment = nil, nil
			}
		}
	}
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces, Tabwidth: 4}
	if err := cfg.Fprint(&b, fset, n); err != nil {
		return ""
	}
	return clipText(b.String(), maxDocSigBytes)
}

// clipText cuts s to at most limit bytes, on a rune boundary, marking the cut.
func clipText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	return textcut.Prefix(s, limit) + "\n..."
}

// scanImports calls add with the name ("" when the import has none) and
// path of each import of src, a cell or a chunk, which may be incomplete
// Go: it scans tokens rather than parsing. Blank and dot imports are
// skipped; they bind no name.
func scanImports(src string, add func(name, path string)) {
	if !strings.Contains(src, "import") {
		return
	}
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	const (
		outside = iota
		single  // after the import keyword
		group   // inside import ( ... )
	)
	state, name := outside, ""
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return
		}
		if state == outside {
			if tok == token.IMPORT {
				state, name = single, ""
			}
			continue
		}
		switch tok {
		case token.LPAREN:
			if state == single && name == "" {
				state = group
			} else {
				state = outside
			}
		case token.IDENT:
			name = lit
		case token.PERIOD:
			name = "."
		case token.STRING:
			if p, err := strconv.Unquote(lit); err == nil && name != "_" && name != "." {
				add(name, p)
			}
			name = ""
			if state == single {
				state = outside
			}
		case token.SEMICOLON:
			name = ""
		default:
			state = outside
		}
	}
}
