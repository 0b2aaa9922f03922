package columnar

import (
	"fmt"
	"math"
	"slices"
)

// Segments splits the positions 0..n-1 of a selection into groups kept
// in order: the positions of group g are Pos[Start[g]:Start[g+1]]. The
// window functions (Shifted, CumSum, Rolling, Rank) work within each
// segment, as pandas' groupby(...).shift() and friends do; one segment
// of every position is the whole frame.
type Segments struct {
	Pos   []int32
	Start []int
}

// OneSegment is every position 0..n-1 as one segment.
func OneSegment(n int) Segments {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	return Segments{Pos: pos, Start: []int{0, n}}
}

// GroupSegments groups positions by ids (the group of each position,
// 0..ngroups-1), each group's positions in their order: a counting sort.
func GroupSegments(ids []int32, ngroups int) Segments {
	start := make([]int, ngroups+1)
	for _, id := range ids {
		start[id+1]++
	}
	for g := 0; g < ngroups; g++ {
		start[g+1] += start[g]
	}
	fill := slices.Clone(start[:ngroups])
	pos := make([]int32, len(ids))
	for k, id := range ids {
		pos[fill[id]] = int32(k)
		fill[id]++
	}
	return Segments{Pos: pos, Start: start}
}

// each calls fn with the positions of every segment.
func (s Segments) each(fn func(pos []int32)) {
	for g := 0; g+1 < len(s.Start); g++ {
		fn(s.Pos[s.Start[g]:s.Start[g+1]])
	}
}

// ShiftRows returns, for each position of rows, the table row periods
// positions earlier in its segment (later for a negative periods), or -1
// where there is none: Gather of c with it is pandas' shift(periods).
func ShiftRows(rows []int32, seg Segments, periods int) []int32 {
	src := make([]int32, len(rows))
	for i := range src {
		src[i] = -1
	}
	seg.each(func(pos []int32) {
		for j, p := range pos {
			if k := j - periods; k >= 0 && k < len(pos) {
				src[p] = rows[pos[k]]
			}
		}
	})
	return src
}

// Differences computes, for each position k, fn(c[rows[k]], c[prev[k]])
// of a numeric column, where prev comes from ShiftRows: Diff and
// PctChange. A null on either side, or a NaN result, is null. With
// intOut, c is an int column and fn's result is exact as an int64 (Diff).
func Differences(name string, c *Vector, rows, prev []int32, intOut bool, fn func(cur, before float64) float64) *Vector {
	n := len(rows)
	out := &Vector{Name: name, Kind: KindFloat, N: n}
	if intOut {
		out.Kind, out.Ints = KindInt, make([]int64, n)
	} else {
		out.Floats = make([]float64, n)
	}
	for k, r := range rows {
		b := prev[k]
		if b < 0 || c.IsNull(int(r)) || c.IsNull(int(b)) {
			out.SetNull(k)
			continue
		}
		if intOut {
			out.Ints[k] = c.Ints[r] - c.Ints[b]
			continue
		}
		v := fn(c.Float(int(r)), c.Float(int(b)))
		if math.IsNaN(v) {
			out.SetNull(k)
		}
		out.Floats[k] = v
	}
	return out
}

// CumSum is the running sum of a numeric column over each segment, in
// order, skipping nulls (a null row stays null and the sum goes on), as
// pandas' cumsum(). An int column's sum stays int.
func CumSum(name string, c *Vector, rows []int32, seg Segments) *Vector {
	n := len(rows)
	out := &Vector{Name: name, Kind: c.Kind, N: n}
	if c.Kind == KindInt {
		out.Ints = make([]int64, n)
	} else {
		out.Kind, out.Floats = KindFloat, make([]float64, n)
	}
	seg.each(func(pos []int32) {
		var si int64
		var sf float64
		for _, p := range pos {
			r := int(rows[p])
			v := c.Float(r)
			if math.IsNaN(v) {
				out.SetNull(int(p))
				continue
			}
			if c.Kind == KindInt {
				si += c.Ints[r]
				out.Ints[p] = si
			} else {
				sf += v
				out.Floats[p] = sf
			}
		}
	})
	return out
}

// RollingStats are the statistics Rolling computes.
var RollingStats = []string{"sum", "mean", "min", "max", "std", "var", "median", "count"}

// maxRollingMedianWork bounds window × rows for a rolling median, which
// keeps each window sorted (a step costs up to the window's size).
const maxRollingMedianWork = 2e9

