package award_data

import (
	"math"
	"slices"
	"strconv"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Count returns the number of rows in each group, in a column "Count".
//
// Example:
//
//	award_data.GroupBy("Award Year").Count()
func (g Grouped) Count() Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	out := make([]int64, len(g.rep))
	for i, n := range g.groupCounts() {
		out[i] = int64(n)
	}
	return g.result(&columnar.Vector{Name: "Count", Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "Count"})
}

func (g Grouped) numericColumn(op, name string) (*columnar.Vector, Frame, bool) {
	if f, bad := g.errFrame(); bad {
		return nil, f, false
	}
	c, err := g.f.lookup(op, name)
	if err != nil {
		return nil, errFrame(err), false
	}
	if !c.Numeric() {
		return nil, errFrame(wrongType(op, c, "int or float", "")), false
	}
	return c, Frame{}, true
}

// Sum returns the sum of a numeric column in each group, skipping nulls
// (a group of nulls sums to 0). The result column keeps the column's name
// and type (int sums stay int).
//
// Example:
//
//	award_data.GroupBy("Agency").Sum("Award Amount")
func (g Grouped) Sum(column string) Frame {
	c, bad, ok := g.numericColumn("Sum", column)
	if !ok {
		return bad
	}
	if c.Kind == columnar.KindInt {
		out := make([]int64, len(g.rep))
		for k, id := range g.idList() {
			i := g.f.row(k)
			if !c.IsNull(i) {
				out[id] += c.Ints[i]
			}
		}
		return g.result(&columnar.Vector{Name: c.Name, Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "Sum"})
	}
	out := make([]float64, len(g.rep))
	vals := c.Floats
	switch {
	case c.Valid == nil && g.codes != nil:
		columnar.SumByCode(out, g.codes, g.slot, vals[:len(g.codes)])
	case c.Valid == nil && g.f.all:
		for i, id := range g.ids {
			if v := vals[i]; v == v {
				out[id] += v
			}
		}
	default:
		for k, id := range g.idList() {
			i := g.f.row(k)
			if v := c.Float(i); !math.IsNaN(v) {
				out[id] += v
			}
		}
	}
	return g.result(&columnar.Vector{Name: c.Name, Kind: columnar.KindFloat, N: len(out), Floats: out, AggName: "Sum"})
}

// Mean returns the average of a numeric column in each group, skipping
// nulls; a group with no values gets a null.
//
// Example:
//
//	award_data.GroupBy("Phase").Mean("Award Amount")
func (g Grouped) Mean(column string) Frame {
	c, bad, ok := g.numericColumn("Mean", column)
	if !ok {
		return bad
	}
	sum := make([]float64, len(g.rep))
	cnt := make([]int, len(g.rep))
	for k, id := range g.idList() {
		if v := c.Float(g.f.row(k)); !math.IsNaN(v) {
			sum[id] += v
			cnt[id]++
		}
	}
	out := columnar.NewFloatResult(c.Name, len(sum), "Mean")
	for id := range sum {
		if cnt[id] == 0 {
			out.SetNull(id)
			continue
		}
		out.Floats[id] = sum[id] / float64(cnt[id])
	}
	return g.result(out)
}

