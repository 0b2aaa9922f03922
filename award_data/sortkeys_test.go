package award_data

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// TestSortSingleKeys checks the radix path against a reference stable
// sort on values the fixture lacks: negatives, ±0, ±Inf, NaN, extreme ints.
func TestSortSingleKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 3000
	floats := make([]float64, n)
	ints := make([]int64, n)
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -1e-300, 1e300, -5, 5}
	intSpecials := []int64{math.MinInt64, math.MaxInt64, -1, 0, 1}
	for i := range floats {
		if rng.IntN(4) == 0 {
			floats[i] = specials[rng.IntN(len(specials))]
		} else {
			floats[i] = float64(rng.IntN(50) - 25)
		}
		if rng.IntN(4) == 0 {
			ints[i] = intSpecials[rng.IntN(len(intSpecials))]
		} else {
			ints[i] = int64(rng.IntN(40) - 20)
		}
	}
	fc := &columnar.Vector{Name: "F", Kind: columnar.KindFloat, N: n, Floats: floats}
	ic := &columnar.Vector{Name: "I", Kind: columnar.KindInt, N: n, Ints: ints}
	for i := 0; i < n; i += 7 {
		ic.SetNull(i)
	}
	f := frameOf(columnar.NewTable([]*columnar.Vector{fc, ic}, false))
	for _, tt := range []struct {
		key  string
		less func(a, b int) int
	}{
		{"F", func(a, b int) int {
			return cmpNullLast(math.IsNaN(floats[a]), math.IsNaN(floats[b]), cmp.Compare(floats[a], floats[b]))
		}},
		{"-F", func(a, b int) int {
			return cmpNullLast(math.IsNaN(floats[a]), math.IsNaN(floats[b]), cmp.Compare(floats[b], floats[a]))
		}},
		{"I", func(a, b int) int { return cmpNullLast(ic.IsNull(a), ic.IsNull(b), cmp.Compare(ints[a], ints[b])) }},
		{"-I", func(a, b int) int { return cmpNullLast(ic.IsNull(a), ic.IsNull(b), cmp.Compare(ints[b], ints[a])) }},
	} {
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		sort.SliceStable(want, func(i, j int) bool { return tt.less(int(want[i]), int(want[j])) < 0 })
		if got := frameRows(f.Sort(tt.key)); !slices.Equal(got, want) {
			t.Errorf("Sort(%q) differs from the reference stable sort", tt.key)
		}
	}
}

// cmpNullLast orders missing values last, then by r; -0 and +0 are equal.
func cmpNullLast(na, nb bool, r int) int {
	switch {
	case na && nb:
		return 0
	case na:
		return 1
	case nb:
		return -1
	}
	return r
}

// TestSortText checks text keys (dictionary-encoded once most of the
// column is sorted) against a reference stable sort of the fixture.
func TestSortText(t *testing.T) {
	rows := loadFixture(t)
	for _, tt := range []struct {
		keys []string
		less func(a, b fixtureRow) int
	}{
		{[]string{"-Company"}, func(a, b fixtureRow) int { return cmp.Compare(b["Company"], a["Company"]) }},
		{[]string{"City", "Award Title"}, func(a, b fixtureRow) int {
			if r := cmpNullLast(a["City"] == "", b["City"] == "", cmp.Compare(a["City"], b["City"])); r != 0 {
				return r
			}
			return cmp.Compare(a["Award Title"], b["Award Title"])
		}},
		{[]string{"UEI"}, func(a, b fixtureRow) int {
			return cmpNullLast(a["UEI"] == "", b["UEI"] == "", cmp.Compare(a["UEI"], b["UEI"]))
		}},
	} {
		want := make([]int32, len(rows))
		for i := range want {
			want[i] = int32(i)
		}
		sort.SliceStable(want, func(i, j int) bool { return tt.less(rows[want[i]], rows[want[j]]) < 0 })
		if got := frameRows(Sort(toAny(tt.keys)...)); !slices.Equal(got, want) {
			t.Errorf("Sort(%q) differs from the reference", tt.keys)
		}
	}
}

func toAny(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
