// Command gen writes the sandbox's symbol table (zz_*.go files made by
// yaegi's extractor) into the current directory, which must be
// sandbox/internal/symbols, and the allow-list without values (the package
// list, zz_packages.go, and the documentation index, docindex.json.gz) into
// ../allowlist, so that the two cannot drift. It is run by
// go generate ./sandbox/...
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/traefik/yaegi/extract"
)

// stdPackages is the allow-list of standard packages cells may use.
// Keep it free of anything that reaches files, the network, processes,
// the runtime or reflection (see ../../../doc.go and the hardening notes).
// ../ALLOWLIST.md says why each is in and why the others are out.
var stdPackages = []string{
	"bufio", "bytes", "cmp", "compress/bzip2", "compress/flate", "compress/gzip",
	"compress/lzw", "compress/zlib", "container/heap", "container/list", "container/ring",
	"context", "crypto/hmac", "crypto/md5", "crypto/sha1", "crypto/sha256", "crypto/sha3",
	"crypto/sha512", "crypto/subtle", "encoding", "encoding/ascii85", "encoding/base32",
	"encoding/base64", "encoding/binary", "encoding/csv", "encoding/hex", "encoding/json",
	"encoding/pem", "encoding/xml", "errors", "fmt", "hash", "hash/adler32", "hash/crc32",
	"hash/crc64", "hash/fnv", "hash/maphash", "html", "html/template", "image", "image/color",
	"io", "io/fs", "iter", "log",
	"maps", "math", "math/big", "math/bits", "math/cmplx", "math/rand", "math/rand/v2",
	"net/netip", "net/url", "path", "regexp", "regexp/syntax", "slices", "sort", "strconv",
	"strings", "sync", "sync/atomic", "text/scanner", "text/tabwriter", "text/template",
	"time", "unicode", "unicode/utf16", "unicode/utf8",
}

// sourceOnly are generic packages that yaegi provides as interpreted
// source (plus ../*_extra.go.txt): extracting them would shadow the
// generic functions with an empty binary package.
var sourceOnly = map[string]bool{"cmp": true, "iter": true, "maps": true, "slices": true}

// mixed are packages with both compiled members and generic ones
// (sync.OnceValue, rand.N). Their compiled
// members are extracted under the hidden path "_sbirbin/<path>", and a
// generated source package <path> forwards to them
// (zz_fwd_<pkg>.go.txt), to which ../*_extra.go.txt add the generic ones:
// yaegi resolves an import as either compiled or source, never both.
// errors (AsType) and sync/atomic (Pointer) are not: forwarding errors.Is
// through interpreted code loses the identity of compiled error values,
// and yaegi cannot complete a generic type of a package compiled under a
// path that is not its name (atomic.Pointer[T]). See ../ALLOWLIST.md.
var mixed = map[string]bool{"math/rand/v2": true, "sync": true}

// projectPackages are the project's packages exposed to cells, the short
// path cells import each by, and the exported names that are host-side
// hooks and must stay invisible.
var projectPackages = []struct {
	path, short string
	exclude     []string
}{
	{"github.com/sbirtools/sbir-kernel/award_data", "award_data", []string{"^Use$", "^SetRecordWindow$"}},
	{"github.com/sbirtools/sbir-kernel/display", "display", []string{"^SetSink$"}},
}

// allowlistDir is where the allow-list without values is written,
// relative to the symbol table's directory.
const allowlistDir = "../allowlist"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox/internal/symbols/internal/gen:", err)
		os.Exit(1)
	}
}

func run() error {
	index := map[string]map[string]entry{}
	for _, p := range stdPackages {
		if !sourceOnly[p] {
			if err := extractPackage(p, excludes[p]); err != nil {
				return err
			}
		}
		if mixed[p] {
			if err := forward(p, append(excludes[p], sourceDefined[p]...)); err != nil {
				return err
			}
		}
		if err := document(index, p, nil); err != nil {
			return err
		}
	}
	for _, p := range projectPackages {
		if _, err := build.Import(p.path, ".", build.FindOnly); err != nil {
			fmt.Fprintf(os.Stderr, "gen: skipping %s: %v\n", p.path, err)
			continue
		}
		if err := extractPackage(p.path, p.exclude); err != nil {
			return err
		}
		if err := document(index, p.path, p.exclude); err != nil {
			return err
		}
	}
	// Replace files only now, each atomically, and drop stale ones last:
	// other engineers build the package while this runs.
	for name, content := range outputs {
		if err := writeAtomic(name, content); err != nil {
			return err
		}
	}
	old, _ := filepath.Glob("zz_*.go")
	olds, _ := filepath.Glob("zz_*.go.txt")
	for _, f := range append(old, olds...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if _, ok := outputs[f]; !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	if err := writeAtomic(filepath.Join(allowlistDir, "zz_packages.go"), packageList()); err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	if err := enc.Encode(index); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(allowlistDir, "docindex.json.gz"), buf.Bytes())
}

