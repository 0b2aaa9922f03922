package columnar

import "math"

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

// maxDenseSpan bounds the value span of an int column numbered through
// a slot per value (64 K slots: 256 KB).
const maxDenseSpan = 1 << 16

// KeyIDs gives each row of s (by position) a dense id for its value in c;
// nulls share one id. rep[id] is the first table row with that id.
//
// A text column gets (and keeps) a dictionary encoding when f covers a
// large part of it and cache is true; Describe passes false so that
// summarizing every column does not keep one per column.
func KeyIDs(s Sel, c *Vector, cache bool) (ids []int32, rep []int32) {
	n := s.Len()
	ids = make([]int32, n)
	switch c.Kind {
	case KindCategory:
		d := newDensifier(len(c.Dict) + 1) // last slot: null
		nullSlot := len(c.Dict)
		if s.All && c.Valid == nil {
			for i, code := range c.Codes[:n] {
				ids[i] = d.id(int(code), i)
			}
			return ids, d.rep
		}
		for k := 0; k < n; k++ {
			i := s.Row(k)
			slot := int(c.Codes[i])
			if c.Valid != nil && c.IsNull(i) {
				slot = nullSlot
			}
			ids[k] = d.id(slot, i)
		}
		return ids, d.rep
	case KindText:
		d := c.CachedTextDictionary()
		if d == nil && cache && n >= c.N/16 {
			d = c.TextDictionary()
		}
		if d != nil {
			ds := newDensifier(d.distinct + 1) // last slot: null
			nullSlot := d.distinct
			for k := 0; k < n; k++ {
				i := s.Row(k)
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
			i := s.Row(k)
			if c.IsNull(i) {
				if nullID < 0 {
					nullID = int32(len(rep))
					rep = append(rep, int32(i))
				}
				ids[k] = nullID
				continue
			}
			v := c.View(i)
			id, ok := m[v]
			if !ok {
				id = int32(len(rep))
				m[v] = id
				rep = append(rep, int32(i))
			}
			ids[k] = id
		}
	case KindInt:
		if lo, hi, ok := IntSpan(c); ok && uint64(hi)-uint64(lo) < maxDenseSpan {
			// Few distinct values (years, counts): number them through a
			// slot per value instead of a hash map, as for categories.
			d := newDensifier(int(hi-lo) + 2) // last slot: null
			nullSlot := int(hi-lo) + 1
			vals := c.Ints
			if s.All && c.Valid == nil {
				for i, v := range vals[:n] {
					ids[i] = d.id(int(v-lo), i)
				}
				return ids, d.rep
			}
			for k := 0; k < n; k++ {
				i := s.Row(k)
				slot := nullSlot
				if !c.IsNull(i) {
					slot = int(vals[i] - lo)
				}
				ids[k] = d.id(slot, i)
			}
			return ids, d.rep
		}
		fallthrough
	default:
		m := make(map[uint64]int32)
		nullID := int32(-1)
		for k := 0; k < n; k++ {
			i := s.Row(k)
			if c.IsNull(i) || (c.Kind == KindFloat && math.IsNaN(c.Floats[i])) {
				if nullID < 0 {
					nullID = int32(len(rep))
					rep = append(rep, int32(i))
				}
				ids[k] = nullID
				continue
			}
			key := ScalarKey(c, i)
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

// ScalarKey is a hashable image of a non-null number or date.
func ScalarKey(c *Vector, i int) uint64 {
	switch c.Kind {
	case KindInt:
		return uint64(c.Ints[i])
	case KindFloat:
		v := c.Floats[i]
		if v == 0 {
			v = 0 // -0 and +0 are one group
		}
		return math.Float64bits(v)
	case KindDate:
		return uint64(uint32(c.Days[i]))
	}
	return 0
}

// CombineIDs merges two id vectors into ids of their pairs.
func CombineIDs(a []int32, na int, b []int32, nb int) ([]int32, []int32, int) {
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

// OrderedGroups is KeyIDs for a key whose values map to small slots in
// the key's sort order: a category (the alphabetical rank of its code),
// a text column with a dictionary (its codes are ranks) or an int column
// spanning fewer than 64 K values. The groups come out numbered in key
// order, nulls last, as sorting KeyIDs' groups by key would number them,
// without the sort: one pass over the rows counts each slot and notes
// its first row, and the present slots, in order, are the groups. ids
// holds the group of each row of s by position, rep the first table row
// of each group, counts its rows. ok is false when c has no such
// mapping (a text column is given a dictionary under KeyIDs' rule when
// cache is true); the caller then uses KeyIDs.
func OrderedGroups(s Sel, c *Vector, cache bool) (ids, rep []int32, counts []int, ok bool) {
	rep, counts, idsOf, ok := OrderedCounts(s, c, cache)
	if !ok {
		return nil, nil, nil, false
	}
	return idsOf(), rep, counts, true
}

// OrderedCounts is OrderedGroups without the group of each row: ids
// builds it when called, with another pass over the rows. A Count (or
// ValueCounts) needs only the groups' sizes, and then allocates nothing
// per row.
func OrderedCounts(s Sel, c *Vector, cache bool) (rep []int32, counts []int, ids func() []int32, ok bool) {
	n := s.Len()
	var slots int
	var slotsOf slotFunc
	switch c.Kind {
	case KindCategory:
		rank := c.CategoryRank()
		slots = len(rank) + 1
		slotsOf = categorySlots(c, rank)
	case KindText:
		codes, group, rep, ok := TextGroups(s, c, cache)
		if !ok {
			return nil, nil, nil, false
		}
		counts = make([]int, len(rep))
		s.Chunks(func(_ int, rows []int32) {
			for _, r := range rows {
				counts[group[codes[r]+1]]++
			}
		})
		ids = func() []int32 {
			out := make([]int32, 0, n)
			s.Chunks(func(_ int, rows []int32) {
				for _, r := range rows {
					out = append(out, group[codes[r]+1])
				}
			})
			return out
		}
		return rep, counts, ids, true
	case KindInt:
		lo, hi, spanOK := c.intSpan()
		if !spanOK || uint64(hi)-uint64(lo) >= maxDenseSpan {
			return nil, nil, nil, false
		}
		slots = int(hi-lo) + 2
		slotsOf = intSlots(c, lo, int32(hi-lo)+1)
	default:
		return nil, nil, nil, false
	}
	// Each slot's count and first row side by side: one cache miss per
	// row for a key with many values (30,000 companies).
	type slotInfo struct{ count, first int32 }
	info := make([]slotInfo, slots)
	slotChunks(s, slotsOf, func(k int, rows, slots []int32) {
		for j, slot := range slots {
			in := &info[slot]
			if in.count == 0 {
				in.first = int32(k + j)
				if rows != nil {
					in.first = rows[j]
				}
			}
			in.count++
		}
	})
	// Number the present slots in order.
	ngroups := 0
	for _, in := range info {
		ngroups += B2I(in.count > 0)
	}
	rep = make([]int32, 0, ngroups)
	counts = make([]int, 0, ngroups)
	group := make([]int32, slots)
	for slot, in := range info {
		if in.count == 0 {
			continue
		}
		group[slot] = int32(len(rep))
		rep = append(rep, in.first)
		counts = append(counts, int(in.count))
	}
	ids = func() []int32 {
		out := make([]int32, n)
		slotChunks(s, slotsOf, func(k int, _, slots []int32) {
			dst := out[k : k+len(slots)]
			for j, slot := range slots {
				dst[j] = group[slot]
			}
		})
		return out
	}
	return rep, counts, ids, true
}

// slotFunc writes the slot of each row of a chunk into dst: the rows are
// rows, or when rows is nil, lo, lo+1, ... (all rows: no row numbers to
// read).
type slotFunc func(dst []int32, lo int, rows []int32)

// slotChunks calls fn with the slots of the rows of s a chunk at a time:
// k is the position of the chunk's first row in s, rows its rows (nil
// for all rows: they are k, k+1, ...).
func slotChunks(s Sel, slotsOf slotFunc, fn func(k int, rows, slots []int32)) {
	var buf [chunkRows + 64]int32
	if s.All {
		for lo := 0; lo < s.N; lo += chunkRows {
			dst := buf[:min(chunkRows, s.N-lo)]
			slotsOf(dst, lo, nil)
			fn(lo, nil, dst)
		}
		return
	}
	s.Chunks(func(k int, rows []int32) {
		dst := buf[:len(rows)]
		slotsOf(dst, 0, rows)
		fn(k, rows, dst)
	})
}

// categorySlots gives a category row the rank of its code, a null the
// last slot (len(rank)). A null row's code may be anything: it is never
// looked up.
func categorySlots(c *Vector, rank []int32) slotFunc {
	null := int32(len(rank))
	codes := c.Codes
	return func(dst []int32, lo int, rows []int32) {
		switch {
		case rows == nil && c.Valid == nil:
			for j, code := range codes[lo : lo+len(dst)] {
				dst[j] = rank[code]
			}
		case rows == nil:
			cs := codes[lo : lo+len(dst)]
			for j0 := 0; j0 < len(dst); j0 += 8 {
				m := min(8, len(dst)-j0)
				valid := validByte(c, lo+j0) | byte(0xff)<<m
				for j := j0; j < j0+m; j++ {
					if valid == 0xff || valid&(1<<(j-j0)) != 0 {
						dst[j] = rank[cs[j]]
					} else {
						dst[j] = null
					}
				}
			}
		case c.Valid == nil:
			for j, r := range rows {
				dst[j] = rank[codes[r]]
			}
		default:
			for j, r := range rows {
				if c.IsNull(int(r)) {
					dst[j] = null
				} else {
					dst[j] = rank[codes[r]]
				}
			}
		}
	}
}

// intSlots gives an int row its value less lo, a null slot null.
func intSlots(c *Vector, lo int64, null int32) slotFunc {
	vals := c.Ints
	return func(dst []int32, first int, rows []int32) {
		if rows == nil {
			for j, v := range vals[first : first+len(dst)] {
				dst[j] = int32(v - lo)
			}
		} else {
			for j, r := range rows {
				dst[j] = int32(vals[r] - lo)
			}
		}
		if c.Valid == nil {
			return
		}
		if rows != nil {
			for j, r := range rows {
				if c.IsNull(int(r)) {
					dst[j] = null
				}
			}
			return
		}
		for j0 := 0; j0 < len(dst); j0 += 8 {
			m := min(8, len(dst)-j0)
			valid := validByte(c, first+j0) | byte(0xff)<<m
			for j := j0; valid != 0xff && j < j0+m; j++ {
				if valid&(1<<(j-j0)) == 0 {
					dst[j] = null
				}
			}
		}
	}
}

// TextGroups is OrderedGroups for a text column with a dictionary (given
// one under KeyIDs' rule when cache is true), without a vector of the
// group of each row: the group of table row r is group[codes[r]+1]
// (index 0 stands for null), numbered in key order with nulls last, and
// rep holds the first selected row of each group. It takes 4 bytes per
// distinct value and per group instead of OrderedGroups' 4 bytes per
// selected row and 16 per group: for Phase II awards grouped by Company
// at full scale, 200 KB instead of 700 KB of fresh memory, which a new
// worker pays for in page faults on every query until its heap has
// grown. ok is false when c is not text or has no dictionary.
func TextGroups(s Sel, c *Vector, cache bool) (codes, group, rep []int32, ok bool) {
	if c.Kind != KindText {
		return nil, nil, nil, false
	}
	d := c.CachedTextDictionary()
	if d == nil && cache && s.Len() >= c.N/16 {
		d = c.TextDictionary()
	}
	if d == nil {
		return nil, nil, nil, false
	}
	codes = d.codes
	// group holds each slot's first row until the groups are numbered.
	group = make([]int32, d.distinct+1)
	for i := range group {
		group[i] = -1
	}
	s.Chunks(func(_ int, rows []int32) {
		for _, r := range rows {
			if slot := &group[codes[r]+1]; *slot < 0 {
				*slot = r
			}
		}
	})
	ngroups := 0
	for _, first := range group {
		ngroups += B2I(first >= 0)
	}
	rep = make([]int32, 0, ngroups)
	number := func(slot int) {
		if first := group[slot]; first >= 0 {
			rep = append(rep, first)
			group[slot] = int32(len(rep) - 1)
		}
	}
	for slot := 1; slot < len(group); slot++ {
		number(slot)
	}
	number(0) // nulls last
	return codes, group, rep, true
}
