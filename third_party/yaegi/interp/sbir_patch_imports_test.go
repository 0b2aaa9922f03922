package interp_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Patch 11: imports the host makes implicitly give way to the source's
// own declarations and imports; a binary package may be imported again.
func TestSbirImplicitImports(t *testing.T) {
	for _, tc := range []struct {
		name  string
		srcs  []string
		want  string // stdout, when every source evaluates
		error string // the error of the last source, when it must fail
	}{
		{name: "top-level var shadows an implicit package",
			srcs: []string{`var list []int`, `list = append(list, 4)`, `fmt.Println(list, len(list))`},
			want: "[4] 1\n"},
		{name: "top-level define, func and type",
			srcs: []string{`strings := []string{"a"}`, `func bytes() int { return 2 }`, `type rand struct{ n int }`, `fmt.Println(strings, bytes(), rand{3}.n)`},
			want: "[a] 2 3\n"},
		{name: "multi-value define",
			srcs: []string{`func two() (int, int) { return 1, 2 }`, `list, rand := two()`, `fmt.Println(list + rand)`},
			want: "3\n"},
		{name: "an import replaces an implicit one of the same name",
			srcs: []string{`import "math/rand/v2"`, `fmt.Println(rand.New(rand.NewPCG(1, 2)).IntN(10))`},
			want: "7\n"},
		{name: "explicit import again, then a clashing declaration",
			srcs:  []string{`import "container/list"`, `import "container/list"`, `var list []int`},
			error: "list redeclared in this block"},
		{name: "one file imports a package twice",
			srcs:  []string{"import (\n\t\"time\"\n\t\"time\"\n)\nvar t time.Time"},
			error: "3:2: time redeclared in this block"},
		{name: "an evaluation imports again what an earlier one did",
			srcs: []string{`import "time"`, `import "time"`, `fmt.Println(time.Duration(3))`},
			want: "3ns\n"},
		{name: "two explicit imports under one name",
			srcs:  []string{`import "math/rand/v2"`, `import "math/rand"`},
			error: "rand redeclared in this block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if err := i.ImportImplicitly("fmt", "strings", "bytes", "container/list", "math/rand"); err != nil {
				t.Fatal(err)
			}
			for k, src := range tc.srcs {
				_, err := i.Eval(src)
				if tc.error != "" && k == len(tc.srcs)-1 {
					if err == nil || !strings.Contains(err.Error(), tc.error) {
						t.Fatalf("%s: error %v, want %q", src, err, tc.error)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", src, err)
				}
			}
			if out.String() != tc.want {
				t.Errorf("stdout %q, want %q", out.String(), tc.want)
			}
		})
	}
}

// Patch 11a: a top-level definition using an undefined name says so.
func TestSbirUndefinedAtTopLevel(t *testing.T) {
	i, _, _ := newTestInterp(t)
	for _, tc := range []struct{ src, want string }{
		{"x := 1\ny := undefinedThing + x", "2:6: undefined: undefinedThing"},
		{"var z = 2 * missing", "undefined: missing"},
		{"w := []int{1, len(missing)}", "undefined: missing"},
		// The same name again, in a later evaluation.
		{"v := undefinedThing", "undefined: undefinedThing"},
		// Names defined by the definitions in a cycle are a loop, not
		// undefined (upstream's _test/const9.go).
		{"const (\n\tca = 2\n\tcb = cc + cd\n\tcc = ca + cd\n\tcd = ce + cf\n\tce = cb + 2\n\tcf = 4\n)", "3:2: constant definition loop"},
		{"var (\n\tva = vb + 1\n\tvb = va + missing2\n)", "undefined: missing2"},
	} {
		_, err := i.Eval(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
	// A type declared after its use still works.
	if _, err := i.Eval("var p = T{3}\ntype T struct{ n int }"); err != nil {
		t.Errorf("forward type: %v", err)
	}
}

type testExit int

func (e testExit) ExitStatus() int { return int(e) }

// Patch 11b: a panic with an interp.Exiter runs no deferred function and
// cannot be recovered.
func TestSbirExitSkipsDeferred(t *testing.T) {
	var out, errb bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &errb})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(interp.Exports{"host/host": {"Exit": reflect.ValueOf(func(c int) { panic(testExit(c)) })}}); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(`
import ("fmt"; "host")
func inner() {
	defer fmt.Println("inner deferred")
	fmt.Println("exiting")
	host.Exit(3)
}
func outer() {
	defer func() { fmt.Println("recovered:", recover()) }()
	inner()
	fmt.Println("unreachable")
}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = i.Eval("outer()")
	var p interp.Panic
	if !errors.As(err, &p) {
		t.Fatalf("error %v (%T), want an interp.Panic", err, err)
	}
	if e, ok := p.Value.(testExit); !ok || e != 3 {
		t.Errorf("panic value %#v, want testExit(3)", p.Value)
	}
	if got := out.String(); got != "exiting\n" {
		t.Errorf("stdout %q, want only %q: deferred functions ran", got, "exiting\n")
	}
	if errb.Len() != 0 {
		t.Errorf("stderr %q, want no panic trace", errb.String())
	}
	// A plain panic still runs the deferred functions.
	out.Reset()
	if _, err := i.Eval(`func g() { defer fmt.Println("ran"); panic("x") }`); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`g()`); err == nil || out.String() != "ran\n" {
		t.Errorf("plain panic: err %v, stdout %q", err, out.String())
	}
}

// Patch 11c: a source package compiled under the path of a binary one
// adds generic functions to it.
func TestSbirBinaryPackageCompletedBySource(t *testing.T) {
	i, out, _ := newTestInterp(t)
	src := `package errors

import berrors "errors"

func AsType[E error](err error) (E, bool) {
	var target E
	ok := berrors.As(err, &target)
	return target, ok
}
`
	prog, err := i.CompilePackage("errors", src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := i.Execute(prog); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`import ("errors"; "fmt"; "strconv"; "io/fs")`,
		`_, err := strconv.Atoi("x1")`,
		`ne, ok := errors.AsType[*strconv.NumError](fmt.Errorf("wrapped: %w", err))`,
		`fmt.Println(ne.Func, ok, errors.Is(err, strconv.ErrSyntax))`,
		`_, ok2 := errors.AsType[*fs.PathError](err)`,
		`fmt.Println(ok2)`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "Atoi true true\nfalse\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}

// Patch 11d: an interpreted struct passed to compiled code as an
// interface is wrapped whole, not as its last field.
func TestSbirStructWrappedWhole(t *testing.T) {
	i, out, _ := newTestInterp(t)
	// As the sandbox does: fmt.Errorf wraps interpreted errors as error.
	mt := map[reflect.Value][]reflect.Type{reflect.ValueOf(fmt.Errorf): {reflect.TypeOf((*error)(nil)).Elem()}}
	if err := i.Use(interp.Exports{".": {"MapTypes": reflect.ValueOf(mt)}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`import ("errors"; "fmt"; "strconv")`,
		`type HTTPError struct{ Code int; Msg string }`,
		`func (e HTTPError) Error() string { return "http " + strconv.Itoa(e.Code) }`,
		`func check() {
	err := fmt.Errorf("fetch: %w", HTTPError{404, "not found"})
	he, ok := errors.Unwrap(err).(HTTPError)
	fmt.Println(ok, he.Code, he.Msg, err)
}`,
		`check()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "true 404 not found fetch: http 404\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