// packageList returns the source of the allow-list's package list: the
// allowed standard packages, os (which symbols replaces by the cell's own
// streams), and the project's packages under their short paths.
func packageList() []byte {
	ps := append([]string{"os"}, stdPackages...)
	var b bytes.Buffer
	b.WriteString("// Code generated by sandbox/internal/symbols/internal/gen. DO NOT EDIT.\n\npackage allowlist\n\n")
	b.WriteString("// projectPaths maps the short path cells import a project package by to\n// its import path.\nvar projectPaths = map[string]string{\n")
	for _, p := range projectPackages {
		fmt.Fprintf(&b, "\t%q: %q,\n", p.short, p.path)
		ps = append(ps, p.short)
	}
	b.WriteString("}\n\n// packages are the import paths cells may use, sorted.\nvar packages = []string{\n")
	sort.Strings(ps)
	for _, p := range ps {
		fmt.Fprintf(&b, "\t%q,\n", p)
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		panic(err) // the generator's own template is wrong
	}
	return out
}

// excludes are members of allowed packages that are never extracted:
// they reach the host (files, the process, host-wide state), run cell
// code on goroutines the sandbox does not control, or hand out reflect
// values. ../ALLOWLIST.md lists them with the reasons; table.go replaces
// a few more per interpreter.
var excludes = map[string][]string{
	"context":       {"^AfterFunc$"},
	"html/template": {"^ParseFS$", "^ParseFiles$", "^ParseGlob$"},
	// A process-wide registry: a cell's decoder would be called by later
	// cells' image.Decode.
	"image":         {"^RegisterFormat$"},
	"text/template": {"^ParseFS$", "^ParseFiles$", "^ParseGlob$"},
	"time":          {"^AfterFunc$", "^LoadLocation$"},
	"log":           {"^Logger$", "^Default$", "^Fatal$", "^Fatalf$", "^Fatalln$", "^New$", "^SetOutput$", "^Writer$", "^Output$"},
}

// sourceDefined are members of mixed packages that ../*_extra.go.txt
// define in source instead of forwarding: sync.WaitGroup, whose compiled
// Go method would start a goroutine the sandbox does not supervise (the
// source WaitGroup starts it through the worker's supervised starter).
var sourceDefined = map[string][]string{
	"sync": {"^WaitGroup$"},
}

// outputs collects the generated files before any is written.
var outputs = map[string][]byte{}

