package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirUndefinedPackageInType checks sbir patch 22: a type from a
// package that is not there (foo.Bar, or runtime.MemStats where runtime
// is not loaded) is reported as "undefined: foo" wherever the type is
// written, instead of a nil-pointer panic inside the type checker; and a
// selector on a variable declared further down still resolves.
func TestSbirUndefinedPackageInType(t *testing.T) {
	for _, src := range []string{
		"var ms foo.Bar",
		"var ms foo.Bar; func main() {}",
		"var y foo.Bar = 3",
		"var p *foo.Bar",
		"var m map[foo.Bar]int",
		"var c chan foo.Bar",
		"type T struct{ x foo.Bar }",
		"type T struct{ x []foo.Bar }",
		"type I interface{ M(foo.Bar) }",
		"func f(x foo.Bar) {}",
		"func f(a, b foo.Bar) {}",
		"func f() foo.Bar { return nil }",
		"type T int\nfunc (T) M(x foo.Bar) {}",
		"x := []foo.Bar{}",
	} {
		i := interp.New(interp.Options{})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		_, err := i.Eval(src)
		if err == nil || !strings.Contains(err.Error(), "undefined: foo") {
			t.Errorf("%q: error %v, want one naming undefined: foo", src, err)
		}
	}

	i := interp.New(interp.Options{})
	if _, err := i.Eval("var x = a.b\nvar a = struct{ b int }{3}"); err != nil {
		t.Fatalf("a selector on a variable declared later: %v", err)
	}
	v, err := i.Eval("x")
	if err != nil || v.Int() != 3 {
		t.Errorf("a selector on a variable declared later: %v, %v; want 3", v, err)
	}
}
