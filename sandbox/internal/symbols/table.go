package symbols

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"io"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"
)

// Project packages and the import paths cells use for them.
const (
	awardDataPath = "github.com/sbirtools/sbir-kernel/award_data"
	displayPath   = "github.com/sbirtools/sbir-kernel/display"
)

// aliases maps the import path of an extracted project package to the
// short path cells import it by.
var aliases = map[string]string{
	awardDataPath: "award_data",
	displayPath:   "display",
}

// removed lists members of allowed packages that reach outside the
// sandbox or run interpreted code on goroutines the sandbox does not
// control.
var removed = map[string][]string{
	// AfterFunc runs its callback on a new goroutine, where a panic kills
	// the worker; LoadLocation reads the host's zoneinfo files.
	"time": {"AfterFunc", "LoadLocation"},
}

// Options customises the table.
type Options struct {
	// Sleep replaces time.Sleep. The sandbox's version returns early (by
	// panicking) when the cell is interrupted; a blocked compiled call
	// would otherwise outlive its cell.
	Sleep func(time.Duration)
	// Stdin, Stdout and Stderr are the cell's streams, which cells reach
	// as os.Stdin, os.Stdout and os.Stderr (the only members of "os").
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Exports returns a fresh symbol table for one interpreter: every allowed
// package under the path cells import it by, exported variables copied
// (a cell assigning io.EOF changes only its own copy), dangerous members
// removed and time.Sleep replaced.
func Exports(opts Options) interp.Exports {
	out := make(interp.Exports, len(Symbols))
	for key, syms := range Symbols {
		dir, name := splitKey(key)
		if alias, ok := aliases[dir]; ok {
			dir, name = alias, alias
		}
		m := make(map[string]reflect.Value, len(syms))
		for sym, v := range syms {
			m[sym] = copyValue(v)
		}
		for _, sym := range removed[dir] {
			delete(m, sym)
		}
		if dir == "time" && opts.Sleep != nil {
			m["Sleep"] = reflect.ValueOf(opts.Sleep)
		}
		out[dir+"/"+name] = m
	}
	out["os/os"] = osStreams(opts)
	return out
}

// sourcePackages are the generic packages yaegi compiles from source when
// the table is loaded, with the functions they provide.
var sourcePackages = map[string][]string{
	"cmp":    {"Compare", "Less", "Or", "Ordered"},
	"maps":   {"Clone", "Copy", "DeleteFunc", "Equal", "EqualFunc"},
	"slices": {"BinarySearch", "Clip", "Clone", "Compact", "CompactFunc", "Compare", "CompareFunc", "Concat", "Contains", "ContainsFunc", "Delete", "DeleteFunc", "Equal", "EqualFunc", "Grow", "Index", "IndexFunc", "Insert", "IsSorted", "Max", "Min", "Replace", "Reverse", "Sort", "SortFunc", "SortStableFunc"},
}

// Packages returns the import paths cells may use, sorted.
func Packages() []string {
	ps := []string{"os"}
	for p := range sourcePackages {
		ps = append(ps, p)
	}
	for key := range Symbols {
		dir, _ := splitKey(key)
		if alias, ok := aliases[dir]; ok {
			dir = alias
		}
		ps = append(ps, dir)
	}
	sort.Strings(ps)
	return ps
}

// Members returns the exported names of an allowed package (by the path
// cells import it with), sorted, or nil when the package is not allowed.
func Members(path string) []string {
	if path == "os" {
		return []string{"Stderr", "Stdin", "Stdout"}
	}
	if names, ok := sourcePackages[path]; ok {
		return append([]string(nil), names...)
	}
	for key, syms := range Symbols {
		dir, _ := splitKey(key)
		if alias, ok := aliases[dir]; ok {
			dir = alias
		}
		if dir != path {
			continue
		}
		var names []string
		for sym := range syms {
			if strings.HasPrefix(sym, "_") {
				continue // yaegi's interface wrappers
			}
			names = append(names, sym)
		}
		for _, r := range removed[dir] {
			names = deleteString(names, r)
		}
		sort.Strings(names)
		return names
	}
	return nil
}

func deleteString(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// splitKey splits "math/rand/rand" into "math/rand" and "rand".
func splitKey(key string) (dir, name string) {
	i := strings.LastIndexByte(key, '/')
	return key[:i], key[i+1:]
}

// copyValue returns v, or a private copy of it when v is an exported
// variable (extract exposes those as addressable values aliasing the
// host's variable).
func copyValue(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanAddr() || v.Kind() == reflect.Func {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
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

var (
	docOnce  sync.Once
	docIndex map[string]map[string]Entry
)

// Doc returns the documentation of name ("Println", "Builder.WriteString",
// or "" for the package itself) in the allowed package path ("fmt",
// "award_data").
func Doc(path, name string) (Entry, bool) {
	if path == "os" {
		e, ok := osDocs[name]
		return e, ok
	}
	docOnce.Do(loadDocIndex)
	for full, alias := range aliases {
		if path == alias {
			path = full
		}
	}
	e, ok := docIndex[path][name]
	return e, ok
}

func loadDocIndex() {
	docIndex = map[string]map[string]Entry{}
	zr, err := gzip.NewReader(bytes.NewReader(docIndexGz))
	if err != nil {
		return
	}
	_ = json.NewDecoder(zr).Decode(&docIndex)
}

//go:embed slices_extra.go.txt
var slicesExtra string

// Supplements returns Go source files to compile into every interpreter
// after Exports: generic functions yaegi's bundled sources lack.
func Supplements() []string { return []string{slicesExtra} }
