package columnar

import (
	"math"
	"regexp"
	"slices"
	"testing"
)

func floats(vals ...float64) *Vector {
	c := &Vector{Name: "x", Kind: KindFloat, N: len(vals), Floats: vals}
	for i, v := range vals {
		if math.IsNaN(v) {
			c.SetNull(i)
		}
	}
	return c
}

func iota32(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// values reads a float result, NaN for null.
func values(c *Vector) []float64 {
	out := make([]float64, c.N)
	for i := range out {
		out[i] = c.Float(i)
	}
	return out
}

func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) || math.Abs(x-y) < 1e-9 })
}

func TestRolling(t *testing.T) {
	nan := math.NaN()
	c := floats(1, 2, 3, nan, 5, 6, 7)
	rows := iota32(c.N)
	seg := OneSegment(c.N)
	for _, tt := range []struct {
		stat   string
		window int
		want   []float64
	}{
		// A window holding a null is null, as pandas' min_periods=window.
		{"sum", 2, []float64{nan, 3, 5, nan, nan, 11, 13}},
		{"mean", 3, []float64{nan, nan, 2, nan, nan, nan, 6}},
		{"max", 2, []float64{nan, 2, 3, nan, nan, 6, 7}},
		{"min", 3, []float64{nan, nan, 1, nan, nan, nan, 5}},
		{"median", 2, []float64{nan, 1.5, 2.5, nan, nan, 5.5, 6.5}},
		{"std", 3, []float64{nan, nan, 1, nan, nan, nan, 1}},
		{"count", 2, []float64{1, 2, 2, 1, 1, 2, 2}},
	} {
		out, err := Rolling("r", c, rows, seg, tt.window, tt.stat)
		if err != nil {
			t.Fatal(err)
		}
		if got := values(out); !sameFloats(got, tt.want) {
			t.Errorf("rolling %s %d = %v, want %v", tt.stat, tt.window, got, tt.want)
		}
	}
}

func TestShiftAndCumSumWithinGroups(t *testing.T) {
	c := &Vector{Name: "n", Kind: KindInt, N: 6, Ints: []int64{1, 10, 2, 20, 3, 30}}
	rows := iota32(6)
	seg := GroupSegments([]int32{0, 1, 0, 1, 0, 1}, 2)
	prev := ShiftRows(rows, seg, 1)
	if want := []int32{-1, -1, 0, 1, 2, 3}; !slices.Equal(prev, want) {
		t.Errorf("ShiftRows = %v, want %v", prev, want)
	}
	diff := Differences("d", c, rows, prev, true, nil)
	if got := values(diff); !sameFloats(got, []float64{math.NaN(), math.NaN(), 1, 10, 1, 10}) {
		t.Errorf("diff = %v", got)
	}
	if got := CumSum("s", c, rows, seg).Ints; !slices.Equal(got, []int64{1, 10, 3, 30, 6, 60}) {
		t.Errorf("cumsum = %v", got)
	}
}

func TestRankMethods(t *testing.T) {
	c := floats(3, 1, 3, math.NaN(), 2)
	rows := iota32(c.N)
	for method, want := range map[string][]float64{
		"average": {3.5, 1, 3.5, math.NaN(), 2},
		"min":     {3, 1, 3, math.NaN(), 2},
		"max":     {4, 1, 4, math.NaN(), 2},
		"first":   {3, 1, 4, math.NaN(), 2},
		"dense":   {3, 1, 3, math.NaN(), 2},
	} {
		out, err := Rank("r", NewSortKey(c, false), rows, OneSegment(c.N), method)
		if err != nil {
			t.Fatal(err)
		}
		if got := values(out); !sameFloats(got, want) {
			t.Errorf("rank %s = %v, want %v", method, got, want)
		}
	}
}

func TestCountWords(t *testing.T) {
	c := TextVector("t", []string{"The cat, the HAT.", "Über café_au-lait 42", ""})
	got := CountWords(Sel{N: 3, All: true}, c)
	want := []WordFreq{{"the", 2}, {"42", 1}, {"au", 1}, {"café", 1}, {"cat", 1}, {"hat", 1}, {"lait", 1}, {"über", 1}}
	if !slices.Equal(got, want) {
		t.Errorf("CountWords = %v, want %v", got, want)
	}
}

func TestSplitAndExtract(t *testing.T) {
	c := TextVector("t", []string{"a b  c", "", "x@y.org"})
	from, pieces, err := SplitText("t", c, iota32(3), "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(from, []int32{0, 0, 0, 1, 2}) || pieces.Str(2) != "c" || !pieces.IsNull(3) {
		t.Errorf("SplitText: from %v, pieces %q %q", from, pieces.Str(2), pieces.Str(3))
	}
	if _, _, err := SplitText("t", c, iota32(3), " ", 3); err != ErrTooManyPieces {
		t.Errorf("SplitText past its limit: %v", err)
	}
	ex := Extract("e", c, iota32(3), regexp.MustCompile(`@(.+)$`))
	if !ex.IsNull(0) || !ex.IsNull(1) || ex.Str(2) != "y.org" {
		t.Errorf("Extract: %q %q %q", ex.Str(0), ex.Str(1), ex.Str(2))
	}
}

func TestQuantiles(t *testing.T) {
	vals := make([]float64, 1001)
	for i := range vals {
		vals[i] = float64((i * 7919) % 1001) // 0..1000, shuffled
	}
	qs := []float64{0, 0.1, 0.25, 0.5, 0.75, 0.999, 1}
	got := Quantiles(slices.Clone(vals), qs)
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	for i, q := range qs {
		if want := QuantileSorted(sorted, q); math.Abs(got[i]-want) > 1e-9 {
			t.Errorf("quantile %v = %v, want %v", q, got[i], want)
		}
	}
}
