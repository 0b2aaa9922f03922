package symbols

import (
	"io"
	"io/fs"
	"log"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
)

// TestSymbols checks the generated table against the allow-list: every
// allowed package is present and documented, nothing else is, and the
// hazards are removed or replaced. It fails when the table is stale (run
// go generate ./sandbox/...).
func TestSymbols(t *testing.T) {
	ex := Exports(Options{Sleep: func(time.Duration) {}})
	forbidden := []string{"os/exec", "net", "net/http", "reflect", "unsafe", "syscall", "runtime", "runtime/debug",
		"io/ioutil", "path/filepath", "plugin", "log/slog", "log/syslog", "testing", "embed",
		"crypto/rand", "mime", "archive/zip", "go/build", "os/signal", "os/user", "debug/elf"}
	for key := range ex {
		if key == "." {
			continue // yaegi's interface wrapper map
		}
		dir := key[:strings.LastIndexByte(key, '/')]
		for _, f := range forbidden {
			if dir == f {
				t.Errorf("forbidden package %s is in the table", f)
			}
		}
		if strings.Contains(dir, "yaegi") || strings.Contains(dir, ".") && !wrappersOnly(ex[key]) {
			t.Errorf("unexpected package %s in the table (project packages must be aliased; under their real path only their interface wrappers)", dir)
		}
	}
	for _, p := range allowlist.Packages() {
		if len(Members(p)) == 0 {
			t.Errorf("package %s has no members", p)
		}
		if _, ok := allowlist.Doc(p, ""); !ok {
			t.Errorf("package %s is not in the doc index", p)
		}
	}
	for _, p := range []string{"award_data", "display", "fmt", "strings", "slices", "maps", "iter", "cmp", "encoding/json",
		"sync", "sync/atomic", "context", "errors", "log", "math/rand/v2", "text/template", "encoding/xml", "path",
		"io/fs", "image", "image/color"} {
		if !allowlist.Allowed(p) {
			t.Errorf("package %s is missing", p)
		}
	}
	// Cells' "os" holds their own streams and an Exit that ends the cell,
	// and nothing else.
	var osNames []string
	for name := range ex["os/os"] {
		osNames = append(osNames, name)
	}
	sort.Strings(osNames)
	if strings.Join(osNames, " ") != "Exit Stderr Stdin Stdout" {
		t.Errorf("os exposes %v, want only Exit Stderr Stdin Stdout", osNames)
	}
	if ex["os/os"]["Exit"].Pointer() == reflect.ValueOf(os.Exit).Pointer() {
		t.Error("os.Exit is the host's")
	}
	if _, ok := ex["image/image"]["RegisterFormat"]; ok {
		t.Error("image.RegisterFormat (a process-wide registry) is exposed")
	}
	for _, hidden := range []struct{ pkg, name string }{
		{"context/context", "AfterFunc"}, {"text/template/template", "ParseFiles"}, {"text/template/template", "ParseGlob"},
		{"text/template/template", "ParseFS"}, {"html/template/template", "ParseFiles"}, {"html/template/template", "ParseFS"},
	} {
		if _, ok := ex[hidden.pkg][hidden.name]; ok {
			t.Errorf("%s.%s is exposed", hidden.pkg, hidden.name)
		}
	}
	if ex["log/log"]["Fatal"].Pointer() == reflect.ValueOf(log.Fatal).Pointer() || ex["log/log"]["Default"].Pointer() == reflect.ValueOf(log.Default).Pointer() {
		t.Error("log.Fatal or log.Default is the host's")
	}
	if _, ok := ex["time/time"]["AfterFunc"]; ok {
		t.Error("time.AfterFunc is exposed")
	}
	if _, ok := ex["time/time"]["LoadLocation"]; ok {
		t.Error("time.LoadLocation is exposed")
	}
	if _, ok := ex["award_data/award_data"]["Use"]; ok {
		t.Error("award_data.Use is exposed")
	}
	if _, ok := ex["display/display"]["SetSink"]; ok {
		t.Error("display.SetSink is exposed")
	}
	if ex["time/time"]["Sleep"].Pointer() == reflect.ValueOf(time.Sleep).Pointer() {
		t.Error("time.Sleep is not replaced")
	}
}

// TestExportedVariablesAreCopies checks that a cell assigning an exported
// variable changes only its own copy.
func TestExportedVariablesAreCopies(t *testing.T) {
	ex := Exports(Options{})
	v := ex["io/io"]["EOF"]
	if !v.CanSet() {
		t.Fatal("io.EOF is not settable in the table (cells could not assign it at all)")
	}
	v.Set(reflect.Zero(v.Type()))
	if io.EOF == nil {
		t.Fatal("assigning the table's io.EOF changed the host's io.EOF")
	}
}

// TestAllowListMatchesTable checks that the allow-list without values
// names exactly the packages of the table: every package the table holds
// (under the path cells import it by), the source-only ones, and os.
func TestAllowListMatchesTable(t *testing.T) {
	ps := []string{"os"}
	for p := range sourceOnly {
		ps = append(ps, p)
	}
	for key := range Symbols {
		dir, _ := splitKey(key)
		ps = append(ps, allowlist.ShortPath(dir))
	}
	sort.Strings(ps)
	ps = slices.Compact(ps)
	if got := allowlist.Packages(); !slices.Equal(got, ps) {
		t.Errorf("allowlist.Packages() = %q\nthe table holds %q\n(run go generate ./sandbox/...)", got, ps)
	}
}

// TestNoHostFileSystem checks that io/fs is harmless in the table: its
// functions act on an fs.FS, and no allowed package outside io/fs returns
// one (as os.DirFS or embed would), so a cell can only pass file systems
// it implemented itself.
func TestNoHostFileSystem(t *testing.T) {
	fsTypes := []reflect.Type{reflect.TypeFor[fs.FS](), reflect.TypeFor[fs.File]()}
	for key, syms := range Exports(Options{}) {
		if key == "." || key == "io/fs/fs" {
			continue
		}
		for name, v := range syms {
			if !v.IsValid() || v.Kind() != reflect.Func {
				continue
			}
			ft := v.Type()
			for i := range ft.NumOut() {
				for _, fst := range fsTypes {
					if out := ft.Out(i); out == fst || out.Kind() != reflect.Interface && out.Implements(fst) {
						t.Errorf("%s.%s returns %s, a file system or file a cell did not make", key, name, out)
					}
				}
			}
		}
	}
}

// wrappersOnly reports whether a package of the table holds only yaegi's
// interface wrappers ("_" + an interface's name) and at least one.
func wrappersOnly(syms map[string]reflect.Value) bool {
	for name := range syms {
		if !strings.HasPrefix(name, "_") {
			return false
		}
	}
	return len(syms) > 0
}