// Median returns the median of a numeric column in each group, skipping
// nulls (Quantile with q = 0.5).
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase I").GroupBy("Award Year").Median("Award Amount")
func (g Grouped) Median(column string) Frame {
	return g.quantile("Median", column, 0.5)
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of a numeric column in each
// group, skipping nulls, interpolating linearly between the two nearest
// values (as pandas and numpy do by default); a group with no values gets
// a null.
//
// Example:
//
//	award_data.GroupBy("Agency").Quantile("Award Amount", 0.9)
func (g Grouped) Quantile(column string, q float64) Frame {
	return g.quantile("Quantile", column, q)
}

func (g Grouped) quantile(op, column string, q float64) Frame {
	c, bad, ok := g.numericColumn(op, column)
	if !ok {
		return bad
	}
	if !(q >= 0 && q <= 1) {
		return errFrame(errorf(op, "q is %v; it must be between 0 and 1", q))
	}
	// Bucket the values by group (counting sort), then sort each bucket.
	start := make([]int, len(g.rep)+1)
	ids := g.idList()
	for k, id := range ids {
		if !math.IsNaN(c.Float(g.f.row(k))) {
			start[id+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	vals := make([]float64, start[len(start)-1])
	fill := slices.Clone(start)
	for k, id := range ids {
		if v := c.Float(g.f.row(k)); !math.IsNaN(v) {
			vals[fill[id]] = v
			fill[id]++
		}
	}
	out := columnar.NewFloatResult(c.Name, len(g.rep), op)
	for id := range g.rep {
		seg := vals[start[id]:start[id+1]]
		if len(seg) == 0 {
			out.SetNull(id)
			continue
		}
		slices.Sort(seg)
		out.Floats[id] = columnar.QuantileSorted(seg, q)
	}
	return g.result(out)
}

// Min returns the smallest value of a column in each group, skipping
// nulls; it works on numbers, dates and text (alphabetical). The result
// keeps the column's name and type.
//
// Example:
//
//	award_data.GroupBy("Company").Min("Proposal Award Date")
func (g Grouped) Min(column string) Frame { return g.extreme("Min", column, -1) }

// Max returns the largest value of a column in each group, skipping
// nulls; it works on numbers, dates and text (alphabetical).
//
// Example:
//
//	award_data.GroupBy("Agency").Max("Award Amount")
func (g Grouped) Max(column string) Frame { return g.extreme("Max", column, 1) }

func (g Grouped) extreme(op, column string, sign int) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	c, err := g.f.lookup(op, column)
	if err != nil {
		return errFrame(err)
	}
	key := columnar.NewSortKey(c, false)
	best := make([]int32, len(g.rep))
	for i := range best {
		best[i] = -1
	}
	for k, id := range g.idList() {
		i := g.f.row(k)
		if c.IsNull(i) || (c.Kind == columnar.KindFloat && math.IsNaN(c.Floats[i])) {
			continue
		}
		if b := best[id]; b < 0 || key.Compare(i, int(b))*sign > 0 {
			best[id] = int32(i)
		}
	}
	out := columnar.Gather(c, best)
	out.AggName = op
	return g.result(out)
}

// CountDistinct returns the number of distinct non-null values of a
// column in each group, in a column named "Distinct " + column.
//
// Example:
//
//	award_data.GroupBy("Company").CountDistinct("Agency")
func (g Grouped) CountDistinct(column string) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	c, err := g.f.lookup("CountDistinct", column)
	if err != nil {
		return errFrame(err)
	}
	vids, vrep := columnar.KeyIDs(g.f.sel(), c, true)
	nullID := int32(-1)
	for id, r := range vrep {
		if c.IsNull(int(r)) || (c.Kind == columnar.KindFloat && math.IsNaN(c.Floats[r])) {
			nullID = int32(id)
		}
	}
	ids := g.idList()
	pairs := make([]uint64, 0, len(ids))
	for k, id := range ids {
		if vids[k] != nullID {
			pairs = append(pairs, uint64(id)<<32|uint64(uint32(vids[k])))
		}
	}
	slices.Sort(pairs)
	out := make([]int64, len(g.rep))
	for i, p := range pairs {
		if i == 0 || p != pairs[i-1] {
			out[p>>32]++
		}
	}
	return g.result(&columnar.Vector{Name: "Distinct " + c.Name, Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "CountDistinct"})
}

// Share returns, for each group, its number of rows ("Count") and the
// fraction of them where column op value holds ("Share", from 0 to 1),
// with the operators and values of Frame.Where. Rows where the column is
// null count in Count and never satisfy the condition.
//
// Example:
//
//	award_data.GroupBy("State").Share("Woman Owned", "==", "Y")
func (g Grouped) Share(column, op string, value any) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	match := g.f.Where(column, op, value)
	if match.err != nil {
		e := *match.err.(*Error)
		e.Op = "Share"
		return errFrame(&e)
	}
	hit := make([]bool, g.f.t.N)
	for _, i := range match.rowList() {
		hit[i] = true
	}
	yes := make([]int, len(g.rep))
	for k, id := range g.idList() {
		if hit[g.f.row(k)] {
			yes[id]++
		}
	}
	count := make([]int64, len(g.rep))
	share := columnar.NewFloatResult("Share", len(g.rep), "Share")
	for id, n := range g.groupCounts() {
		count[id] = int64(n)
		share.Floats[id] = float64(yes[id]) / float64(n)
	}
	return g.result(&columnar.Vector{Name: "Count", Kind: columnar.KindInt, N: len(count), Ints: count, AggName: "Count"}, share)
}

func itoa(n int) string { return strconv.Itoa(n) }
