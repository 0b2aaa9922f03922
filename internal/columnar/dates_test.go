package columnar

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// dateColumn returns n dates drawn from days (spread around day 0),
// every nullEvery-th one null (0: none) holding a far-off day, with its
// validity read from bit offset off of its bitmap, as a slice of an
// Arrow buffer is.
func dateColumn(n, spread, nullEvery, off int, r *rand.Rand) *Vector {
	c := &Vector{Name: "d", Kind: KindDate, N: n, Days: make([]int32, n)}
	for i := range n {
		c.Days[i] = int32(10000 + r.IntN(spread) - spread/2)
	}
	if nullEvery == 0 {
		return c
	}
	c.Valid = make([]byte, (n+off+7)/8)
	for i := range c.Valid {
		c.Valid[i] = 0xff
	}
	c.ValidOff = off
	for i := range n {
		if r.IntN(nullEvery) == 0 {
			j := off + i
			c.Valid[j>>3] &^= 1 << (j & 7)
			c.Days[i] = math.MaxInt32 - int32(r.IntN(3)) // a null's day is anything
		}
	}
	return c
}

// TestDatePartMatchesPerRow checks DatePart against part called on each
// row, over every form of selection, with and without nulls (and a
// validity bitmap at an offset), days spanning a table's worth or too
// many for one, and tables large enough to be split across processors;
// and that the result's cached int span is its exact span.
func TestDatePartMatchesPerRow(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	calls := 0
	month := func(d int32) int64 { calls++; return int64(d%97) - 40 }
	for _, n := range []int{0, 1, 13, 1000, MinParallelRows*2 + 77} {
		for _, tc := range []struct{ spread, nullEvery, off int }{
			{3000, 0, 0}, {3000, 5, 0}, {3000, 5, 3}, {1 << 30, 7, 5}, {3000, 1, 0},
		} {
			c := dateColumn(n, tc.spread, tc.nullEvery, tc.off, r)
			for name, s := range testSels(n, r) {
				label := fmt.Sprintf("n=%d %s spread=%d nulls=1/%d off=%d", n, name, tc.spread, tc.nullEvery, tc.off)
				out := DatePart("p", c, s, func(d int32) int64 { return int64(d%97) - 40 })
				if out.N != s.Len() || len(out.Ints) != s.Len() {
					t.Fatalf("%s: %d values, want %d", label, out.N, s.Len())
				}
				for k := range out.N {
					row := s.Row(k)
					if c.IsNull(row) != out.IsNull(k) {
						t.Fatalf("%s: position %d null %v, want %v", label, k, out.IsNull(k), c.IsNull(row))
					}
					if !c.IsNull(row) && out.Ints[k] != month(c.Days[row]) {
						t.Fatalf("%s: position %d (day %d) = %d, want %d", label, k, c.Days[row], out.Ints[k], month(c.Days[row]))
					}
				}
				lo, hi, ok := out.intSpan()
				wlo, whi, wok := IntSpan(out)
				if lo != wlo || hi != whi || ok != wok {
					t.Fatalf("%s: cached span %d..%d (%v), want %d..%d (%v)", label, lo, hi, ok, wlo, whi, wok)
				}
			}
		}
	}
	if calls == 0 {
		t.Fatal("no value checked")
	}
}
