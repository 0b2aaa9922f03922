// Command gen writes the sandbox's symbol table (zz_*.go files made by
// yaegi's extractor) and its documentation index (docindex.json.gz) into the
// current directory, which must be sandbox/internal/symbols. It is run by
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

// projectPackages are the project's packages exposed to cells, with the
// exported names that are host-side hooks and must stay invisible.
var projectPackages = []struct {
	path    string
	exclude []string
}{
	{"github.com/sbirtools/sbir-kernel/award_data", []string{"^Use$", "^SetRecordWindow$"}},
	{"github.com/sbirtools/sbir-kernel/display", []string{"^SetSink$"}},
}

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
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	if err := enc.Encode(index); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return writeAtomic("docindex.json.gz", buf.Bytes())
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
	tmp := "." + name + ".tmp"
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
	bp, err := build.Import(path, ".", 0)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	imports := map[string]string{} // package name -> path, of the signatures' types
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, 0)
		if err != nil {
			return err
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
		return err
	}
	skip := func(name string) bool {
		for _, e := range exclude {
			if strings.Trim(e, "^$") == name {
				return true
			}
		}
		return !ast.IsExported(name)
	}
	var body bytes.Buffer
	used := map[string]bool{}
	typeText := func(e ast.Expr) string {
		ast.Inspect(e, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					used[id.Name] = true
				}
			}
			return true
		})
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, e)
		return b.String()
	}
	values := func(vs []*doc.Value, kw string) {
		for _, v := range vs {
			for _, n := range v.Names {
				if !skip(n) {
					fmt.Fprintf(&body, "%s %s = _b.%s\n", kw, n, n)
				}
			}
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			ft := f.Decl.Type
			if skip(f.Name) || f.Decl.Recv != nil || ft.TypeParams != nil {
				continue
			}
			var params, args []string
			i := 0
			for _, p := range ft.Params.List {
				n := max(1, len(p.Names))
				for range n {
					name := fmt.Sprintf("p%d", i)
					i++
					t := p.Type
					if el, ok := t.(*ast.Ellipsis); ok {
						params = append(params, name+" ..."+typeText(el.Elt))
						args = append(args, name+"...")
						continue
					}
					params = append(params, name+" "+typeText(t))
					args = append(args, name)
				}
			}
			var results []string
			if ft.Results != nil {
				for _, r := range ft.Results.List {
					for range max(1, len(r.Names)) {
						results = append(results, typeText(r.Type))
					}
				}
			}
			if strings.Contains(strings.Join(append(params, results...), ","), "unsafe.") {
				continue // unsafe is not allowed (atomic.LoadPointer...)
			}
			call := "_b." + f.Name + "(" + strings.Join(args, ", ") + ")"
			res := ""
			switch len(results) {
			case 0:
			case 1:
				res, call = " "+results[0], "return "+call
			default:
				res, call = " ("+strings.Join(results, ", ")+")", "return "+call
			}
			fmt.Fprintf(&body, "func %s(%s)%s { %s }\n", f.Name, strings.Join(params, ", "), res, call)
		}
	}
	values(pkg.Consts, "const")
	values(pkg.Vars, "var")
	funcs(pkg.Funcs)
	for _, t := range pkg.Types {
		if skip(t.Name) {
			continue
		}
		generic := false
		for _, sp := range t.Decl.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok && ts.Name.Name == t.Name && ts.TypeParams != nil {
				generic = true
			}
		}
		if !generic {
			fmt.Fprintf(&body, "type %s = _b.%s\n", t.Name, t.Name)
		}
		values(t.Consts, "const")
		values(t.Vars, "var")
		funcs(t.Funcs)
	}
	var src bytes.Buffer
	fmt.Fprintf(&src, "// Code generated by internal/gen: package %s forwards to its compiled members. DO NOT EDIT.\n\n", path)
	fmt.Fprintf(&src, "package %s\n\nimport (\n\t_b %q\n", pkg.Name, "_sbirbin/"+path)
	var names []string
	for n := range used {
		if imports[n] != "" && n != "unsafe" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&src, "\t%s %q\n", n, imports[n])
	}
	src.WriteString(")\n\n")
	src.Write(body.Bytes())
	outputs["zz_fwd_"+strings.ReplaceAll(path, "/", "_")+".go.txt"] = src.Bytes()
	return nil
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
