package columnar

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQuantileMatchesSorting checks that selecting gives exactly what
// sorting gives, on random data with many duplicates, sorted and reversed
// runs, and every quantile pandas users ask for.
func TestQuantileMatchesSorting(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := [][]float64{{1}, {2, 1}, {3, 3, 3}}
	for n := 1; n < 300; n += 7 {
		random, dups, sorted, reversed := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			random[i] = r.NormFloat64() * 1e6
			dups[i] = float64(r.IntN(4))
			sorted[i] = float64(i)
			reversed[i] = float64(n - i)
		}
		inputs = append(inputs, random, dups, sorted, reversed)
	}
	for _, in := range inputs {
		want := slices.Sorted(slices.Values(in))
		for _, q := range []float64{0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1} {
			got := Quantile(slices.Clone(in), q)
			if w := QuantileSorted(want, q); got != w {
				t.Fatalf("Quantile(%v, %v) = %v, sorting gives %v", in, q, got, w)
			}
		}
	}
}

func FuzzQuantile(f *testing.F) {
	f.Add([]byte{3, 1, 2, 2, 9}, uint8(128))
	f.Fuzz(func(t *testing.T, b []byte, qb uint8) {
		if len(b) == 0 {
			return
		}
		in := make([]float64, len(b))
		for i, x := range b {
			in[i] = float64(x % 17)
		}
		q := float64(qb) / 255
		want := QuantileSorted(slices.Sorted(slices.Values(in)), q)
		if got := Quantile(in, q); got != want {
			t.Fatalf("Quantile = %v, sorting gives %v", got, want)
		}
	})
}
