package symbols

import (
	_ "embed"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
	"github.com/traefik/yaegi/interp"
)

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
	// Go starts f as a goroutine of the running cell, supervised as a go
	// statement's is; sync.WaitGroup.Go starts its goroutines with it.
	// Without it they are refused.
	Go func(f func())
	// Shows are compiled functions that display the values passed to them
	// as `any`, beside display.Show (the worker's catcher of a cell's
	// last value): a value of a cell's own type reaches them wrapped with
	// its display methods (see ValueInterfaces).
	Shows []reflect.Value
}

// Exports returns a fresh symbol table for one interpreter: every allowed
// package under the path cells import it by, exported variables copied
// (a cell assigning io.EOF changes only its own copy), dangerous members
// removed and time.Sleep replaced.
func Exports(opts Options) interp.Exports {
	out := make(interp.Exports, len(Symbols))
	for key, syms := range Symbols {
		dir, name := splitKey(key)
		if alias := allowlist.ShortPath(dir); alias != dir {
			// The interpreter finds the wrapper that lets a cell's type
			// satisfy one of the package's interfaces (a cell's Money as a
			// display.Bundler) by the interface's real package path; under
			// the alias alone it found none and dereferenced nil. Cells
			// cannot import the real path (it is not in Packages), and
			// wrappers are all it holds.
			if w := wrappers(syms); len(w) > 0 {
				out[key] = w
			}
			dir, name = alias, alias
		}
		m := make(map[string]reflect.Value, len(syms))
		for sym, v := range syms {
			m[sym] = copyValue(v)
		}
		for _, sym := range removed[dir] {
			delete(m, sym)
		}
		if dir == "errors" {
			m["As"] = reflect.ValueOf(errorsAs)
		}
		if dir == "context" {
			for sym, v := range contextParents {
				m[sym] = v
			}
		}
		if dir == "time" && opts.Sleep != nil {
			m["Sleep"] = reflect.ValueOf(opts.Sleep)
		}
		if dir == "sync" {
			start := opts.Go
			if start == nil {
				start = func(func()) { panic("sync: WaitGroup.Go: this interpreter cannot start goroutines") }
			}
			m["StartGoroutine"] = reflect.ValueOf(start)
		}
		if mixed[dir] {
			dir = hiddenPrefix + dir
		}
		out[dir+"/"+name] = m
	}
	out["os/os"] = osStreams(opts)
	addLog(out["log/log"], opts.Stderr)
	mt := mapTypes()
	for _, f := range opts.Shows {
		mt[f] = ValueInterfaces()
	}
	out["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(mt)}
	return out
}

// wrappers returns the interface wrappers among an extracted package's
// symbols (named "_" + the interface's name by yaegi extract).
func wrappers(syms map[string]reflect.Value) map[string]reflect.Value {
	m := map[string]reflect.Value{}
	for sym, v := range syms {
		if strings.HasPrefix(sym, "_") {
			m[sym] = v
		}
	}
	return m
}

// hiddenPrefix is where the compiled members of the mixed packages are
// (see Supplements); cells cannot import it, not being in Packages.
const hiddenPrefix = "_sbirbin/"

// mixed are the packages made of compiled members and generic source.
var mixed = map[string]bool{"math/rand/v2": true, "sync": true}

// sourceOnly are the packages yaegi compiles from source when the table
// is loaded (its bundled cmp, maps and slices, completed by Supplements,
// and iter): their members are those the doc index lists.
var sourceOnly = map[string]bool{"cmp": true, "iter": true, "maps": true, "slices": true}

// Members returns the exported names of an allowed package (by the path
// cells import it with), sorted, or nil when the package is not allowed.
func Members(path string) []string {
	if path == "os" {
		return []string{"Exit", "Stderr", "Stdin", "Stdout"}
	}
	if sourceOnly[path] || mixed[path] {
		names := allowlist.Names(path)
		for _, r := range removed[path] {
			names = deleteString(names, r)
		}
		sort.Strings(names)
		return names
	}
	for key, syms := range Symbols {
		if dir, _ := splitKey(key); allowlist.ShortPath(dir) != path {
			continue
		}
		var names []string
		for sym := range syms {
			if strings.HasPrefix(sym, "_") {
				continue // yaegi's interface wrappers
			}
			names = append(names, sym)
		}
		if path == "log" {
			names = append(names, logNames...)
		}
		names = append(names, sourceAdded[path]...)
		for _, r := range removed[path] {
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

//go:embed zz_fwd_sync.go.txt
var fwdSync string

//go:embed zz_fwd_math_rand_v2.go.txt
var fwdRand string

//go:embed slices_extra.go.txt
var slicesExtra string

//go:embed maps_extra.go.txt
var mapsExtra string

//go:embed iter_extra.go.txt
var iterSource string

//go:embed sync_extra.go.txt
var syncExtra string

//go:embed rand_extra.go.txt
var randExtra string

//go:embed errors_extra.go.txt
var errorsExtra string

// sourceAdded are the members that source (Install) adds to a compiled
// package of the same path, which yaegi looks up when the compiled
// package lacks them (yaegi patch 11c).
var sourceAdded = map[string][]string{"errors": {"AsType"}}

// Install compiles into in, which must already use Exports, the source
// packages of the table: the generic functions yaegi's bundled sources
// lack (slices, maps, iter), and the mixed packages (sync,
// math/rand/v2): a generated package that forwards to the
// compiled members, plus the generic members. yaegi resolves an import
// either to a compiled package or to a source one, so a package with both
// kinds of members is source throughout.
func Install(in *interp.Interpreter) error {
	for _, s := range []struct{ path, src string }{
		{"slices", slicesExtra}, {"maps", mapsExtra}, {"iter", iterSource},
		{"sync", fwdSync}, {"sync", syncExtra},
		{"math/rand/v2", fwdRand}, {"math/rand/v2", randExtra},
		{"errors", errorsExtra},
	} {
		prog, err := in.CompilePackage(s.path, s.src)
		if err != nil {
			return fmt.Errorf("compiling the source of package %s: %w", s.path, err)
		}
		// Executing the compiled file sets up its package frame, as an
		// import does: without it, a plain (not generic) function of the
		// package returned zero values (the forwarders of math/rand/v2,
		// sync.NewCond, sync.OnceFunc).
		if _, err := in.Execute(prog); err != nil {
			return fmt.Errorf("initialising the source of package %s: %w", s.path, err)
		}
	}
	return nil
}

// Value returns the member name of the allowed compiled package path (by
// the path cells import it with) as the extractor stores it: a function,
// an addressable variable, or, for a type, a nil pointer to the type. It
// lets completion know the static type a call returns without running it.
func Value(path, name string) (reflect.Value, bool) {
	if slices.Contains(removed[path], name) {
		return reflect.Value{}, false
	}
	for key, syms := range Symbols {
		if dir, _ := splitKey(key); allowlist.ShortPath(dir) == path {
			v, ok := syms[name]
			return v, ok && !strings.HasPrefix(name, "_")
		}
	}
	return reflect.Value{}, false
}
