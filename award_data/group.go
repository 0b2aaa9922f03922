package award_data

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

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
	keys   []*columnar.Vector
	ids    []int32 // group of each row of f, by position; nil when codes or textGroup is set
	rep    []int32 // first table row of each group
	counts []int
	err    error

	// For one category key over all rows (the most common grouping), the
	// group of row i is slot[codes[i]]: no per-row id vector is built.
	codes []int16
	slot  []int32

	// For one text key with a dictionary, the group of table row r is
	// textGroup[textCodes[r]+1] (see columnar.TextGroups).
	textCodes []int32
	textGroup []int32

	// For one text key with a dictionary or one key numbered through
	// small ordered slots (columnar.OrderedCounts), the per-row id vector
	// is built only for an aggregation that asks for it, and then once: a
	// Count (ValueCounts) needs only the group sizes.
	lazy *lazyIDs
}

// lazyIDs is a per-row group vector, built on first use and shared by
// the copies of a Grouped (an Agg of several statistics).
type lazyIDs struct {
	build func() []int32
	once  sync.Once
	done  atomic.Bool
	ids   []int32
}

// get builds the vector once and returns it.
func (l *lazyIDs) get() []int32 {
	l.once.Do(func() {
		l.ids = l.build()
		l.done.Store(true)
	})
	return l.ids
}

// built reports whether the vector exists (and may be read).
func (l *lazyIDs) built() bool { return l.done.Load() }

// idList returns the group of each row of f, by position.
func (g Grouped) idList() []int32 {
	if g.lazy != nil {
		return g.lazy.get()
	}
	if g.ids != nil || g.codes == nil {
		return g.ids
	}
	ids := make([]int32, len(g.codes))
	for i, code := range g.codes {
		ids[i] = g.slot[code]
	}
	return ids
}

// textIDs is the group of each row of f, by position, for a text key
// whose table row r is in group group[codes[r]+1].
func textIDs(f Frame, codes, group []int32) []int32 {
	ids := make([]int32, 0, f.Len())
	f.sel().Chunks(func(_ int, rows []int32) {
		for _, r := range rows {
			ids = append(ids, group[codes[r]+1])
		}
	})
	return ids
}

// chunks calls fn with the rows of g's frame a chunk at a time, in
// order (see columnar.Sel.Chunks), and the group of each row: a slice of
// the id vector, or for a text key the groups looked up for the chunk
// alone, so that a Sum builds no per-row vector.
func (g Grouped) chunks(fn func(ids, rows []int32)) {
	if g.textGroup != nil {
		var buf []int32
		g.f.sel().Chunks(func(_ int, rows []int32) {
			buf = buf[:0]
			for _, r := range rows {
				buf = append(buf, g.textGroup[g.textCodes[r]+1])
			}
			fn(buf, rows)
		})
		return
	}
	ids := g.idList()
	g.f.sel().Chunks(func(k int, rows []int32) {
		fn(ids[k:k+len(rows)], rows)
	})
}

