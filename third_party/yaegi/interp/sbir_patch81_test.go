package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirUndefinedCalledInCompositeLiteral checks sbir patch 81: a call
// of a name nothing declares, inside a composite literal, is gc's
// "undefined: g", not a panic about an incomplete type g (a notebook
// cell declaring a table of values before the cell with the function
// they call).
func TestSbirUndefinedCalledInCompositeLiteral(t *testing.T) {
	for _, src := range []string{
		"type T struct{ d int }\nvar ts = []*T{{g(\"3m\")}}",
		"var y = []int{g(1)}",
		"type T struct{ d int }\nvar ts = []T{{d: g(1)}}",
		"var m = map[string]int{\"a\": g(1)}",
		"type T struct{ d int }\nfunc f() { _ = []T{{g(1)}} }",
	} {
		i := interp.New(interp.Options{})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		_, err := i.Eval(src)
		if err == nil || !strings.HasSuffix(err.Error(), ": undefined: g") || strings.Contains(err.Error(), "panic") {
			t.Errorf("Eval(%q): %v, want an error ending in \": undefined: g\"", src, err)
		}
	}
	// Types declared before or after the literal still convert.
	for _, src := range []string{
		"type U string\ntype T struct{ u U }\nvar ts = []T{{U(\"x\")}}",
		"var ts = []*T{{U(\"x\")}}\ntype U string\ntype T struct{ u U }",
	} {
		i := interp.New(interp.Options{})
		if _, err := i.Eval(src); err != nil {
			t.Errorf("Eval(%q): %v", src, err)
		}
	}
}