// writeAtomic replaces name with content through a rename.
func writeAtomic(name string, content []byte) error {
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp")
	if err := os.WriteFile(tmp, content, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// forward writes zz_fwd_<pkg>.go.txt: the source package path whose
// non-generic members forward to the compiled package "_sbirbin/<path>".
// Functions are forwarded by declarations, not by variables holding the
// compiled function: yaegi converts interpreted values for a compiled
// call (an interpreted error type to error) only when it calls the
// compiled function directly.
func forward(path string, exclude []string) error {
	pkg, fset, imports, err := parseForForward(path)
	if err != nil {
		return err
	}
	f := &forwarder{fset: fset, exclude: exclude, used: map[string]bool{}}
	f.values(pkg.Consts, "const")
	f.values(pkg.Vars, "var")
	f.funcs(pkg.Funcs)
	for _, t := range pkg.Types {
		if f.skip(t.Name) {
			continue
		}
		if !isGeneric(t) {
			fmt.Fprintf(&f.body, "type %s = _b.%s\n", t.Name, t.Name)
		}
		f.values(t.Consts, "const")
		f.values(t.Vars, "var")
		f.funcs(t.Funcs)
	}
	outputs["zz_fwd_"+strings.ReplaceAll(path, "/", "_")+".go.txt"] = f.source(pkg.Name, path, imports)
	return nil
}

// parseForForward parses the package path's files (without comments) and
// returns its documentation, the file set and the packages its files
// import, by the name they are used with.
func parseForForward(path string) (*doc.Package, *token.FileSet, map[string]string, error) {
	bp, err := build.Import(path, ".", 0)
	if err != nil {
		return nil, nil, nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	imports := map[string]string{} // package name -> path, of the signatures' types
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
		for _, is := range f.Imports {
			p := strings.Trim(is.Path.Value, `"`)
			n := p[strings.LastIndexByte(p, '/')+1:]
			if is.Name != nil {
				n = is.Name.Name
			}
			imports[n] = p
		}
	}
	pkg, err := doc.NewFromFiles(fset, files, path, doc.PreserveAST)
	if err != nil {
		return nil, nil, nil, err
	}
	return pkg, fset, imports, nil
}

// isGeneric reports whether the type t declares type parameters.
func isGeneric(t *doc.Type) bool {
	for _, sp := range t.Decl.Specs {
		if ts, ok := sp.(*ast.TypeSpec); ok && ts.Name.Name == t.Name && ts.TypeParams != nil {
			return true
		}
	}
	return false
}

// forwarder writes the declarations of a forwarding package.
type forwarder struct {
	fset    *token.FileSet
	exclude []string
	body    bytes.Buffer
	used    map[string]bool // package names the signatures use
}

// skip reports whether the member name is left out: excluded, or not
// exported.
func (f *forwarder) skip(name string) bool {
	for _, e := range f.exclude {
		if strings.Trim(e, "^$") == name {
			return true
		}
	}
	return !ast.IsExported(name)
}

// typeText prints a type expression, noting the packages it uses.
func (f *forwarder) typeText(e ast.Expr) string {
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				f.used[id.Name] = true
			}
		}
		return true
	})
	var b bytes.Buffer
	_ = printer.Fprint(&b, f.fset, e)
	return b.String()
}

// values forwards constants or variables (kw).
func (f *forwarder) values(vs []*doc.Value, kw string) {
	for _, v := range vs {
		for _, n := range v.Names {
			if !f.skip(n) {
				fmt.Fprintf(&f.body, "%s %s = _b.%s\n", kw, n, n)
			}
		}
	}
}

// funcs forwards the non-generic functions by declarations that call the
// compiled ones.
func (f *forwarder) funcs(fs []*doc.Func) {
	for _, fn := range fs {
		ft := fn.Decl.Type
		if f.skip(fn.Name) || fn.Decl.Recv != nil || ft.TypeParams != nil {
			continue
		}
		params, args := f.params(ft)
		var results []string
		if ft.Results != nil {
			for _, r := range ft.Results.List {
				for range max(1, len(r.Names)) {
					results = append(results, f.typeText(r.Type))
				}
			}
		}
		if strings.Contains(strings.Join(append(params, results...), ","), "unsafe.") {
			continue // unsafe is not allowed (atomic.LoadPointer...)
		}
		call := "_b." + fn.Name + "(" + strings.Join(args, ", ") + ")"
		res := ""
		switch len(results) {
		case 0:
		case 1:
			res, call = " "+results[0], "return "+call
		default:
			res, call = " ("+strings.Join(results, ", ")+")", "return "+call
		}
		fmt.Fprintf(&f.body, "func %s(%s)%s { %s }\n", fn.Name, strings.Join(params, ", "), res, call)
	}
}

// params returns a function's parameters, named p0, p1, ..., and the
// arguments that pass them on.
func (f *forwarder) params(ft *ast.FuncType) (params, args []string) {
	i := 0
	for _, p := range ft.Params.List {
		for range max(1, len(p.Names)) {
			name := fmt.Sprintf("p%d", i)
			i++
			if el, ok := p.Type.(*ast.Ellipsis); ok {
				params = append(params, name+" ..."+f.typeText(el.Elt))
				args = append(args, name+"...")
				continue
			}
			params = append(params, name+" "+f.typeText(p.Type))
			args = append(args, name)
		}
	}
	return params, args
}

