package columnar

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// binRef is the definition Bin must meet: each value's interval found by
// a binary search, one row at a time.
func binRef(c *Vector, rows []int32, edges []float64, lowest bool) []int {
	out := make([]int, len(rows))
	for k, r := range rows {
		v := c.Float(int(r))
		i, found := slices.BinarySearch(edges, v) // first edge ≥ v
		switch {
		case math.IsNaN(v), i == len(edges), i == 0 && !(found && lowest):
			out[k] = -1
		case i == 0:
			out[k] = 0
		default:
			out[k] = i - 1
		}
	}
	return out
}

func TestBin(t *testing.T) {
	c := floats(0, 1, 10, 10.5, 50, 51, math.NaN())
	edges := []float64{0, 10, 50}
	for _, tt := range []struct {
		lowest bool
		want   []int // -1: null
	}{
		{false, []int{-1, 0, 0, 1, 1, -1, -1}},
		{true, []int{0, 0, 0, 1, 1, -1, -1}},
	} {
		out := Bin("b", c, Sel{N: c.N, All: true}, edges, []string{"a", "b"}, tt.lowest)
		for i, w := range tt.want {
			got := int(out.Codes[i])
			if out.IsNull(i) {
				got = -1
			}
			if got != w {
				t.Errorf("lowest %v: value %v in bin %d, want %d", tt.lowest, c.Floats[i], got, w)
			}
		}
	}
}

// TestBinMatchesSearch checks Bin against binRef for int and float
// columns with nulls (holding values inside the edges), NaN and -0, over
// every form of selection, with few edges (compared one by one) and many
// (a binary search), on tables large enough to be split across
// processors and sized off multiples of 8.
func TestBinMatchesSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	short := []float64{0, 10, 50, 250, 500}
	long := make([]float64, 40)
	for i := range long {
		long[i] = float64(i*15 - 20)
	}
	for _, n := range []int{0, 1, 13, 1000, MinParallelRows*2 + 77} {
		ints := &Vector{Name: "i", Kind: KindInt, N: n, Ints: make([]int64, n)}
		fl := &Vector{Name: "f", Kind: KindFloat, N: n, Floats: make([]float64, n)}
		dense := &Vector{Name: "d", Kind: KindInt, N: n, Ints: make([]int64, n)}
		for i := range n {
			ints.Ints[i] = int64(r.IntN(620)) - 30
			dense.Ints[i] = int64(r.IntN(600))
			switch r.IntN(20) {
			case 0:
				fl.Floats[i] = math.NaN()
			case 1:
				fl.Floats[i] = math.Copysign(0, -1)
			default:
				fl.Floats[i] = float64(r.IntN(6200))/10 - 30
			}
			if r.IntN(7) == 0 {
				ints.SetNull(i) // the value stays: Bin must not bin it
				fl.SetNull(i)
			}
		}
		for name, s := range testSels(n, r) {
			for _, c := range []*Vector{ints, fl, dense} {
				for _, edges := range [][]float64{short, long} {
					for _, lowest := range []bool{false, true} {
						labels := make([]string, len(edges)-1)
						for i := range labels {
							labels[i] = fmt.Sprint(i)
						}
						out := Bin("b", c, s, edges, labels, lowest)
						want := binRef(c, s.Rows(), edges, lowest)
						if out.N != len(want) {
							t.Fatalf("n=%d %s %s: %d values, want %d", n, name, c.Name, out.N, len(want))
						}
						for k, w := range want {
							got := int(out.Codes[k])
							if out.IsNull(k) {
								got = -1
							}
							if got != w {
								t.Fatalf("n=%d %s %s %d edges lowest=%v: position %d (row value %v) in bin %d, want %d",
									n, name, c.Name, len(edges), lowest, k, c.Float(s.Row(k)), got, w)
							}
						}
					}
				}
			}
		}
	}
}
