package pkgenv

import (
	"context"
	"testing"
)

// BenchmarkEnsureCached measures what a session pays on its first cell
// for a requirement set another session already installed: hashing the
// set, the shared lock, reading the manifest and touching the LRU stamp.
// Target: ≤ 50 ms.
func BenchmarkEnsureCached(b *testing.B) {
	tp := newTestProxy(b, fixtureModules()...)
	opts := testOptions(b, tp)
	reqs := []Requirement{reqStats, reqTextutil}
	env, err := Ensure(context.Background(), reqs, opts)
	if err != nil {
		b.Fatal(err)
	}
	env.Close()
	opts.AllowInstall = false
	b.ResetTimer()
	for b.Loop() {
		env, err := Ensure(context.Background(), reqs, opts)
		if err != nil {
			b.Fatal(err)
		}
		env.Close()
	}
}

// BenchmarkParseRequirements measures the per-cell cost of scanning for
// declarations in a typical cell.
func BenchmarkParseRequirements(b *testing.B) {
	cell := "//sbir:require github.com/montanaflynn/stats v0.7.1\nimport \"github.com/montanaflynn/stats\"\n\nrows := award_data.Filter(\"Agency\", \"NASA\")\nm, _ := stats.Mean(rows.Float64(\"Award Amount\"))\nfmt.Println(m)\n"
	for b.Loop() {
		ParseRequirements(cell)
	}
}
