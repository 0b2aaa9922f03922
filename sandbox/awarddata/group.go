package award_data

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// keyIDs gives each row of f (by position) a dense id for its value in c;
// nulls share one id. rep[id] is the first table row with that id.
//
// A text column gets (and keeps) a dictionary encoding when f covers a
// large part of it and cache is true; Describe passes false so that
// summarizing every column does not keep one per column.
func keyIDs(f Frame, c *vector, cache bool) (ids []int32, rep []int32) {
	n := f.Len()
	ids = make([]int32, n)
	switch c.kind {
	case kindCategory:
		idOf := make([]int32, len(c.dict)+1) // last slot: null
		for i := range idOf {
			idOf[i] = -1
		}
		nullSlot := len(c.dict)
		if f.all && c.valid == nil {
			for i, code := range c.codes[:n] {
				id := idOf[code]
				if id < 0 {
					id = int32(len(rep))
					idOf[code] = id
					rep = append(rep, int32(i))
				}
				ids[i] = id
			}
			return ids, rep
		}
		for k := 0; k < n; k++ {
			i := f.row(k)
			slot := int(c.codes[i])
			if c.valid != nil && c.isNull(i) {
				slot = nullSlot
			}
			id := idOf[slot]
			if id < 0 {
				id = int32(len(rep))
				idOf[slot] = id
				rep = append(rep, int32(i))
			}
			ids[k] = id
		}
	case kindText:
		d := c.cachedTextDictionary()
		if d == nil && cache && n >= c.n/16 {
			d = c.textDictionary()
		}
		if d != nil {
			idOf := make([]int32, len(d.values)+1) // last slot: null
			for i := range idOf {
				idOf[i] = -1
			}
			nullSlot := int32(len(d.values))
			for k := 0; k < n; k++ {
				i := f.row(k)
				slot := d.codes[i]
				if slot < 0 {
					slot = nullSlot
				}
				id := idOf[slot]
				if id < 0 {
					id = int32(len(rep))
					idOf[slot] = id
					rep = append(rep, int32(i))
				}
				ids[k] = id
			}
			return ids, rep
		}
		m := make(map[string]int32)
		nullID := int32(-1)
		for k := 0; k < n; k++ {
			i := f.row(k)
			if c.isNull(i) {
				if nullID < 0 {
					nullID = int32(len(rep))
					rep = append(rep, int32(i))
				}
				ids[k] = nullID
				continue
			}
			v := c.view(i)
			id, ok := m[v]
			if !ok {
				id = int32(len(rep))
				m[v] = id
				rep = append(rep, int32(i))
			}
			ids[k] = id
		}
	default:
		m := make(map[uint64]int32)
		nullID := int32(-1)
		for k := 0; k < n; k++ {
			i := f.row(k)
			if c.isNull(i) || (c.kind == kindFloat && math.IsNaN(c.floats[i])) {
				if nullID < 0 {
					nullID = int32(len(rep))
					rep = append(rep, int32(i))
				}
				ids[k] = nullID
				continue
			}
			key := scalarKey(c, i)
			id, ok := m[key]
			if !ok {
				id = int32(len(rep))
				m[key] = id
				rep = append(rep, int32(i))
			}
			ids[k] = id
		}
	}
	return ids, rep
}

// scalarKey is a hashable image of a non-null number or date.
func scalarKey(c *vector, i int) uint64 {
	switch c.kind {
	case kindInt:
		return uint64(c.ints[i])
	case kindFloat:
		v := c.floats[i]
		if v == 0 {
			v = 0 // -0 and +0 are one group
		}
		return math.Float64bits(v)
	case kindDate:
		return uint64(uint32(c.days[i]))
	}
	return 0
}

// combineIDs merges two id vectors into ids of their pairs.
func combineIDs(a []int32, na int, b []int32, nb int) ([]int32, []int32, int) {
	out := make([]int32, len(a))
	var first []int32 // position of each pair's first row
	if int64(na)*int64(nb) <= 1<<20 {
		slot := make([]int32, na*nb)
		for i := range slot {
			slot[i] = -1
		}
		for k := range a {
			s := int(a[k])*nb + int(b[k])
			id := slot[s]
			if id < 0 {
				id = int32(len(first))
				slot[s] = id
				first = append(first, int32(k))
			}
			out[k] = id
		}
		return out, first, len(first)
	}
	m := make(map[uint64]int32)
	for k := range a {
		key := uint64(a[k])<<32 | uint64(uint32(b[k]))
		id, ok := m[key]
		if !ok {
			id = int32(len(first))
			m[key] = id
			first = append(first, int32(k))
		}
		out[k] = id
	}
	return out, first, len(first)
}

// Grouped is a Frame split into groups of rows with equal values in the
// key columns. Its methods compute one value per group and return a
// Frame with the key columns followed by the result column, one row per
// group, sorted by the keys (null keys last; rows with a null key form
// their own group).
//
// Example:
//
//	award_data.GroupBy("Agency").Sum("Award Amount")
//	award_data.GroupBy("Award Year", "Phase").Count()
type Grouped struct {
	f      Frame
	keys   []*vector
	ids    []int32 // group of each row of f, by position; nil when codes is set
	rep    []int32 // first table row of each group
	counts []int
	err    error

	// For one category key over all rows (the most common grouping), the
	// group of row i is slot[codes[i]]: no per-row id vector is built.
	codes []int16
	slot  []int32
}

