package columnar

import "strconv"

// minPackedGather is the least number of rows for which Gather reads a
// text column's values from its dictionary's packed copy (building it
// on first use) instead of from the column: a group key's result column
// (~19,000 companies for Phase II) touches values scattered over the
// whole column, a cache and TLB miss each, while the packed copy holds
// them in code (alphabetical) order, which is the order of the groups.
const minPackedGather = 4096

// Bounds of a packed copy: the column repeats each value at least
// maxPackedShare times on average, and the values take at most
// maxPackedBytes.
const (
	maxPackedShare = 4
	maxPackedBytes = 16 << 20
)

// packed returns the distinct values of c, packed in code order, from
// the column's own bytes; nil when they are too many (see the bounds
// above). It costs one pass over the codes and one copy of each
// distinct value, once per column; the copy takes the distinct values'
// bytes plus 4 bytes per value (Company at full scale: 689 KB of names
// and 120 KB of offsets for 30,071 values), held as long as the column:
// at most the column's own text bytes, and 16 MiB.
func (d *TextDict) packed(c *Vector) (offs []int32, data []byte) {
	d.valuesOnce.Do(func() {
		if d.distinct > len(d.codes)/maxPackedShare {
			return // mostly distinct values: a copy would not be smaller, nor closer together
		}
		first := make([]int32, d.distinct)
		for i := range first {
			first[i] = -1
		}
		left := d.distinct
		for i, code := range d.codes {
			if code >= 0 && first[code] < 0 {
				first[code] = int32(i)
				if left--; left == 0 {
					break
				}
			}
		}
		size := 0
		for _, r := range first {
			size += len(c.TextBytes(int(r)))
		}
		if size > maxPackedBytes {
			return
		}
		offs := make([]int32, d.distinct+1)
		data := make([]byte, 0, size)
		for k, r := range first {
			data = append(data, c.TextBytes(int(r))...)
			offs[k+1] = int32(len(data))
		}
		d.offs, d.data = offs, data
	})
	return d.offs, d.data
}

// gatherPacked is Gather for a text column with a dictionary: values
// come from the packed copy. ok is false when the column's values are
// too many to pack (see packed).
func gatherPacked(c *Vector, d *TextDict, rows []int32) (out *Vector, ok bool) {
	offs, data := d.packed(c)
	if offs == nil {
		return nil, false
	}
	n := len(rows)
	// Two reads of each row's code (scattered over the column, but the
	// second finds it in the cache) rather than a vector of the codes:
	// less fresh memory, which a new worker pays for in page faults.
	codeOf := func(r int32) int32 {
		if r < 0 {
			return -1
		}
		return d.codes[r]
	}
	size := 0
	for _, r := range rows {
		if code := codeOf(r); code >= 0 {
			size += int(offs[code+1] - offs[code])
		}
	}
	out = &Vector{Name: c.Name, Kind: KindText, N: n, Offs: make([]int32, n+1), Data: make([]byte, size)}
	at := int32(0)
	for k, r := range rows {
		if code := codeOf(r); code >= 0 {
			at += int32(copy(out.Data[at:], data[offs[code]:offs[code+1]]))
		} else {
			out.SetNull(k)
		}
		out.Offs[k+1] = at
	}
	return out, true
}

// TextGroupValues returns the key column of TextGroups' groups (group
// as TextGroups returned it, ngroups its number of groups): the values
// in group order, which is code order, copied in one sequential pass
// over the packed copy of the distinct values instead of looked up
// through each group's first row, scattered over the column. ok is false
// when c has no dictionary or its values are too many to pack (Gather
// the groups' first rows then).
func TextGroupValues(c *Vector, group []int32, ngroups int) (out *Vector, ok bool) {
	d := c.CachedTextDictionary()
	if d == nil || len(group) != d.distinct+1 {
		return nil, false
	}
	offs, data := d.packed(c)
	if offs == nil {
		return nil, false
	}
	size := 0
	for code := range d.distinct {
		if group[code+1] >= 0 {
			size += int(offs[code+1] - offs[code])
		}
	}
	out = &Vector{Name: c.Name, Kind: KindText, N: ngroups, Offs: make([]int32, ngroups+1), Data: make([]byte, size)}
	k, at := 0, int32(0)
	for code := range d.distinct {
		if group[code+1] >= 0 {
			at += int32(copy(out.Data[at:], data[offs[code]:offs[code+1]]))
			k++
			out.Offs[k] = at
		}
	}
	if group[0] >= 0 { // the null group, last
		k++
		out.Offs[k] = at
		out.SetNull(k - 1)
	}
	if k != ngroups {
		panic("columnar: TextGroupValues: " + strconv.Itoa(ngroups) + " groups, " + strconv.Itoa(k) + " present in group")
	}
	return out, true
}

// PackTextValues builds the packed copy of a dictionary-coded text
// column's distinct values now (see packed for its size and bounds)
// instead of at the first large gather, so that the first query that
// needs it costs what later ones do. It does nothing for other columns.
func (c *Vector) PackTextValues() {
	if d := c.CachedTextDictionary(); d != nil {
		d.packed(c)
	}
}

// Packed reports whether the packed copy of the values has been built
// (false also when the values are too many to pack).
func (d *TextDict) Packed() bool {
	d.valuesOnce.Do(func() {}) // wait for a build under way
	return d.offs != nil
}
