package award_data

import (
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// TestParallelKernels checks the kernels that split large inputs across
// goroutines (category sums, bitmap filters) on a table above the
// threshold, against plain loops.
func TestParallelKernels(t *testing.T) {
	n := 3*columnar.MinParallelRows + 17 // not a multiple of 64
	rng := rand.New(rand.NewPCG(5, 6))
	codes := make([]int16, n)
	years := make([]int64, n)
	amounts := make([]float64, n)
	dict := []string{"b", "a", "c", "d"}
	for i := range codes {
		codes[i] = int16(rng.IntN(3)) // "d" never occurs
		years[i] = int64(1980 + rng.IntN(50))
		amounts[i] = float64(rng.IntN(1000))
		if rng.IntN(100) == 0 {
			amounts[i] = math.NaN()
		}
	}
	tab := columnar.NewTable([]*columnar.Vector{
		{Name: "K", Kind: columnar.KindCategory, N: n, Codes: codes, Dict: dict},
		{Name: "Y", Kind: columnar.KindInt, N: n, Ints: years},
		{Name: "A", Kind: columnar.KindFloat, N: n, Floats: amounts},
	}, true)
	f := frameOf(tab)

	sums := map[string]float64{}
	for i, k := range codes {
		if !math.IsNaN(amounts[i]) {
			sums[dict[k]] += amounts[i]
		}
	}
	g := f.GroupBy("K").Sum("A")
	keys, got := g.Strings("K"), g.Floats("A")
	if !slices.Equal(keys, []string{"a", "b", "c"}) {
		t.Fatalf("groups %q", keys)
	}
	for j, k := range keys {
		if math.Abs(got[j]-sums[k]) > 1e-6 {
			t.Errorf("sum of %s = %v, want %v", k, got[j], sums[k])
		}
	}
	if c := f.GroupBy("K").Count().Ints("Count"); c[0]+c[1]+c[2] != int64(n) {
		t.Errorf("counts %v do not add up to %d", c, n)
	}

	sel := f.Where("Y", ">=", 2000).Where("K", "in", []string{"a", "c"})
	if sel.bits == nil {
		t.Fatal("expected a bitmap selection")
	}
	var want []int32
	for i := range years {
		if years[i] >= 2000 && (codes[i] == 1 || codes[i] == 2) {
			want = append(want, int32(i))
		}
	}
	if got := sel.rowList(); !slices.Equal(got, want) || sel.Len() != len(want) {
		t.Errorf("Where: %d rows, want %d", sel.Len(), len(want))
	}
}

// TestParallelMatches checks the regular-expression filter on more rows
// than minParallelRows, with and without a required literal.
func TestParallelMatches(t *testing.T) {
	n := 2*columnar.MinParallelRows + 5
	rng := rand.New(rand.NewPCG(7, 8))
	words := []string{"lidar", "Radar", "sonar", "x", "LIDAR unit", "radar-7"}
	vals := make([]string, n)
	for i := range vals {
		vals[i] = words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
	}
	f := frameOf(columnar.NewTable([]*columnar.Vector{columnar.TextVector("T", vals)}, false))
	for _, pattern := range []string{`(?i)lidar unit`, `radar|sonar`, `^x x$`, `\d$`} {
		re := regexp.MustCompile(pattern)
		var want []int32
		for i, v := range vals {
			if re.MatchString(v) {
				want = append(want, int32(i))
			}
		}
		got := f.Where("T", "matches", pattern)
		if err := got.Err(); err != nil {
			t.Fatal(err)
		}
		if rows := got.rowList(); !slices.Equal(rows, want) && !(len(rows) == 0 && len(want) == 0) {
			t.Errorf("%q: %d rows, want %d", pattern, len(rows), len(want))
		}
	}
}
