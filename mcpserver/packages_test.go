package mcpserver

import (
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/pkgenv/pkgenvtest"
)

// TestPackagesTrustGate: a session may install a declared module only when
// the server allows installs (--allow-packages), as in the kernel; a set
// installed once is usable by a server without the gate.
func TestPackagesTrustGate(t *testing.T) {
	proxy := pkgenvtest.New(t, pkgenvtest.Module{
		Path: "github.com/montanaflynn/stats", Version: "v0.7.1",
		Files: map[string]string{"median.go": "package stats\n\nimport \"sort\"\n\n// Median returns the median of xs (odd length).\nfunc Median(xs []float64) (float64, error) {\n\tc := append([]float64(nil), xs...)\n\tsort.Float64s(c)\n\treturn c[len(c)/2], nil\n}\n"},
	})
	cache := t.TempDir()
	code := "//sbir:require github.com/montanaflynn/stats v0.7.1\nimport \"github.com/montanaflynn/stats\"\nstats.Median([]float64{1, 2, 3})"
	packages := func(allow bool) func(*Options) {
		return func(o *Options) {
			o.Session.Packages = pkgenv.Options{Dir: cache, Proxy: proxy.FileURL(t), SumDBKey: proxy.SumDBKey, AllowInstall: allow, KernelVersion: "test"}
		}
	}
	for _, step := range []struct {
		name  string
		allow bool
		ok    bool
		want  string
	}{
		{"gate closed", false, false, "--allow-packages"},
		{"install", true, true, "2 <nil>"},
		{"cached, gate closed", false, true, "2 <nil>"},
	} {
		s, cs := connect(t, packages(step.allow))
		out, _ := runGo(t, cs, map[string]any{"code": code})
		if out.Success != step.ok {
			t.Fatalf("%s: success %v: %+v", step.name, out.Success, out.Error)
		}
		got := out.Value
		if !out.Success {
			got = out.Error.Message
			if out.Error.Name != "PackageError" {
				t.Errorf("%s: error %s", step.name, out.Error.Name)
			}
		}
		if !strings.Contains(got, step.want) {
			t.Errorf("%s: %q, want it to contain %q", step.name, got, step.want)
		}
		s.Close()
	}
}
