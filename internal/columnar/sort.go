package columnar

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// SortKey compares two table rows by one column: nulls (and NaN) last in
// either direction.
type SortKey struct {
	c    *Vector
	desc bool
	rank []int32   // kindCategory: alphabetical rank of each dictionary code
	text *TextDict // kindText, when the column has a cached dictionary
}

func NewSortKey(c *Vector, desc bool) SortKey {
	k := SortKey{c: c, desc: desc}
	if c.Kind == KindCategory {
		k.rank = c.CategoryRank()
	}
	k.text = c.CachedTextDictionary()
	return k
}

// CategoryRank returns the sort rank of each dictionary code of a
// category column: alphabetical, or the dictionary's own order when the
// column is Ordered.
func (c *Vector) CategoryRank() []int32 {
	if !c.Ordered {
		return DictRank(c.Dict)
	}
	rank := make([]int32, len(c.Dict))
	for i := range rank {
		rank[i] = int32(i)
	}
	return rank
}

// DictRank returns the alphabetical rank of each dictionary entry.
func DictRank(dict []string) []int32 {
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

func (k SortKey) Missing(i int) bool {
	return k.c.IsNull(i) || (k.c.Kind == KindFloat && math.IsNaN(k.c.Floats[i]))
}

func (k SortKey) Compare(a, b int) int {
	c := k.c
	na, nb := k.Missing(a), k.Missing(b)
	switch {
	case na && nb:
		return 0
	case na:
		return 1
	case nb:
		return -1
	}
	var r int
	switch c.Kind {
	case KindText:
		if k.text != nil {
			r = cmp.Compare(k.text.codes[a], k.text.codes[b])
		} else {
			r = strings.Compare(c.View(a), c.View(b))
		}
	case KindCategory:
		r = cmp.Compare(k.rank[c.Codes[a]], k.rank[c.Codes[b]])
	case KindInt:
		r = cmp.Compare(c.Ints[a], c.Ints[b])
	case KindFloat:
		r = cmp.Compare(c.Floats[a], c.Floats[b])
	case KindDate:
		r = cmp.Compare(c.Days[a], c.Days[b])
	}
	if k.desc {
		r = -r
	}
	return r
}

// View returns text value i as a string sharing the column's memory
// (no copy). Only for comparisons and map lookups inside the package:
// never hand it to a cell.
func (c *Vector) View(i int) string {
	lo, hi := c.Offs[i], c.Offs[i+1]
	if lo == hi {
		return ""
	}
	return unsafe.String(&c.Data[lo], int(hi-lo))
}

// b2i converts a bool to 0 or 1; the compiler makes it branch-free
// (SETcc), which the filter loops rely on.
func B2I(b bool) int {
	if b {
		return 1
	}
	return 0
}

func compareRows(keys []SortKey, a, b int) int {
	for _, k := range keys {
		if r := k.Compare(a, b); r != 0 {
			return r
		}
	}
	return 0
}

// SortedRows returns rows (table row numbers) stably sorted by keys.
func SortedRows(rows []int32, keys []SortKey) []int32 {
	pos := SortedPositions(rows, keys)
	out := make([]int32, len(pos))
	for i, p := range pos {
		out[i] = rows[p]
	}
	return out
}

// SortedPositions returns the positions of rows in stably sorted order.
// A single non-text key sorts (value, position) pairs; a text key sorts
// string views; other keys compare row by row.
func SortedPositions(rows []int32, keys []SortKey) []int32 {
	n := len(rows)
	out := make([]int32, n)
	if radixKeys(keys) {
		// One non-text key (or a dictionary-coded text key): an LSD radix
		// sort of order-preserving 64-bit images, stable by construction.
		ukeys, pos, missing := keyImages(rows, keys[0])
		RadixSort(ukeys, pos)
		copy(out, pos)
		copy(out[len(pos):], missing)
		return out
	}
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	if len(keys) == 1 && keys[0].c.Kind == KindText && keys[0].text == nil {
		k := keys[0]
		strs := make([]string, n)
		null := make([]bool, n)
		for p, r := range rows {
			if k.c.IsNull(int(r)) {
				null[p] = true
				continue
			}
			strs[p] = k.c.View(int(r))
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

// radixKeys reports whether keys sort by 64-bit images: one key, not
// text without a dictionary.
func radixKeys(keys []SortKey) bool {
	return len(keys) == 1 && (keys[0].c.Kind != KindText || keys[0].text != nil)
}

// keyImages returns the order-preserving 64-bit image of each non-missing
// row's value with its position in rows, and the positions of the
// missing rows, all in position order.
func keyImages(rows []int32, k SortKey) (ukeys []uint64, pos, missing []int32) {
	ukeys = make([]uint64, 0, len(rows))
	pos = make([]int32, 0, len(rows))
	for p, r := range rows {
		if k.Missing(int(r)) {
			missing = append(missing, int32(p))
			continue
		}
		ukeys = append(ukeys, k.image(r))
		pos = append(pos, int32(p))
	}
	return ukeys, pos, missing
}

// image is the order-preserving 64-bit image of row r's value, which
// must not be missing.
func (k SortKey) image(r int32) uint64 {
	var u uint64
	switch k.c.Kind {
	case KindText:
		u = uint64(k.text.codes[r])
	case KindCategory:
		u = uint64(k.rank[k.c.Codes[r]])
	case KindInt:
		u = uint64(k.c.Ints[r]) ^ 1<<63
	case KindFloat:
		u = FloatKey(k.c.Floats[r])
	case KindDate:
		u = uint64(int64(k.c.Days[r])) ^ 1<<63
	}
	if k.desc {
		u = ^u
	}
	return u
}

// maxHeapTop is the largest n for which TopPositions keeps the n
// smallest pairs in a heap while it reads the rows, allocating n pairs
// instead of an image per row.
const maxHeapTop = 256

// topByHeap is TopPositions for small n (1 ≤ n ≤ maxHeapTop).
func topByHeap(rows []int32, k SortKey, n int) []int32 {
	type pair struct {
		u uint64
		p int32
	}
	// h is a max-heap by (image, position): its root is the pair a
	// smaller one replaces. Positions only grow, so a later row with an
	// equal image never enters once the heap is full: the earlier rows
	// come first, as in the stable sort.
	h := make([]pair, 0, n)
	less := func(a, b pair) bool { return a.u < b.u || (a.u == b.u && a.p < b.p) }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			c := l
			if r := l + 1; r < len(h) && less(h[l], h[r]) {
				c = r
			}
			if !less(h[i], h[c]) {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	var missing []int32
	for p, r := range rows {
		if k.Missing(int(r)) {
			if len(missing) < n {
				missing = append(missing, int32(p))
			}
			continue
		}
		x := pair{k.image(r), int32(p)}
		if len(h) < n {
			h = append(h, x)
			for i := len(h) - 1; i > 0; {
				parent := (i - 1) / 2
				if !less(h[parent], h[i]) {
					break
				}
				h[i], h[parent] = h[parent], h[i]
				i = parent
			}
			continue
		}
		if less(x, h[0]) {
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, func(a, b pair) int {
		if less(a, b) {
			return -1
		}
		return 1 // pairs are distinct: their positions differ
	})
	top := make([]int32, 0, n)
	for _, x := range h {
		top = append(top, x.p)
	}
	return append(top, missing[:min(len(missing), n-len(top))]...)
}

// TopPositions returns the first n positions of SortedPositions(rows,
// keys) without sorting the rest: the n smallest (image, position)
// pairs are found by selecting the n-th smallest image, then sorted. ok
// is false when the keys do not sort by images; the caller sorts.
func TopPositions(rows []int32, keys []SortKey, n int) (top []int32, ok bool) {
	if !radixKeys(keys) {
		return nil, false
	}
	n = min(max(n, 0), len(rows))
	if n >= 1 && n <= maxHeapTop {
		return topByHeap(rows, keys[0], n), true
	}
	ukeys, pos, missing := keyImages(rows, keys[0])
	if len(ukeys) <= n {
		RadixSort(ukeys, pos)
		return append(pos, missing[:n-len(pos)]...), true
	}
	if n == 0 {
		return []int32{}, true
	}
	var diff uint64
	for _, u := range ukeys {
		diff |= u ^ ukeys[0]
	}
	t := kthKey(slices.Clone(ukeys), n-1, diff)
	// Every image below t is in; images equal to t fill the rest in
	// position order, as the stable sort would take them.
	less := 0
	for _, u := range ukeys {
		less += B2I(u < t)
	}
	equal := n - less
	topK := make([]uint64, 0, n)
	top = make([]int32, 0, n)
	for i, u := range ukeys {
		if u < t || (u == t && equal > 0) {
			if u == t {
				equal--
			}
			topK = append(topK, u)
			top = append(top, pos[i])
		}
	}
	RadixSort(topK, top)
	return top, true
}

// FloatKey maps a float64 (not NaN) to a uint64 with the same order;
// -0 and +0 map to the same key.
func FloatKey(v float64) uint64 {
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// RadixSort sorts keys ascending, permuting pos alongside, stably (LSD
// radix sort, one pass per byte that varies).
func RadixSort(keys []uint64, pos []int32) {
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
