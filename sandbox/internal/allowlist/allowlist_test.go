package allowlist

import (
	"slices"
	"strings"
	"testing"
)

func TestDoc(t *testing.T) {
	for _, tc := range []struct{ path, name, sig string }{
		{"strings", "Builder.WriteString", "func (b *Builder) WriteString(s string) (int, error)"},
		{"award_data", "Count", "func Count("},
		{"award_data", "", "package award_data"},
		{"os", "Exit", "func Exit(code int)"},
	} {
		e, ok := Doc(tc.path, tc.name)
		if !ok || !strings.Contains(e.Sig, tc.sig) {
			t.Errorf("Doc(%q, %q) = %+v, %v; want a signature containing %q", tc.path, tc.name, e, ok, tc.sig)
		}
	}
	if e, ok := Doc("os", "Open"); ok {
		t.Errorf("Doc(os, Open) = %+v: cells' os has no Open", e)
	}
}

func TestPackages(t *testing.T) {
	ps := Packages()
	if !slices.IsSorted(ps) {
		t.Errorf("Packages() is not sorted: %q", ps)
	}
	for _, p := range []string{"fmt", "award_data", "display", "os", "slices"} {
		if !Allowed(p) {
			t.Errorf("Allowed(%q) = false", p)
		}
	}
	for _, p := range []string{"reflect", "unsafe", "os/exec", "net", "github.com/sbirtools/sbir-kernel/award_data"} {
		if Allowed(p) {
			t.Errorf("Allowed(%q) = true", p)
		}
	}
	if got := RealPath("award_data"); got != "github.com/sbirtools/sbir-kernel/award_data" {
		t.Errorf("RealPath(award_data) = %q", got)
	}
	if got := ShortPath(RealPath("display")); got != "display" {
		t.Errorf("ShortPath(RealPath(display)) = %q", got)
	}
}

func TestPreimported(t *testing.T) {
	pre := Preimported()
	for _, p := range []string{"fmt", "math/rand", "text/template", "award_data"} {
		if !slices.Contains(pre, p) {
			t.Errorf("Preimported() lacks %s", p)
		}
	}
	for _, p := range []string{"math/rand/v2", "html/template"} {
		if slices.Contains(pre, p) {
			t.Errorf("Preimported() has %s, whose name another package takes", p)
		}
	}
}

func TestNames(t *testing.T) {
	names := Names("slices")
	if !slices.Contains(names, "Sort") || slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, ".") }) {
		t.Errorf("Names(slices) = %q; want top-level names such as Sort and no methods", names)
	}
}