// Rolling computes stat over a moving window of the last window
// positions of each segment (the row itself and the window-1 before it),
// as pandas' rolling(window).stat(): a window with fewer than window
// non-null values gives a null (count counts whatever there is). std and
// var are sample statistics (divided by n-1).
func Rolling(name string, c *Vector, rows []int32, seg Segments, window int, stat string) (*Vector, error) {
	if !slices.Contains(RollingStats, stat) {
		return nil, fmt.Errorf("unknown statistic %q", stat)
	}
	if stat == "median" && float64(window)*float64(len(rows)) > maxRollingMedianWork {
		return nil, fmt.Errorf("a rolling median over %d rows with a window of %d is too much work; use a smaller window", len(rows), window)
	}
	out := NewFloatResult(name, len(rows), "")
	vals := make([]float64, 0, 64)
	seg.each(func(pos []int32) {
		vals = vals[:0]
		for _, p := range pos {
			vals = append(vals, c.Float(int(rows[p])))
		}
		res := rollingSegment(vals, window, stat)
		for j, p := range pos {
			if math.IsNaN(res[j]) {
				out.SetNull(int(p))
			}
			out.Floats[p] = res[j]
		}
	})
	return out, nil
}

// rollingSegment is Rolling over one segment's values (NaN for null); a
// NaN result is a null.
func rollingSegment(vals []float64, window int, stat string) []float64 {
	switch stat {
	case "min", "max":
		return rollingExtreme(vals, window, stat == "max")
	case "median":
		return rollingMedian(vals, window)
	}
	res := make([]float64, len(vals))
	var m moments
	for j, v := range vals {
		m.add(v)
		if j >= window {
			m.remove(vals[j-window])
		}
		res[j] = m.value(stat, window)
	}
	return res
}

// moments is a window's count, sum (compensated, as pandas' rolling sum
// is) and mean and sum of squared deviations (Welford's, with removal).
type moments struct {
	n         int
	sum, comp float64
	mean, ssd float64
}

func (m *moments) add(v float64) {
	if math.IsNaN(v) {
		return
	}
	m.n++
	m.sum, m.comp = twoSum(m.sum, m.comp, v)
	d := v - m.mean
	m.mean += d / float64(m.n)
	m.ssd += d * (v - m.mean)
}

func (m *moments) remove(v float64) {
	if math.IsNaN(v) {
		return
	}
	m.n--
	m.sum, m.comp = twoSum(m.sum, m.comp, -v)
	if m.n == 0 {
		m.mean, m.ssd = 0, 0
		return
	}
	d := v - m.mean
	m.mean -= d / float64(m.n)
	m.ssd -= d * (v - m.mean)
	m.ssd = max(m.ssd, 0)
}

// value is the statistic of a full window; NaN when it has fewer than
// window values.
func (m *moments) value(stat string, window int) float64 {
	if stat == "count" {
		return float64(m.n)
	}
	if m.n < window {
		return math.NaN()
	}
	switch stat {
	case "sum":
		return m.sum + m.comp
	case "mean":
		return (m.sum + m.comp) / float64(m.n)
	case "var", "std":
		if m.n < 2 {
			return math.NaN()
		}
		v := m.ssd / float64(m.n-1)
		if stat == "std" {
			return math.Sqrt(v)
		}
		return v
	}
	return math.NaN()
}

// twoSum adds v to the compensated sum (s, c) (Neumaier's algorithm):
// s + c holds the sum far more exactly than s alone.
func twoSum(s, c, v float64) (float64, float64) {
	t := s + v
	if math.Abs(s) >= math.Abs(v) {
		c += (s - t) + v
	} else {
		c += (v - t) + s
	}
	return t, c
}

// rollingExtreme is the rolling min or max with a monotonic queue of
// positions: linear in the values whatever the window.
func rollingExtreme(vals []float64, window int, isMax bool) []float64 {
	res := make([]float64, len(vals))
	var q []int // positions of candidates, their values monotonic
	nulls := 0
	better := func(a, b float64) bool { return a > b == isMax && a != b }
	for j, v := range vals {
		if math.IsNaN(v) {
			nulls++
		} else {
			for len(q) > 0 && !better(vals[q[len(q)-1]], v) {
				q = q[:len(q)-1]
			}
			q = append(q, j)
		}
		if j >= window {
			if math.IsNaN(vals[j-window]) {
				nulls--
			}
			if len(q) > 0 && q[0] <= j-window {
				q = q[1:]
			}
		}
		if j+1 < window || nulls > 0 || len(q) == 0 {
			res[j] = math.NaN()
			continue
		}
		res[j] = vals[q[0]]
	}
	return res
}

// rollingMedian keeps the window's non-null values sorted.
func rollingMedian(vals []float64, window int) []float64 {
	res := make([]float64, len(vals))
	sorted := make([]float64, 0, window)
	for j, v := range vals {
		if !math.IsNaN(v) {
			i, _ := slices.BinarySearch(sorted, v)
			sorted = slices.Insert(sorted, i, v)
		}
		if j >= window {
			if old := vals[j-window]; !math.IsNaN(old) {
				i, _ := slices.BinarySearch(sorted, old)
				sorted = slices.Delete(sorted, i, i+1)
			}
		}
		if len(sorted) < window {
			res[j] = math.NaN()
			continue
		}
		res[j] = QuantileSorted(sorted, 0.5)
	}
	return res
}
