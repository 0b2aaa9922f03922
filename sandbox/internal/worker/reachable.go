package worker

import (
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/traefik/yaegi/interp"
)

// Cells never import reflect or unsafe, but a compiled type of an allowed
// package can still hand them a value of those packages: the Type field of
// a *json.UnmarshalTypeError is a reflect.Type, and walking it reads the
// worker's internal state. refusedAPI walks everything a symbol table
// exposes (exported fields, methods, parameters and results, through
// pointers, slices, maps, channels and functions) and reports the symbols
// through which a refused package's type is reachable; the worker removes
// them from the table before cells run.

// refusedPkgs are the packages whose values cells must never hold.
var refusedPkgs = map[string]bool{"reflect": true, "unsafe": true}

// leak is one path from a symbol to a refused type.
type leak struct {
	Symbol string // "encoding/json/json.UnmarshalTypeError"
	Path   string // ".Type reflect.Type"
}

// refusedAPI returns the leaks of the table ex, sorted by symbol.
func refusedAPI(ex interp.Exports) []leak {
	var out []leak
	// Types from which a whole walk found nothing are clean for every
	// later walk: the symbols share most of their types (the walks took
	// 16 of the interpreter's 21 ms to build before).
	w := &apiWalker{seen: map[reflect.Type]bool{}, clean: map[reflect.Type]bool{}}
	for pkg, syms := range ex {
		if pkg == "." {
			continue // yaegi's MapTypes directive, not a package cells see
		}
		for name, v := range syms {
			if strings.HasPrefix(name, "_") || !v.IsValid() {
				continue // yaegi's interface wrappers: not names cells can write
			}
			clear(w.seen)
			w.found = ""
			switch {
			case v.Kind() == reflect.Pointer && v.IsNil():
				w.walk(v.Type().Elem(), "")
			case v.Type().PkgPath() == "go/constant":
				// A constant: yaegi converts it when the cell compiles.
			default:
				w.walk(v.Type(), "")
			}
			if w.found != "" {
				out = append(out, leak{Symbol: pkg + "." + name, Path: w.found})
				continue
			}
			// Everything reachable from the types seen was seen too, and
			// none of it is refused.
			for t := range w.seen {
				w.clean[t] = true
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Symbol < out[j].Symbol })
	return out
}

// apiWalker finds the first refused type reachable from a type.
type apiWalker struct {
	seen  map[reflect.Type]bool // by this walk
	clean map[reflect.Type]bool // by earlier walks: no refused type reachable
	found string
}

func (w *apiWalker) walk(t reflect.Type, path string) {
	if w.found != "" || w.seen[t] || w.clean[t] {
		return
	}
	w.seen[t] = true
	if refusedPkgs[t.PkgPath()] || t.Kind() == reflect.UnsafePointer {
		w.found = path + " " + t.String()
		return
	}
	// Named types have methods; so has an unnamed struct that embeds a
	// type with methods (struct{ T } has T's, even if T is unexported).
	if (t.Name() != "" || t.Kind() == reflect.Struct) && t.Kind() != reflect.Interface {
		w.methods(t, path)
		if t.Kind() != reflect.Pointer {
			w.methods(reflect.PointerTo(t), path)
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		w.walk(t.Elem(), path+"[]")
	case reflect.Map:
		w.walk(t.Key(), path+"[key]")
		w.walk(t.Elem(), path+"[]")
	case reflect.Func:
		for i := range t.NumIn() {
			w.walk(t.In(i), path+"(arg)")
		}
		for i := range t.NumOut() {
			w.walk(t.Out(i), path+"(result)")
		}
	case reflect.Interface:
		for i := range t.NumMethod() {
			m := t.Method(i)
			w.walk(m.Type, path+"."+m.Name)
		}
	case reflect.Struct:
		promotes := false
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() {
				w.walk(f.Type, path+"."+f.Name)
			} else if f.Anonymous {
				promotes = true
			}
		}
		if promotes {
			// An exported field of an unexported embedded struct is as
			// reachable as the struct's own (x.F for struct{ inner }).
			for _, f := range reflect.VisibleFields(t) {
				if f.IsExported() && len(f.Index) > 1 {
					w.walk(f.Type, path+"."+f.Name)
				}
			}
		}
	}
}

// methods walks the exported methods of a named type (without receiver).
func (w *apiWalker) methods(t reflect.Type, path string) {
	for i := range t.NumMethod() {
		m := t.Method(i)
		ft := m.Type
		for j := 1; j < ft.NumIn(); j++ {
			w.walk(ft.In(j), path+"."+m.Name+"(arg)")
		}
		for j := range ft.NumOut() {
			w.walk(ft.Out(j), path+"."+m.Name+"(result)")
		}
	}
}

// hideRefusedAPI removes from ex every symbol through which a refused
// package is reachable, and returns what it removed.
func hideRefusedAPI(ex interp.Exports) []leak {
	leaks := refusedAPI(ex)
	for _, l := range leaks {
		i := strings.LastIndexByte(l.Symbol, '.')
		delete(ex[l.Symbol[:i]], l.Symbol[i+1:])
	}
	return leaks
}

// callbackGuard is the interpreter's CheckCallbackArg (yaegi sbir patch
// 18). The walk above hides every symbol through which a cell could reach
// a reflect or unsafe value, but compiled code can still hand one over
// through an interface: text/template reads fields by reflection and
// passes what it evaluates to a cell's FuncMap functions, so a template
// run on a *json.UnmarshalTypeError with {{keep .Type}} gave the cell a
// reflect.Type. A value is refused if its type belongs to a refused
// package or is built from one without a name (a []reflect.Value). A
// value of a named type of an allowed package passes: the cell cannot
// name a hidden type, and whatever a template reads from its fields comes
// through here again. The interpreter also runs it on interface results
// of compiled calls (patch 18b: errors.Unwrap of a template error wrapping
// a *reflect.ValueError) and on recovered panic values (patch 19).
type callbackGuard struct {
	// known holds the answer per type, copied on write: the interpreter
	// asks for every error a compiled call returns and every argument of
	// a callback such as sync.Map.Range's, and reading a type's name and
	// package costs more than the lookup.
	known atomic.Pointer[map[reflect.Type]bool]
	mu    sync.Mutex // serialises writers of known
}

func (g *callbackGuard) check(v reflect.Value) error {
	t := v.Type()
	refused, ok := false, false
	if m := g.known.Load(); m != nil {
		refused, ok = (*m)[t]
	}
	if !ok {
		refused = holdsRefused(t, nil)
		g.mu.Lock()
		old := g.known.Load()
		m := make(map[reflect.Type]bool, 1)
		if old != nil {
			m = maps.Clone(*old)
		}
		m[t] = refused
		g.known.Store(&m)
		g.mu.Unlock()
	}
	if refused {
		return fmt.Errorf("compiled code handed the cell a value of type %s; cells cannot hold values of packages reflect or unsafe", t)
	}
	return nil
}

// holdsRefused reports whether t is of a refused package, or an unnamed
// type made of one. seen holds the unnamed types being looked at: the
// interpreter's struct types are unnamed and may refer to themselves
// (type Node struct{ Next *Node } in a cell).
func holdsRefused(t reflect.Type, seen map[reflect.Type]bool) bool {
	if refusedPkgs[t.PkgPath()] || t.Kind() == reflect.UnsafePointer {
		return true
	}
	if t.Name() != "" {
		return false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan, reflect.Map, reflect.Func, reflect.Struct:
	default:
		return false
	}
	if seen[t] {
		return false // being looked at further up
	}
	if seen == nil {
		seen = map[reflect.Type]bool{}
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return holdsRefused(t.Elem(), seen)
	case reflect.Map:
		return holdsRefused(t.Key(), seen) || holdsRefused(t.Elem(), seen)
	case reflect.Func:
		for i := range t.NumIn() {
			if holdsRefused(t.In(i), seen) {
				return true
			}
		}
		for i := range t.NumOut() {
			if holdsRefused(t.Out(i), seen) {
				return true
			}
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsRefused(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
