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
	"strings"

	"github.com/traefik/yaegi/extract"
)

// stdPackages is the allow-list of standard packages cells may use.
// Keep it free of anything that reaches files, the network, processes,
// the runtime or reflection (see ../../../doc.go and the hardening notes).
var stdPackages = []string{
	"bufio", "bytes", "cmp", "container/heap", "container/list", "container/ring",
	"crypto/md5", "crypto/sha256", "encoding/base64", "encoding/csv", "encoding/hex",
	"encoding/json", "errors", "fmt", "hash/crc32", "hash/fnv", "html", "io", "maps",
	"math", "math/big", "math/bits", "math/cmplx", "math/rand", "regexp", "slices", "sort",
	"strconv", "strings", "text/tabwriter", "time", "unicode", "unicode/utf16", "unicode/utf8",
}

// sourceOnly are generic packages that yaegi provides as interpreted
// source (plus ../slices_extra.go.txt): extracting them would shadow the
// generic functions with an empty binary package.
var sourceOnly = map[string]bool{"cmp": true, "maps": true, "slices": true}

// projectPackages are the project's packages exposed to cells, with the
// exported names that are host-side hooks and must stay invisible.
var projectPackages = []struct {
	path    string
	exclude []string
}{
	{"github.com/sbirtools/sbir-kernel/award_data", []string{"^Use$"}},
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
			if err := extractPackage(p, nil); err != nil {
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
	for _, f := range old {
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
