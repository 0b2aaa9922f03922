package interp_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// hiddenValue is a type the host keeps from scripts.
type hiddenValue struct{ N int }

var errHidden = errors.New("hidden value refused")

// TestCheckCallbackArg checks sbir patch 18: every way compiled code
// calls interpreted code with an argument of interface type (a function
// literal, one kept in a variable, a declared function, a variadic
// function, a method value, a range-over-func loop body) runs Options.CheckCallbackArg on the dynamic
// value first, and a refusal panics before the script sees the value.
// Arguments of other types are not checked, and accepted values arrive
// intact.
func TestCheckCallbackArg(t *testing.T) {
	var checked []string
	newInterp := func(t *testing.T) *interp.Interpreter {
		checked = nil
		i := interp.New(interp.Options{CheckCallbackArg: func(v reflect.Value) error {
			checked = append(checked, v.Type().String())
			if v.Type() == reflect.TypeOf(hiddenValue{}) {
				return errHidden
			}
			return nil
		}})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if err := i.Use(interp.Exports{"host/host": {
			"Hidden":   reflect.ValueOf(func() any { return hiddenValue{N: 7} }),
			"Call":     reflect.ValueOf(func(f func(any) string, v any) string { return f(v) }),
			"CallMany": reflect.ValueOf(func(f func(...any) string, v ...any) string { return f(v...) }),
			"CallErr":  reflect.ValueOf(func(f func(error) string, v error) string { return f(v) }),
			"CallInt":  reflect.ValueOf(func(f func(int) int, v int) int { return f(v) }),
			"Seq": reflect.ValueOf(func(v any) func(func(any) bool) {
				return func(yield func(any) bool) { yield(v) }
			}),
		}}); err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{`import "host"`, `import "fmt"`, `import "errors"`} {
			if _, err := i.Eval(src); err != nil {
				t.Fatal(err)
			}
		}
		return i
	}
	refused := []struct {
		name string
		decl string // evaluated first, if any
		src  string
	}{
		{"function literal", "", `host.Call(func(x any) string { got = x; return "" }, host.Hidden())`},
		{"function value in a variable", "", `f := func(x any) string { got = x; return "" }; host.Call(f, host.Hidden())`},
		{"declared function", `func keep(x any) string { got = x; return "" }`, `host.Call(keep, host.Hidden())`},
		{"variadic function", "", `host.CallMany(func(xs ...any) string { got = xs; return "" }, 1, host.Hidden())`},
		{"method value", "type K struct{}\nfunc (K) Keep(x any) string { got = x; return \"\" }", `host.Call(K{}.Keep, host.Hidden())`},
		{"range-over-func loop", "", `for x := range host.Seq(host.Hidden()) { got = x }`},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			i := newInterp(t)
			if _, err := i.Eval(`var got any`); err != nil {
				t.Fatal(err)
			}
			if tc.decl != "" {
				if _, err := i.Eval(tc.decl); err != nil {
					t.Fatal(err)
				}
			}
			_, err := i.Eval(tc.src)
			if err == nil || !strings.Contains(err.Error(), errHidden.Error()) {
				t.Fatalf("Eval: %v, want a panic with %q", err, errHidden)
			}
			if v, err := i.Eval(`got == nil`); err != nil || !v.Bool() {
				t.Errorf("the script holds the refused value (got == nil: %v, %v)", v, err)
			}
		})
	}

	i := newInterp(t)
	v, err := i.Eval(`host.Call(func(x any) string { return fmt.Sprint(x) }, "ok") + host.CallMany(func(xs ...any) string { return fmt.Sprint(xs...) }, 1, 2.5) + host.CallErr(func(e error) string { return e.Error() }, errors.New("e"))`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.String(), "ok1 2.5e"; got != want {
		t.Errorf("accepted values arrived as %q, want %q", got, want)
	}
	if got, want := strings.Join(checked, " "), "string int float64 *errors.errorString *errors.errorString"; got != want {
		t.Errorf("checked %q, want %q", got, want)
	}
	checked = nil
	if v, err := i.Eval(`host.CallInt(func(n int) int { return n + 1 }, 41)`); err != nil || v.Int() != 42 {
		t.Fatalf("CallInt: %v, %v", v, err)
	}
	if len(checked) != 0 {
		t.Errorf("an int argument was checked: %v", checked)
	}
}

// hiddenErr is an error of a type the host keeps from scripts.
type hiddenErr struct{}

func (hiddenErr) Error() string { return "hidden" }

// wrapper is a compiled error whose method returns a hidden error.
type wrapper struct{ n int }

func (*wrapper) Error() string { return "wrapper" }
func (*wrapper) Unwrap() error { return hiddenErr{} }