// groupByCategory is GroupBy's fast path for one category key without
// nulls over all rows. It finds each code's first row, stopping as soon
// as every dictionary value has been seen (a few thousand rows for
// Agency), and leaves the group sizes to groupCounts.
func groupByCategory(f Frame, c *columnar.Vector) Grouped {
	g := Grouped{f: f, keys: []*columnar.Vector{c}, codes: c.Codes[:f.t.N]}
	first := make([]int32, len(c.Dict))
	for i := range first {
		first[i] = -1
	}
	missing := len(c.Dict)
	for i, code := range g.codes {
		if first[code] < 0 {
			first[code] = int32(i)
			if missing--; missing == 0 {
				break
			}
		}
	}
	rank := c.CategoryRank()
	byRank := make([]int32, len(c.Dict)) // code of each rank
	for code, r := range rank {
		byRank[r] = int32(code)
	}
	g.slot = make([]int32, len(c.Dict))
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
	if g.textGroup != nil {
		// From the id vector when an aggregation built it already (a
		// Median), else looking each row's group up.
		counts := make([]int, len(g.rep))
		if g.lazy.built() {
			for _, id := range g.lazy.ids {
				counts[id]++
			}
			return counts
		}
		// Counted by code, then gathered by group: one lookup per row
		// fewer.
		perSlot := make([]int32, len(g.textGroup))
		g.f.sel().Chunks(func(_ int, rows []int32) {
			for _, r := range rows {
				perSlot[g.textCodes[r]+1]++
			}
		})
		for slot, n := range perSlot {
			if n > 0 {
				counts[g.textGroup[slot]] = int(n)
			}
		}
		return counts
	}
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
	if len(columns) == 1 {
		if c, err := f.lookup("GroupBy", columns[0]); err == nil {
			if f.all && c.Kind == columnar.KindCategory && c.Valid == nil {
				return groupByCategory(f, c)
			}
			if codes, group, rep, ok := columnar.TextGroups(f.sel(), c, true); ok {
				return Grouped{f: f, keys: []*columnar.Vector{c}, rep: rep, textCodes: codes, textGroup: group,
					lazy: &lazyIDs{build: func() []int32 { return textIDs(f, codes, group) }}}
			}
			// One key with values in small ordered slots: groups come
			// out in key order with no sort.
			if rep, counts, ids, ok := columnar.OrderedCounts(f.sel(), c, true); ok {
				return Grouped{f: f, keys: []*columnar.Vector{c}, rep: rep, counts: counts, lazy: &lazyIDs{build: ids}}
			}
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
		cids, crep := columnar.KeyIDs(f.sel(), c, true)
		if j == 0 {
			ids, rep, ngroups = cids, crep, len(crep)
			continue
		}
		var first []int32
		ids, first, ngroups = columnar.CombineIDs(ids, ngroups, cids, len(crep))
		rep = make([]int32, len(first))
		for id, k := range first {
			rep[id] = int32(f.row(int(k)))
		}
	}
	// Order groups by their key values.
	keys := make([]columnar.SortKey, len(g.keys))
	for j, c := range g.keys {
		keys[j] = columnar.NewSortKey(c, false)
	}
	// sortedRows keeps equal keys in id order; rows of one group never
	// compare equal to another group's, so the order is total.
	order := columnar.SortedPositions(rep, keys)
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
		names[i] = quote(c.Name)
	}
	return "GroupBy(" + strings.Join(names, ", ") + "): " + groupThousands(itoa(len(g.rep))) +
		" groups; aggregate with Count(), Sum(column), Mean(column), Median(column), Quantile(column, q), Min(column), Max(column), CountDistinct(column) or Share(column, op, value)"
}

// result builds the output frame: key columns, then the extra columns.
func (g Grouped) result(extra ...*columnar.Vector) Frame {
	cols := make([]*columnar.Vector, 0, len(g.keys)+len(extra))
	used := map[string]bool{}
	for _, c := range g.keys {
		var kc *columnar.Vector
		ok := false
		if g.textGroup != nil {
			kc, ok = columnar.TextGroupValues(c, g.textGroup, len(g.rep))
		}
		if !ok {
			kc = columnar.Gather(c, g.rep)
		}
		cols = append(cols, kc)
		used[kc.Name] = true
	}
	cols = append(cols, extra...)
	for i := len(g.keys); i < len(cols); i++ {
		if used[cols[i].Name] {
			cols[i].Name = cols[i].Name + " (" + strings.ToLower(cols[i].AggName) + ")"
		}
		used[cols[i].Name] = true
	}
	return frameOf(columnar.NewTable(cols, false))
}

func (g Grouped) errFrame() (Frame, bool) {
	if g.err != nil {
		return errFrame(g.err), true
	}
	return Frame{}, false
}
