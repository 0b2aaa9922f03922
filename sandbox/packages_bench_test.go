package sandbox

import (
	"context"
	"testing"

	"github.com/sbirtools/sbir-kernel/pkgenv/pkgenvtest"
)

// BenchmarkFirstCellPackages measures the first cell of a fresh session,
// without packages and declaring a set that is already cached (the second
// session of a notebook). The difference of the two medians is what a
// cached set adds to the first cell: pkgenv.Ensure's cache hit, replacing
// the worker with one that can read the environment, and interpreting the
// package's source. Target: ≤ 50 ms added.
func BenchmarkFirstCellPackages(b *testing.B) {
	proxy := pkgenvtest.New(b, testModules()...)
	opts := packageOptions(b, proxy, b.TempDir())
	opts.DataPath = testDataPath
	warm := newPackageSession(b, opts)
	if res := mustRun(b, warm, statsDecl+`import "github.com/montanaflynn/stats"`); res.Stderr == "" {
		b.Fatal("the warm-up did not install the set")
	}
	warm.Close()
	opts.Packages.AllowInstall = false
	cells := []struct{ name, code, want string }{
		{"without-packages", "c := []float64{3, 1, 2}\nsort.Float64s(c)\nc[1]", "2"},
		{"cached-set", statsDecl + `import "github.com/montanaflynn/stats"` + "\nstats.Median([]float64{3, 1, 2})", "2 <nil>"},
	}
	for _, c := range cells {
		b.Run(c.name, func(b *testing.B) {
			m := &medianTimer{b: b}
			for b.Loop() {
				b.StopTimer()
				s, err := NewSession(context.Background(), opts)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				m.begin()
				res, err := s.Run(context.Background(), c.code, nil)
				m.end()
				b.StopTimer()
				s.Close()
				b.StartTimer()
				if err != nil || !res.Success || res.Value["text/plain"] != c.want {
					b.Fatalf("%v %+v", err, res)
				}
			}
			m.report()
		})
	}
}
