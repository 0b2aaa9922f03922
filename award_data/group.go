package award_data

import (
	"math"
	"strings"
)

// densifier numbers small-integer slots (dictionary codes) densely, in
// order of first appearance, remembering the first row of each.
type densifier struct {
	idOf []int32 // slot -> id, -1 when not seen yet
	rep  []int32 // id -> first row
}

func newDensifier(slots int) *densifier {
	d := &densifier{idOf: make([]int32, slots)}
	for i := range d.idOf {
		d.idOf[i] = -1
	}
	return d
}

// id returns the dense id of slot, first seen at table row.
func (d *densifier) id(slot, row int) int32 {
	id := d.idOf[slot]
	if id < 0 {
		id = int32(len(d.rep))
		d.idOf[slot] = id
		d.rep = append(d.rep, int32(row))
	}
	return id
}

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
		d := newDensifier(len(c.dict) + 1) // last slot: null
		nullSlot := len(c.dict)
		if f.all && c.valid == nil {
			for i, code := range c.codes[:n] {
				ids[i] = d.id(int(code), i)
			}
			return ids, d.rep
		}
		for k := 0; k < n; k++ {
			i := f.row(k)
			slot := int(c.codes[i])
			if c.valid != nil && c.isNull(i) {
				slot = nullSlot
			}
			ids[k] = d.id(slot, i)
		}
		return ids, d.rep
	case kindText:
		d := c.cachedTextDictionary()
		if d == nil && cache && n >= c.n/16 {
			d = c.textDictionary()
		}
		if d != nil {
			ds := newDensifier(len(d.values) + 1) // last slot: null
			nullSlot := len(d.values)
			for k := 0; k < n; k++ {
				i := f.row(k)
				slot := int(d.codes[i])
				if slot < 0 {
					slot = nullSlot
				}
				ids[k] = ds.id(slot, i)
			}
			return ids, ds.rep
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
// nulls over all rows. It finds each code's first row, stopping as soon
// as every dictionary value has been seen (a few thousand rows for
// Agency), and leaves the group sizes to groupCounts.
func groupByCategory(f Frame, c *vector) Grouped {
	g := Grouped{f: f, keys: []*vector{c}, codes: c.codes[:f.t.n]}
	first := make([]int32, len(c.dict))
	for i := range first {
		first[i] = -1
	}
	missing := len(c.dict)
	for i, code := range g.codes {
		if first[code] < 0 {
			first[code] = int32(i)
			if missing--; missing == 0 {
				break
			}
		}
	}
	rank := dictRank(c.dict)
	byRank := make([]int32, len(c.dict)) // code of each rank
	for code, r := range rank {
		byRank[r] = int32(code)
	}
	g.slot = make([]int32, len(c.dict))
	g.rep = []int32{}
	for _, code := range byRank {
		if first[code] < 0 {
			continue
		}
		g.slot[code] = int32(len(g.rep))
		g.rep = append(g.rep, first[code])
	}
	return g
}

// groupCounts returns the number of rows in each group.
func (g Grouped) groupCounts() []int {
	if g.counts != nil || g.codes == nil {
		return g.counts
	}
	perCode := make([]int, len(g.slot))
	for _, code := range g.codes {
		perCode[code]++
	}
	counts := make([]int, len(g.rep))
	for code, n := range perCode {
		if n > 0 {
			counts[g.slot[code]] += n
		}
	}
	return counts
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
	cols = append(cols, extra...)
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
