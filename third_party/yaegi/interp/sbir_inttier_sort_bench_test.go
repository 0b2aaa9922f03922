package interp_test

import (
	"io"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// BenchmarkSbirIntTierSortSlice sorts the 200,000 records of
// bench/lang/sortslice with sort.Slice and its less function (a literal
// reading fields of the slice it captures), compiled once, the records
// made once: the cost of compiled code calling an interpreted less in
// the int tier, ~3.7 million calls an operation (sbir patch S14).
func BenchmarkSbirIntTierSortSlice(b *testing.B) {
	i := interp.New(interp.Options{Stdout: io.Discard, Stderr: io.Discard})
	if err := i.Use(stdlib.Symbols); err != nil {
		b.Fatal(err)
	}
	if _, err := i.Eval(`
import "sort"

type record struct {
	id    int
	score int
}

var orig, recs []record

func init() {
	seed := 7
	orig = make([]record, 200_000)
	for i := range orig {
		seed = (seed*1103515245 + 12345) % 2147483648
		orig[i] = record{id: i, score: (seed >> 16) % 10_000}
	}
}

func sortRecs() int {
	recs := make([]record, len(orig))
	copy(recs, orig)
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].score != recs[j].score {
			return recs[i].score > recs[j].score
		}
		return recs[i].id < recs[j].id
	})
	return recs[0].id*1_000_000 + recs[len(recs)-1].id
}`); err != nil {
		b.Fatal(err)
	}
	prog, err := i.Compile(`sortRecs()`)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for j := 0; j < b.N; j++ {
		v, err := i.Execute(prog)
		if err != nil {
			b.Fatal(err)
		}
		if got := v.Int(); got != 3911*1_000_000+182042 {
			b.Fatalf("sortRecs() = %d, want %d", got, 3911*1_000_000+182042)
		}
	}
}
