package award_data

import (
	"math"
	"slices"
	"strconv"
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
	return g.result(&vector{name: "Count", kind: kindInt, n: len(out), ints: out, aggName: "Count"})
}

func (g Grouped) numericColumn(op, name string) (*vector, Frame, bool) {
	if f, bad := g.errFrame(); bad {
		return nil, f, false
	}
	c, err := g.f.lookup(op, name)
	if err != nil {
		return nil, errFrame(err), false
	}
	if !c.numeric() {
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
	if c.kind == kindInt {
		out := make([]int64, len(g.rep))
		for k, id := range g.idList() {
			i := g.f.row(k)
			if !c.isNull(i) {
				out[id] += c.ints[i]
			}
		}
		return g.result(&vector{name: c.name, kind: kindInt, n: len(out), ints: out, aggName: "Sum"})
	}
	out := make([]float64, len(g.rep))
	vals := c.floats
	switch {
	case c.valid == nil && g.codes != nil:
		sumByCode(out, g.codes, g.slot, vals[:len(g.codes)])
	case c.valid == nil && g.f.all:
		for i, id := range g.ids {
			if v := vals[i]; v == v {
				out[id] += v
			}
		}
	default:
		for k, id := range g.idList() {
			i := g.f.row(k)
			if v := c.float(i); !math.IsNaN(v) {
				out[id] += v
			}
		}
	}
	return g.result(&vector{name: c.name, kind: kindFloat, n: len(out), floats: out, aggName: "Sum"})
}

// sumByCode adds vals[i] (NaN skipped) into out[slot[codes[i]]]. Large
// inputs are split across processors; within a part, four interleaved
// accumulators keep consecutive rows of one group (common: half the
// awards are DoD) from waiting on each other's additions.
func sumByCode(out []float64, codes []int16, slot []int32, vals []float64) {
	partial := make([][4][]float64, maxParts())
	used := parallelParts(len(codes), func(part, lo, hi int) {
		var acc [4][]float64
		for a := range acc {
			acc[a] = make([]float64, len(slot))
		}
		a0, a1, a2, a3 := acc[0], acc[1], acc[2], acc[3]
		cs, vs := codes[lo:hi], vals[lo:hi]
		n := len(cs)
		i := 0
		for ; i+4 <= n; i += 4 {
			v0, v1, v2, v3 := vs[i], vs[i+1], vs[i+2], vs[i+3]
			if v0 == v0 {
				a0[cs[i]] += v0
			}
			if v1 == v1 {
				a1[cs[i+1]] += v1
			}
			if v2 == v2 {
				a2[cs[i+2]] += v2
			}
			if v3 == v3 {
				a3[cs[i+3]] += v3
			}
		}
		for ; i < n; i++ {
			if v := vs[i]; v == v {
				a0[cs[i]] += v
			}
		}
		partial[part] = acc
	})
	for p := 0; p < used; p++ {
		acc := partial[p]
		for code := range slot {
			if s := acc[0][code] + acc[1][code] + acc[2][code] + acc[3][code]; s != 0 {
				out[slot[code]] += s
			}
		}
	}
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
		if v := c.float(g.f.row(k)); !math.IsNaN(v) {
			sum[id] += v
			cnt[id]++
		}
	}
	out := newFloatResult(c.name, len(sum), "Mean")
	for id := range sum {
		if cnt[id] == 0 {
			out.setNull(id)
			continue
		}
		out.floats[id] = sum[id] / float64(cnt[id])
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
		if !math.IsNaN(c.float(g.f.row(k))) {
			start[id+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	vals := make([]float64, start[len(start)-1])
	fill := slices.Clone(start)
	for k, id := range ids {
		if v := c.float(g.f.row(k)); !math.IsNaN(v) {
			vals[fill[id]] = v
			fill[id]++
		}
	}
	out := newFloatResult(c.name, len(g.rep), op)
	for id := range g.rep {
		seg := vals[start[id]:start[id+1]]
		if len(seg) == 0 {
			out.setNull(id)
			continue
		}
		slices.Sort(seg)
		out.floats[id] = quantileSorted(seg, q)
	}
	return g.result(out)
}

// quantileSorted is numpy's default (linear) quantile of sorted values.
func quantileSorted(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	if lo == hi {
		return s[lo]
	}
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
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
	key := newSortKey(c, false)
	best := make([]int32, len(g.rep))
	for i := range best {
		best[i] = -1
	}
	for k, id := range g.idList() {
		i := g.f.row(k)
		if c.isNull(i) || (c.kind == kindFloat && math.IsNaN(c.floats[i])) {
			continue
		}
		if b := best[id]; b < 0 || key.compare(i, int(b))*sign > 0 {
			best[id] = int32(i)
		}
	}
	out := gather(c, best)
	out.aggName = op
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
	vids, vrep := keyIDs(g.f, c, true)
	nullID := int32(-1)
	for id, r := range vrep {
		if c.isNull(int(r)) || (c.kind == kindFloat && math.IsNaN(c.floats[r])) {
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
	return g.result(&vector{name: "Distinct " + c.name, kind: kindInt, n: len(out), ints: out, aggName: "CountDistinct"})
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
	hit := make([]bool, g.f.t.n)
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
	share := newFloatResult("Share", len(g.rep), "Share")
	for id, n := range g.groupCounts() {
		count[id] = int64(n)
		share.floats[id] = float64(yes[id]) / float64(n)
	}
	return g.result(&vector{name: "Count", kind: kindInt, n: len(count), ints: count, aggName: "Count"}, share)
}

func newFloatResult(name string, n int, agg string) *vector {
	return &vector{name: name, kind: kindFloat, n: n, floats: make([]float64, n), aggName: agg}
}

// setNull marks row i of a result column as null, creating the bitmap.
func (c *vector) setNull(i int) {
	if c.valid == nil {
		c.valid = make([]byte, (c.n+7)/8)
		for j := range c.valid {
			c.valid[j] = 0xff
		}
	}
	c.valid[i>>3] &^= 1 << (uint(i) & 7)
}

// gather copies the values of c at the given table rows into a new
// column; a row of -1 gives a null.
func gather(c *vector, rows []int32) *vector {
	n := len(rows)
	out := &vector{name: c.name, kind: c.kind, n: n}
	null := func(r int32) bool { return r < 0 || c.isNull(int(r)) }
	switch c.kind {
	case kindText:
		out.offs = make([]int32, n+1)
		size := 0
		for _, r := range rows {
			if !null(r) {
				size += len(c.textBytes(int(r)))
			}
		}
		out.data = make([]byte, 0, size)
		for k, r := range rows {
			if !null(r) {
				out.data = append(out.data, c.textBytes(int(r))...)
			}
			out.offs[k+1] = int32(len(out.data))
		}
	case kindCategory:
		out.dict = c.dict
		out.codes = make([]int16, n)
		for k, r := range rows {
			if !null(r) {
				out.codes[k] = c.codes[r]
			}
		}
	case kindInt:
		out.ints = make([]int64, n)
		for k, r := range rows {
			if !null(r) {
				out.ints[k] = c.ints[r]
			}
		}
	case kindFloat:
		out.floats = make([]float64, n)
		for k, r := range rows {
			if !null(r) {
				out.floats[k] = c.floats[r]
			}
		}
	case kindDate:
		out.days = make([]int32, n)
		for k, r := range rows {
			if !null(r) {
				out.days[k] = c.days[r]
			}
		}
	}
	for k, r := range rows {
		if null(r) {
			out.setNull(k)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
