package columnar

// minPackedGather is the least number of rows for which Gather reads a
// text column's values from its dictionary's packed copy (building it
// on first use) instead of from the column: a group key's result column
// (~19,000 companies for Phase II) touches values scattered over the
// whole column, a cache and TLB miss each, while the packed copy holds
// them in code (alphabetical) order, which is the order of the groups.
const minPackedGather = 4096

// packed returns the distinct values of c, packed in code order, from
// the column's own bytes. It costs one pass over the codes and one copy
// of each distinct value, once per column; the copy takes the distinct
// values' bytes plus 4 bytes per value (Company at full scale: ~1.7 MB
// for 47,000 values), held as long as the column.
func (d *TextDict) packed(c *Vector) (offs []int32, data []byte) {
	d.valuesOnce.Do(func() {
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
// come from the packed copy.
func gatherPacked(c *Vector, d *TextDict, rows []int32) *Vector {
	offs, data := d.packed(c)
	n := len(rows)
	out := &Vector{Name: c.Name, Kind: KindText, N: n, Offs: make([]int32, n+1)}
	size := 0
	for _, r := range rows {
		if r >= 0 {
			if code := d.codes[r]; code >= 0 {
				size += int(offs[code+1] - offs[code])
			}
		}
	}
	out.Data = make([]byte, 0, size)
	nulls := false
	for k, r := range rows {
		code := int32(-1)
		if r >= 0 {
			code = d.codes[r]
		}
		if code < 0 {
			nulls = true
		} else {
			out.Data = append(out.Data, data[offs[code]:offs[code+1]]...)
		}
		out.Offs[k+1] = int32(len(out.Data))
	}
	if nulls {
		for k, r := range rows {
			if r < 0 || d.codes[r] < 0 {
				out.SetNull(k)
			}
		}
	}
	return out
}
