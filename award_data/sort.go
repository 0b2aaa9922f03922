package award_data

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// sortKey compares two table rows by one column: nulls (and NaN) last in
// either direction.
type sortKey struct {
	c    *vector
	desc bool
	rank []int32   // kindCategory: alphabetical rank of each dictionary code
	text *textDict // kindText, when the column has a cached dictionary
}

func newSortKey(c *vector, desc bool) sortKey {
	k := sortKey{c: c, desc: desc}
	if c.kind == kindCategory {
		k.rank = dictRank(c.dict)
	}
	k.text = c.cachedTextDictionary()
	return k
}

// dictRank returns the alphabetical rank of each dictionary entry.
func dictRank(dict []string) []int32 {
	order := make([]int, len(dict))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return dict[order[a]] < dict[order[b]] })
	rank := make([]int32, len(dict))
	for r, code := range order {
		rank[code] = int32(r)
	}
	return rank
}

func (k sortKey) missing(i int) bool {
	return k.c.isNull(i) || (k.c.kind == kindFloat && math.IsNaN(k.c.floats[i]))
}

func (k sortKey) compare(a, b int) int {
	c := k.c
	na, nb := k.missing(a), k.missing(b)
	switch {
	case na && nb:
		return 0
	case na:
		return 1
	case nb:
		return -1
	}
	var r int
	switch c.kind {
	case kindText:
		if k.text != nil {
			r = cmp.Compare(k.text.rank[k.text.codes[a]], k.text.rank[k.text.codes[b]])
		} else {
			r = strings.Compare(c.view(a), c.view(b))
		}
	case kindCategory:
		r = cmp.Compare(k.rank[c.codes[a]], k.rank[c.codes[b]])
	case kindInt:
		r = cmp.Compare(c.ints[a], c.ints[b])
	case kindFloat:
		r = cmp.Compare(c.floats[a], c.floats[b])
	case kindDate:
		r = cmp.Compare(c.days[a], c.days[b])
	}
	if k.desc {
		r = -r
	}
	return r
}

// view returns text value i as a string sharing the column's memory
// (no copy). Only for comparisons and map lookups inside the package:
// never hand it to a cell.
func (c *vector) view(i int) string {
	lo, hi := c.offs[i], c.offs[i+1]
	if lo == hi {
		return ""
	}
	return unsafe.String(&c.data[lo], int(hi-lo))
}

// b2i converts a bool to 0 or 1; the compiler makes it branch-free
// (SETcc), which the filter loops rely on.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func compareRows(keys []sortKey, a, b int) int {
	for _, k := range keys {
		if r := k.compare(a, b); r != 0 {
			return r
		}
	}
	return 0
}

// sortedRows returns rows (table row numbers) stably sorted by keys.
func sortedRows(rows []int32, keys []sortKey) []int32 {
	pos := sortedPositions(rows, keys)
	out := make([]int32, len(pos))
	for i, p := range pos {
		out[i] = rows[p]
	}
	return out
}