// idList returns the group of each row of f, by position.
func (g Grouped) idList() []int32 {
	if g.ids != nil || g.codes == nil {
		return g.ids
	}
	ids := make([]int32, len(g.codes))
	for i, code := range g.codes {
		ids[i] = g.slot[code]
	}
	return ids
}

// groupByCategory is GroupBy's fast path for one category key without
// nulls over all rows.
func groupByCategory(f Frame, c *vector) Grouped {
	g := Grouped{f: f, keys: []*vector{c}, codes: c.codes[:f.t.n]}
	counts := make([]int, len(c.dict))
	first := make([]int32, len(c.dict))
	for i := range first {
		first[i] = -1
	}
	for i, code := range g.codes {
		if first[code] < 0 {
			first[code] = int32(i)
		}
		counts[code]++
	}
	rank := dictRank(c.dict)
	byRank := make([]int32, len(c.dict)) // code of each rank
	for code, r := range rank {
		byRank[r] = int32(code)
	}
	g.slot = make([]int32, len(c.dict))
	for _, code := range byRank {
		if counts[code] == 0 {
			continue
		}
		g.slot[code] = int32(len(g.rep))
		g.rep = append(g.rep, first[code])
		g.counts = append(g.counts, counts[code])
	}
	if g.rep == nil {
		g.rep = []int32{}
	}
	return g
}

// GroupBy groups the rows of f by the named columns. Call an aggregation
// on the result: Count, Sum, Mean, Median, Quantile, Min, Max,
// CountDistinct or Share.
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20)
func (f Frame) GroupBy(columns ...string) Grouped {
	if f.err != nil {
		return Grouped{err: f.err}
	}
	if len(columns) == 0 {
		return Grouped{err: errorf("GroupBy", "name at least one column, e.g. GroupBy(\"Agency\")")}
	}
	if len(columns) == 1 && f.all {
		if c, err := f.lookup("GroupBy", columns[0]); err == nil && c.kind == kindCategory && c.valid == nil {
			return groupByCategory(f, c)
		}
	}
	g := Grouped{f: f}
	var ids []int32
	var rep []int32
	ngroups := 0
	for j, name := range columns {
		c, err := f.lookup("GroupBy", name)
		if err != nil {
			return Grouped{err: err}
		}
		g.keys = append(g.keys, c)
		cids, crep := keyIDs(f, c, true)
		if j == 0 {
			ids, rep, ngroups = cids, crep, len(crep)
			continue
		}
		var first []int32
		ids, first, ngroups = combineIDs(ids, ngroups, cids, len(crep))
		rep = make([]int32, len(first))
		for id, k := range first {
			rep[id] = int32(f.row(int(k)))
		}
	}
	// Order groups by their key values.
	keys := make([]sortKey, len(g.keys))
	for j, c := range g.keys {
		keys[j] = newSortKey(c, false)
	}
	// sortedRows keeps equal keys in id order; rows of one group never
	// compare equal to another group's, so the order is total.
	order := sortedPositions(rep, keys)
	rank := make([]int32, ngroups)
	g.rep = make([]int32, ngroups)
	for r, id := range order {
		rank[id] = int32(r)
		g.rep[r] = rep[id]
	}
	g.counts = make([]int, ngroups)
	for k, id := range ids {
		ids[k] = rank[id]
		g.counts[ids[k]]++
	}
	g.ids = ids
	return g
}

// Err returns the error of the chain that produced g, or nil.
//
// Example:
//
//	fmt.Println(award_data.GroupBy("Agncy").Err())
func (g Grouped) Err() error { return g.err }

// Len returns the number of groups.
//
// Example:
//
//	n := award_data.GroupBy("Company").Len() // distinct companies (and a null group, if any)
func (g Grouped) Len() int { return len(g.rep) }

// String describes g; it is what a cell shows when a GroupBy has no
// aggregation yet.
//
// Example:
//
//	fmt.Println(award_data.GroupBy("Agency")) // GroupBy("Agency"): 13 groups; aggregate with Count(), Sum(column), ...
func (g Grouped) String() string {
	if g.err != nil {
		return g.err.Error()
	}
	names := make([]string, len(g.keys))
	for i, c := range g.keys {
		names[i] = quote(c.name)
	}
	return "GroupBy(" + strings.Join(names, ", ") + "): " + groupThousands(itoa(len(g.rep))) +
		" groups; aggregate with Count(), Sum(column), Mean(column), Median(column), Quantile(column, q), Min(column), Max(column), CountDistinct(column) or Share(column, op, value)"
}

// result builds the output frame: key columns, then the extra columns.
func (g Grouped) result(extra ...*vector) Frame {
	cols := make([]*vector, 0, len(g.keys)+len(extra))
	used := map[string]bool{}
	for _, c := range g.keys {
		kc := gather(c, g.rep)
		cols = append(cols, kc)
		used[kc.name] = true
	}
	for _, c := range extra {
		cols = append(cols, c)
	}
	for i := len(g.keys); i < len(cols); i++ {
		if used[cols[i].name] {
			cols[i].name = cols[i].name + " (" + strings.ToLower(cols[i].aggName) + ")"
		}
		used[cols[i].name] = true
	}
	return frameOf(newTable(cols, false))
}

func (g Grouped) errFrame() (Frame, bool) {
	if g.err != nil {
		return errFrame(g.err), true
	}
	return Frame{}, false
}

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
	for i, n := range g.counts {
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
		slot := g.slot
		vals = vals[:len(g.codes)]
		for i, code := range g.codes {
			if v := vals[i]; v == v {
				out[slot[code]] += v
			}
		}
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
	for id, n := range g.counts {
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
