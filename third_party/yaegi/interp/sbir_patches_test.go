package interp_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func newTestInterp(t *testing.T) (*interp.Interpreter, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &errb})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	return i, &out, &errb
}

// Patch 1: print and println write to standard error in gc's formats.
func TestPrintToStderr(t *testing.T) {
	i, out, errb := newTestInterp(t)
	if _, err := i.Eval(`println("a", 1, 1.5, true); print("x", 2, "\n")`); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", out)
	}
	if got, want := errb.String(), "a 1 1.5 true\nx2\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

// Patch 2: calls of generic functions at top level and type inference.
func TestGenericInference(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, src := range []string{
		`import "fmt"`,
		`func Keys[K comparable, V any](m map[K]V) []K { var r []K; for k := range m { r = append(r, k) }; return r }
func Id[E any](x E) E { return x }
func Max[E int | float64](a, b E) E { if a > b { return a }; return b }
func Each[E any](seq func(func(E) bool)) []E { var s []E; seq(func(v E) bool { s = append(s, v); return true }); return s }
func Seq[K comparable, V any](m map[K]V) func(func(K) bool) { return func(y func(K) bool) { for k := range m { if !y(k) { return } } } }
func First[S ~[]E, E any](s S) E { return s[0] }`,
		`m := map[string]int{"a": 1}`,
		`ks := Keys(m)`,
		`y := Id(3)`,
		`z := Max(2, 3.5)`,
		`e := Each(Seq(m))`,
		`f := First([]string{"q"})`,
		`fmt.Println(ks, y, z, e, f)`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := out.String(), "[a] 3 3.5 [a] q\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

}

// Patch 2 (continued): a, b := f(x) and f[T](x) at top level.
func TestGenericMultiValueAndExplicit(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, src := range []string{
		`import "fmt"`,
		`func Pair[K comparable, V any](m map[K]V) (K, V) { for k, v := range m { return k, v }; var k K; var v V; return k, v }
func Zero[T any]() T { var z T; return z }`,
		`k, v := Pair(map[string]int{"a": 1})`,
		`z := Zero[float64]()`,
		`fmt.Println(k, v, z)`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := out.String(), "a 1 0\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Patch 3: log functions the host supplies are kept.
func TestFixStdlibKeepsHostSymbols(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
	exports := interp.Exports{}
	for k, v := range stdlib.Symbols {
		exports[k] = v
	}
	logSyms := map[string]reflect.Value{}
	for k, v := range stdlib.Symbols["log/log"] {
		logSyms[k] = v
	}
	logSyms["Fatal"] = reflect.ValueOf(func(v ...any) { panic("host fatal") })
	exports["log/log"] = logSyms
	if err := i.Use(exports); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "log"`); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(`log.Fatal("x")`)
	if err == nil || !strings.Contains(err.Error(), "host fatal") {
		t.Errorf("log.Fatal: %v, want the host's function to panic with \"host fatal\"", err)
	}
}

// Patch 5: the bundled slices and maps sources run without clear, and
// maps.Clone copies.
func TestBundledGenericSources(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, src := range []string{
		`import ("fmt"; "maps"; "slices")`,
		`m := map[string]int{"a": 1}`,
		`c := maps.Clone(m)`,
		`c["b"] = 2`,
		`s := slices.Delete([]int{1, 2, 3, 4}, 1, 3)`,
		`u := slices.Compact([]int{1, 1, 2, 2, 3})`,
		`fmt.Println(len(m), len(c), s, u)`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := out.String(), "1 2 [1 4] [1 2 3]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Patch 6: encoders skip unexported fields of interpreted structs.
func TestUnexportedFieldsNotMarshalled(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, src := range []string{
		`import ("encoding/json"; "encoding/xml"; "fmt")`,
		"type user struct { Name string `json:\"name\"`; secret string; Age int }",
		`b, _ := json.Marshal(user{"Ada", "pw", 36})`,
		`x, _ := xml.Marshal(user{"Ada", "pw", 36})`,
		`fmt.Println(string(b))`,
		`fmt.Println(string(x))`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got := out.String(); strings.Contains(got, "secret") || strings.Contains(got, "pw") || !strings.Contains(got, `"name":"Ada"`) {
		t.Errorf("got %q: the unexported field is marshalled or the exported one is not", got)
	}
}
