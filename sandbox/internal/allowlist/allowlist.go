// Package allowlist names the packages sandboxed cells may import and
// documents their members, without holding any of their values: the
// supervisor checks a cell's imports against it (package cellprep) without
// linking the worker's reflect symbol table (package symbols), and the
// worker answers inspect requests from its documentation index without
// reading GOROOT, which Landlock hides from it.
//
// The package list and the documentation index are written by the same
// generator as the symbol table (sandbox/internal/symbols/internal/gen), so
// the two cannot drift; symbols' tests check the table against [Packages].
//
// Regenerate with: go generate ./sandbox/...
package allowlist

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Packages returns the import paths cells may use, sorted: the allowed
// standard packages, os (the cell's own streams), and the project's
// packages under the short paths cells import them by (award_data,
// display).
func Packages() []string { return slices.Clone(packages) }

// Allowed reports whether cells may import path.
func Allowed(path string) bool {
	_, ok := slices.BinarySearch(packages, path)
	return ok
}

// RealPath returns the import path the package cells import as path is
// compiled under: the module path of a project package (award_data), path
// itself for a standard one.
func RealPath(path string) string {
	if real, ok := projectPaths[path]; ok {
		return real
	}
	return path
}

// ShortPath is RealPath's inverse: the path cells import the package
// compiled under real by.
func ShortPath(real string) string {
	for short, r := range projectPaths {
		if r == real {
			return short
		}
	}
	return real
}

// Preimported returns the packages a session imports before its first
// cell, so that cells need no imports: Packages, less those whose name
// another package already takes (math/rand/v2 after math/rand,
// html/template after text/template), which a cell must import itself.
func Preimported() []string {
	var ps []string
	taken := map[string]bool{}
	for _, p := range packages {
		name := p[strings.LastIndexByte(p, '/')+1:]
		if p == "math/rand/v2" {
			name = "rand"
		}
		if p == "html/template" {
			continue // text/template is the default "template"
		}
		if taken[name] {
			continue
		}
		taken[name] = true
		ps = append(ps, p)
	}
	return ps
}

// Entry documents one exported name.
type Entry struct {
	// Sig is the declaration, without body: "func Println(a ...any) (n int, err error)".
	Sig string `json:"s"`
	// Doc is the doc comment.
	Doc string `json:"d,omitempty"`
}

//go:embed docindex.json.gz
var docIndexGz []byte

// docIndex is the decoded documentation index: package import path (real,
// not short), then Name or Type.Method ("" for the package itself).
var docIndex = sync.OnceValue(func() map[string]map[string]Entry {
	index := map[string]map[string]Entry{}
	zr, err := gzip.NewReader(bytes.NewReader(docIndexGz))
	if err != nil {
		return index
	}
	_ = json.NewDecoder(zr).Decode(&index)
	return index
})

// Doc returns the documentation of name ("Println", "Builder.WriteString",
// or "" for the package itself) in the allowed package path ("fmt",
// "award_data").
func Doc(path, name string) (Entry, bool) {
	if path == "os" {
		e, ok := osDocs[name]
		return e, ok
	}
	e, ok := docIndex()[RealPath(path)][name]
	return e, ok
}

// Names returns the documented top-level exported names of the allowed
// package path (functions, types, variables and constants; no methods),
// sorted. It is the member list of the packages that are interpreted from
// source, which have no compiled values to list.
func Names(path string) []string {
	var names []string
	for name := range docIndex()[RealPath(path)] {
		if name != "" && !strings.Contains(name, ".") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