// sortedPositions returns the positions of rows in stably sorted order.
// A single non-text key sorts (value, position) pairs; a text key sorts
// string views; other keys compare row by row.
func sortedPositions(rows []int32, keys []sortKey) []int32 {
	n := len(rows)
	out := make([]int32, n)
	if len(keys) == 1 && (keys[0].c.kind != kindText || keys[0].text != nil) {
		// One non-text key (or a dictionary-coded text key): an LSD radix
		// sort of order-preserving 64-bit images, stable by construction.
		k := keys[0]
		ukeys := make([]uint64, 0, n)
		pos := make([]int32, 0, n)
		var missing []int32
		for p, r := range rows {
			if k.missing(int(r)) {
				missing = append(missing, int32(p))
				continue
			}
			var u uint64
			switch k.c.kind {
			case kindText:
				u = uint64(k.text.rank[k.text.codes[r]])
			case kindCategory:
				u = uint64(k.rank[k.c.codes[r]])
			case kindInt:
				u = uint64(k.c.ints[r]) ^ 1<<63
			case kindFloat:
				u = floatKey(k.c.floats[r])
			case kindDate:
				u = uint64(int64(k.c.days[r])) ^ 1<<63
			}
			if k.desc {
				u = ^u
			}
			ukeys = append(ukeys, u)
			pos = append(pos, int32(p))
		}
		radixSort(ukeys, pos)
		copy(out, pos)
		copy(out[len(pos):], missing)
		return out
	}
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	if len(keys) == 1 && keys[0].c.kind == kindText && keys[0].text == nil {
		k := keys[0]
		strs := make([]string, n)
		null := make([]bool, n)
		for p, r := range rows {
			if k.c.isNull(int(r)) {
				null[p] = true
				continue
			}
			strs[p] = k.c.view(int(r))
		}
		slices.SortFunc(pos, func(a, b int32) int {
			switch {
			case null[a] != null[b]:
				if null[a] {
					return 1
				}
				return -1
			case !null[a]:
				if r := strings.Compare(strs[a], strs[b]); r != 0 {
					if k.desc {
						return -r
					}
					return r
				}
			}
			return cmp.Compare(a, b)
		})
	} else {
		slices.SortFunc(pos, func(a, b int32) int {
			if r := compareRows(keys, int(rows[a]), int(rows[b])); r != 0 {
				return r
			}
			return cmp.Compare(a, b)
		})
	}
	return pos
}

// floatKey maps a float64 (not NaN) to a uint64 with the same order;
// -0 and +0 map to the same key.
func floatKey(v float64) uint64 {
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// radixSort sorts keys ascending, permuting pos alongside, stably (LSD
// radix sort, one pass per byte that varies).
func radixSort(keys []uint64, pos []int32) {
	n := len(keys)
	if n < 2 {
		return
	}
	var diff uint64
	for _, k := range keys[1:] {
		diff |= k ^ keys[0]
	}
	tmpK := make([]uint64, n)
	tmpP := make([]int32, n)
	src, dst := keys, tmpK
	srcP, dstP := pos, tmpP
	for shift := uint(0); shift < 64; shift += 8 {
		if (diff>>shift)&0xff == 0 {
			continue
		}
		var count [257]int
		for _, k := range src {
			count[(k>>shift)&0xff+1]++
		}
		for b := 1; b < 257; b++ {
			count[b] += count[b-1]
		}
		for i, k := range src {
			b := (k >> shift) & 0xff
			dst[count[b]] = k
			dstP[count[b]] = srcP[i]
			count[b]++
		}
		src, dst = dst, src
		srcP, dstP = dstP, srcP
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(pos, srcP)
	}
}

// Sort returns f sorted by the named columns, the first column first.
// A column prefixed with "-" sorts in descending order. Nulls come last
// either way; rows that compare equal keep their order (the sort is
// stable). Text sorts by bytes (capital letters before small ones).
//
// Example:
//
//	award_data.Sort("-Award Amount").Head(10)
//	award_data.Sort("Agency", "-Award Year")
func (f Frame) Sort(columns ...string) Frame {
	if f.err != nil {
		return f
	}
	if len(columns) == 0 {
		return errFrame(errorf("Sort", "name at least one column, e.g. Sort(\"-Award Amount\")"))
	}
	keys := make([]sortKey, 0, len(columns))
	for _, name := range columns {
		desc := strings.HasPrefix(name, "-")
		trimmed := strings.TrimPrefix(name, "-")
		c, err := f.lookup("Sort", trimmed)
		if err != nil && desc {
			// A column whose name starts with "-" sorts ascending.
			if c2, err2 := f.lookup("Sort", name); err2 == nil {
				c, err, desc = c2, nil, false
			}
		}
		if err != nil {
			return errFrame(err)
		}
		if c.kind == kindText && f.Len() >= c.n/16 {
			// Sorting most of a text column: encoding it once (kept for
			// later sorts and groupings) beats comparing strings.
			c.textDictionary()
		}
		keys = append(keys, newSortKey(c, desc))
	}
	return f.withRows(sortedRows(f.rowList(), keys))
}