// TestCheckCallbackResult checks sbir patch 18b: a compiled function's or
// method's result of interface type reaches the script only after
// Options.CheckCallbackArg accepts it (errors.Unwrap of a text/template
// error once handed a script a *reflect.ValueError), however the script
// calls it; results of other types and accepted ones arrive as they are.
func TestCheckCallbackResult(t *testing.T) {
	newInterp := func(t *testing.T) *interp.Interpreter {
		i := interp.New(interp.Options{CheckCallbackArg: func(v reflect.Value) error {
			if v.Type() == reflect.TypeOf(hiddenValue{}) || v.Type() == reflect.TypeOf(hiddenErr{}) {
				return errHidden
			}
			return nil
		}})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if err := i.Use(interp.Exports{"host/host": {
			"Hidden":  reflect.ValueOf(func() any { return hiddenValue{N: 7} }),
			"Many":    reflect.ValueOf(func() []any { return []any{1, hiddenValue{}} }),
			"Wrapped": reflect.ValueOf(func() error { return &wrapper{n: 1} }),
			"Wrapper": reflect.ValueOf((*wrapper)(nil)),
			"Shown":   reflect.ValueOf(func() (any, int) { return "ok", 1 }),
		}}); err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{`import "host"`, `import "errors"`, `var got any`} {
			if _, err := i.Eval(src); err != nil {
				t.Fatal(err)
			}
		}
		return i
	}
	for _, tc := range []struct{ name, src string }{
		{"function", `got = host.Hidden()`},
		{"function value", `f := host.Hidden; got = f()`},
		{"slice of interfaces", `got = host.Many()`},
		{"compiled function with a compiled method", `got = errors.Unwrap(host.Wrapped())`},
		{"method", "w := host.Wrapped().(*host.Wrapper)\ngot = w.Unwrap()"},
		{"in a condition", `if host.Hidden() != nil { got = 1 }`},
		{"function parameter", `apply := func(f func() any) any { return f() }; got = apply(host.Hidden)`},
		{"function in a map", `m := map[string]func() any{"h": host.Hidden}; got = m["h"]()`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := newInterp(t)
			parts := strings.Split(tc.src, "\n\n") // declarations first
			for _, p := range parts[:len(parts)-1] {
				if _, err := i.Eval(p); err != nil {
					t.Fatal(err)
				}
			}
			_, err := i.Eval(parts[len(parts)-1])
			if err == nil || !strings.Contains(err.Error(), errHidden.Error()) {
				t.Fatalf("Eval: %v, want a panic with %q", err, errHidden)
			}
			if v, err := i.Eval(`got == nil`); err != nil || !v.Bool() {
				t.Errorf("the script holds the refused value (got == nil: %v, %v)", v, err)
			}
		})
	}
	i := newInterp(t)
	v, err := i.Eval(`s, n := host.Shown(); s.(string) + host.Wrapped().Error() + string(rune('0'+n))`)
	if err != nil || v.String() != "okwrapper1" {
		t.Fatalf("accepted results: %v, %v", v, err)
	}
}

// TestSbirRecoverValue checks sbir patch 19: recover gives a script the
// value it panicked with, not the interpreter's reflect.Value of it
// (whose methods the script could call), and a compiled panic's value
// passes Options.CheckCallbackArg first.
func TestSbirRecoverValue(t *testing.T) {
	i := interp.New(interp.Options{CheckCallbackArg: func(v reflect.Value) error {
		if v.Type() == reflect.TypeOf(hiddenErr{}) {
			return errHidden
		}
		return nil
	}})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(interp.Exports{"host/host": {
		"Panic": reflect.ValueOf(func() { panic(hiddenErr{}) }),
	}}); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`import "host"`, `import "fmt"`, `import "errors"`,
		`func try(f func()) (s string) {
	defer func() { r := recover(); s = fmt.Sprintf("%T %v", r, r) }()
	f()
	return
}`} {
		if _, err := i.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{`try(func() { panic("boom") })`, "string boom"},
		{`try(func() { panic(42) })`, "int 42"},
		{`try(func() { var x any = 2.5; panic(x) })`, "float64 2.5"},
		{`try(func() { panic(errors.New("e")) })`, "*errors.errorString e"},
		{`try(func() { panic(nil) })`, "*runtime.PanicNilError panic called with nil argument"},
		{`try(func() { var s []int; _ = s[1] })`, "runtime.boundsError runtime error: index out of range [1] with length 0"},
		{`try(func() { defer func() { s, ok := recover().(string); panic(fmt.Sprint(s, ok)) }(); panic("x") })`, "string xtrue"},
	} {
		v, err := i.Eval(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if v.String() != tc.want {
			t.Errorf("%s = %q, want %q", tc.src, v.String(), tc.want)
		}
	}
	if _, err := i.Eval(`try(host.Panic)`); err == nil || !strings.Contains(err.Error(), errHidden.Error()) {
		t.Errorf("recover of a hidden compiled panic value: %v, want a panic with %q", err, errHidden)
	}
}
