package interp_test

import (
	"bytes"
	"errors"
	"runtime"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirTypeAssertionError checks sbir patch 55: a failed type
// assertion panics with a runtime.Error worded as gc's, without the
// assertion's position, both recovered by the script and uncaught.
func TestSbirTypeAssertionError(t *testing.T) {
	var out bytes.Buffer
	i := newPatch51Interp(t, &out)
	srcs := []string{`import "errors"`, `import "runtime"`, `func try(v any) (err error) {
	defer func() {
		r := recover()
		_, isRuntime := r.(runtime.Error)
		err = r.(error)
		fmt.Println(isRuntime)
	}()
	_ = v.(int)
	return nil
}`, `type SyntaxErr string`, `func named(v any) (err error) {
	defer func() { err = recover().(error) }()
	_ = v.(SyntaxErr)
	return nil
}`, `fmt.Println(try("s"))
fmt.Println(try(2.5))
fmt.Println(named(3))`}
	for _, src := range srcs {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("Eval(%q): %v", src, err)
		}
	}
	want := "true\ninterface conversion: interface {} is string, not int\ntrue\ninterface conversion: interface {} is float64, not int\ninterface conversion: interface {} is int, not main.SyntaxErr\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if _, err := i.Eval(`var a any = "s"`); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(`fmt.Println(a.(float64))`)
	var p interp.Panic
	if !errors.As(err, &p) {
		t.Fatalf("uncaught assertion: %v, want a Panic", err)
	}
	re, ok := p.Value.(runtime.Error)
	if !ok || re.Error() != "interface conversion: interface {} is string, not float64" {
		t.Errorf("uncaught assertion panics with %T %v, want a runtime.Error worded as gc's", p.Value, p.Value)
	}
}