// source is the forwarding package's file: its clause, the imports its
// signatures use, and the declarations.
func (f *forwarder) source(name, path string, imports map[string]string) []byte {
	var src bytes.Buffer
	fmt.Fprintf(&src, "// Code generated by internal/gen: package %s forwards to its compiled members. DO NOT EDIT.\n\n", path)
	fmt.Fprintf(&src, "package %s\n\nimport (\n\t_b %q\n", name, "_sbirbin/"+path)
	var names []string
	for n := range f.used {
		if imports[n] != "" && n != "unsafe" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&src, "\t%s %q\n", n, imports[n])
	}
	src.WriteString(")\n\n")
	src.Write(f.body.Bytes())
	return src.Bytes()
}

func extractPackage(path string, exclude []string) error {
	ext := extract.Extractor{Dest: "symbols", Exclude: exclude}
	var buf bytes.Buffer
	importPath, err := ext.Extract(path, "", &buf)
	if err != nil {
		return fmt.Errorf("extract %s: %w", path, err)
	}
	name := "zz_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(importPath) + ".go"
	outputs[name] = buf.Bytes()
	return nil
}

// entry is one documented name: its declaration and its doc comment.
type entry struct {
	Sig string `json:"s"`
	Doc string `json:"d,omitempty"`
}

// document adds the exported API of package path to index, keyed by the
// package's import path and then by Name or Type.Method.
func document(index map[string]map[string]entry, path string, exclude []string) error {
	bp, err := build.Import(path, ".", 0)
	if err != nil {
		return fmt.Errorf("document %s: %w", path, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("document %s: %w", path, err)
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, path)
	if err != nil {
		return fmt.Errorf("document %s: %w", path, err)
	}
	m := map[string]entry{}
	excluded := func(name string) bool {
		for _, e := range exclude {
			if strings.Trim(e, "^$") == name {
				return true
			}
		}
		return !ast.IsExported(name)
	}
	decl := func(n ast.Node) string {
		var b bytes.Buffer
		switch d := n.(type) {
		case *ast.FuncDecl:
			d.Body = nil
			d.Doc = nil
		case *ast.GenDecl:
			d.Doc = nil
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					ts.Doc, ts.Comment = nil, nil
					trimStruct(ts)
				}
			}
		}
		cfg := printer.Config{Mode: printer.UseSpaces, Tabwidth: 4}
		_ = cfg.Fprint(&b, fset, n)
		s := b.String()
		if len(s) > 600 {
			s = s[:600] + "\n..."
		}
		return s
	}
	clip := func(s string) string {
		if len(s) > 1500 {
			return s[:1500] + "..."
		}
		return s
	}
	addValues := func(vs []*doc.Value) {
		for _, v := range vs {
			sig := decl(v.Decl)
			for _, n := range v.Names {
				if !excluded(n) {
					m[n] = entry{Sig: sig, Doc: clip(v.Doc)}
				}
			}
		}
	}
	addFuncs := func(prefix string, fs []*doc.Func) {
		for _, f := range fs {
			if !excluded(f.Name) {
				m[prefix+f.Name] = entry{Sig: decl(f.Decl), Doc: clip(f.Doc)}
			}
		}
	}
	m[""] = entry{Sig: "package " + pkg.Name, Doc: clip(pkg.Doc)}
	addValues(pkg.Consts)
	addValues(pkg.Vars)
	addFuncs("", pkg.Funcs)
	for _, t := range pkg.Types {
		if excluded(t.Name) {
			continue
		}
		m[t.Name] = entry{Sig: decl(t.Decl), Doc: clip(t.Doc)}
		addValues(t.Consts)
		addValues(t.Vars)
		addFuncs("", t.Funcs)
		addFuncs(t.Name+".", t.Methods)
	}
	index[path] = m
	return nil
}

// trimStruct drops unexported fields from a struct type declaration.
func trimStruct(ts *ast.TypeSpec) {
	st, ok := ts.Type.(*ast.StructType)
	if !ok || st.Fields == nil {
		return
	}
	var kept []*ast.Field
	for _, f := range st.Fields.List {
		var names []*ast.Ident
		for _, n := range f.Names {
			if n.IsExported() {
				names = append(names, n)
			}
		}
		if len(f.Names) == 0 || len(names) > 0 {
			f.Names = names
			f.Doc, f.Comment = nil, nil
			kept = append(kept, f)
		}
	}
	st.Fields.List = kept
}
