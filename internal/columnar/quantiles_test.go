package columnar

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQuantilesOfMatchesQuantiles checks QuantilesOf against Quantiles
// (a selection per quantile) on values of several shapes: spread, a few
// repeated ones, all equal, with NaNs, negatives, zeros of both signs and
// infinities; quantile lists of every length QCut asks for.
func TestQuantilesOfMatchesQuantiles(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	shapes := map[string]func() float64{
		"spread":    func() float64 { return math.Round(r.ExpFloat64()*1e5*100) / 100 },
		"few":       func() float64 { return float64([]int{150000, 1000000, 75000, 150000}[r.IntN(4)]) },
		"equal":     func() float64 { return 42 },
		"signed":    func() float64 { return r.NormFloat64() * 1e3 },
		"zeros":     func() float64 { return []float64{0, math.Copysign(0, -1), 1, -1}[r.IntN(4)] },
		"zero":      func() float64 { return []float64{0, 0, 65000.5, 150000}[r.IntN(4)] },
		"infinite":  func() float64 { return []float64{math.Inf(1), math.Inf(-1), 3, 4.5}[r.IntN(4)] },
		"narrow":    func() float64 { return 1e6 + float64(r.IntN(100))*math.Pow(2, -30) },
		"with NaNs": func() float64 { return []float64{math.NaN(), r.Float64()}[r.IntN(2)] },
	}
	for _, n := range []int{0, 1, 100, minRadixQuantiles, 50000} {
		for name, gen := range shapes {
			vals := make([]float64, n)
			for i := range vals {
				vals[i] = gen()
			}
			before := slices.Clone(vals)
			for _, q := range []int{1, 2, 4, 10, 1000} {
				if q == 1000 && n > minRadixQuantiles {
					continue // the reference's 1,000 selections take long
				}
				qs := make([]float64, q+1)
				for i := range qs {
					qs[i] = float64(i) / float64(q)
				}
				label := fmt.Sprintf("n=%d %s q=%d", n, name, q)
				got, ok := QuantilesOf(vals, qs)
				s := slices.DeleteFunc(slices.Clone(vals), func(v float64) bool { return v != v })
				if !ok {
					if len(s) > 0 {
						t.Fatalf("%s: no quantiles of %d values", label, len(s))
					}
					continue
				}
				want := Quantiles(s, qs)
				for i := range want {
					same := got[i] == want[i] && math.Signbit(got[i]) == math.Signbit(want[i]) ||
						math.IsNaN(got[i]) && math.IsNaN(want[i])
					if !same {
						t.Fatalf("%s: quantile %v = %v, want %v", label, qs[i], got[i], want[i])
					}
				}
			}
			if !slices.EqualFunc(vals, before, func(a, b float64) bool { return a == b || a != a && b != b }) {
				t.Fatalf("n=%d %s: QuantilesOf changed its input", n, name)
			}
		}
	}
}
