package award_data

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// TestQuantileLargeGroups checks grouped medians and quantiles on a table
// large enough for the selection to be split across processors, with
// nulls, NaN, an all-null group and groups of every size, over all rows,
// a bitmap Where and a sorted list: each equals numpy's quantile of the
// group's values, computed by sorting.
func TestQuantileLargeGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	n := 3 * columnar.MinParallelRows
	key := &columnar.Vector{Name: "Year", Kind: columnar.KindInt, N: n, Ints: make([]int64, n)}
	val := &columnar.Vector{Name: "Amount", Kind: columnar.KindFloat, N: n, Floats: make([]float64, n)}
	for i := range n {
		// Group sizes from 1 to thousands: year y has weight ~y².
		key.Ints[i] = int64(math.Sqrt(float64(r.IntN(50 * 50))))
		switch {
		case key.Ints[i] == 7:
			val.SetNull(i) // an all-null group
		case r.IntN(20) == 0:
			val.SetNull(i)
		case r.IntN(20) == 0:
			val.Floats[i] = math.NaN()
		default:
			val.Floats[i] = float64(r.IntN(5000)) * 25.5
		}
	}
	f := frameOf(columnar.NewTable([]*columnar.Vector{key, val}, false))
	frames := map[string]Frame{
		"all":    f,
		"where":  f.Where("Year", ">=", 3),
		"sorted": f.Where("Year", "<", 40).Sort("-Amount"),
	}
	for name, fr := range frames {
		if err := fr.Err(); err != nil {
			t.Fatal(err)
		}
		byYear := map[int64][]float64{}
		for _, i := range fr.rowList() {
			if v := val.Float(int(i)); !math.IsNaN(v) {
				byYear[key.Ints[i]] = append(byYear[key.Ints[i]], v)
			} else if _, ok := byYear[key.Ints[i]]; !ok {
				byYear[key.Ints[i]] = nil
			}
		}
		for _, q := range []float64{0.5, 0.1, 0.9, 1} {
			res := fr.GroupBy("Year").Quantile("Amount", q)
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			years, got := res.Ints("Year"), res.Floats("Amount")
			if len(years) != len(byYear) {
				t.Fatalf("%s q=%v: %d groups, want %d", name, q, len(years), len(byYear))
			}
			for k, y := range years {
				vals := slices.Sorted(slices.Values(byYear[y]))
				want := math.NaN()
				if len(vals) > 0 {
					want = columnar.QuantileSorted(vals, q)
				}
				if got[k] != want && !(math.IsNaN(got[k]) && math.IsNaN(want)) {
					t.Fatalf("%s q=%v year %d (%d values): %v, want %v", name, q, y, len(vals), got[k], want)
				}
			}
		}
	}
}
