package columnar

import (
	"bytes"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Case-insensitive substring search over a text column.
//
// Text values of a column are stored back to back in one buffer, so the
// search scans the buffer once instead of row by row, and maps each hit
// to its row through the offsets. For ASCII needles the scan is a SWAR
// filter (8 bytes per step) on the needle's first and last byte, each
// compared with ASCII case folded; candidates are verified exactly. Case
// folding follows strings.EqualFold (Unicode simple folding), the same as
// regexp's (?i): the only non-ASCII runes that fold to ASCII letters are
// K (U+212A KELVIN SIGN, ~ k) and ſ (U+017F LATIN SMALL LETTER LONG S,
// ~ s), so rows holding them get an exact Unicode check. Non-ASCII
// needles find candidates with bytes.Index for each case variant of their
// first rune.

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// foldNeedle is a needle prepared for the ASCII scan.
type foldNeedle struct {
	lower               []byte // needle with ASCII letters lowered
	fold                []byte // per byte: 0x20 if a letter (compare with |0x20), else 0
	first, last         uint64 // broadcast lower[0], lower[m-1]
	foldFirst, foldLast uint64 // broadcast fold masks
}

func isASCIILetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

func newFoldNeedle(needle string) *foldNeedle {
	m := len(needle)
	n := &foldNeedle{lower: make([]byte, m), fold: make([]byte, m)}
	for i := 0; i < m; i++ {
		b := needle[i]
		if isASCIILetter(b) {
			b |= 0x20
			n.fold[i] = 0x20
		}
		n.lower[i] = b
	}
	n.first = lsb * uint64(n.lower[0])
	n.last = lsb * uint64(n.lower[m-1])
	n.foldFirst = lsb * uint64(n.fold[0])
	n.foldLast = lsb * uint64(n.fold[m-1])
	return n
}

// matchAt reports whether the needle occurs at data[j:], ASCII-folded.
func (n *foldNeedle) matchAt(data []byte, j int) bool {
	if j+len(n.lower) > len(data) {
		return false
	}
	s := data[j : j+len(n.lower)]
	for k, b := range s {
		if b|n.fold[k] != n.lower[k] {
			return false
		}
	}
	return true
}

// index returns the first position ≥ from in data[:end] where the needle
// occurs (ASCII case folded), or -1.
func (n *foldNeedle) index(data []byte, from, end int) int {
	m := len(n.lower)
	last := end - m // last possible start
	i := from
	if end > len(data) || from < 0 {
		return -1
	}
	// SWAR part: 16 bytes per step, reading 8 bytes at i, i+8 (first
	// byte) and at i+m-1, i+m+7 (last byte). The loads are unaligned and
	// stay inside data[:end] (checked by the loop condition), so they
	// use unsafe to avoid four bounds checks per step.
	if end-m-15 > i {
		base := unsafe.Pointer(unsafe.SliceData(data))
		first, last8, ff, fl := n.first, n.last, n.foldFirst, n.foldLast
		for ; i+m-1+16 <= end; i += 16 {
			p := unsafe.Add(base, i)
			q := unsafe.Add(base, i+m-1)
			x0 := *(*uint64)(p) | ff ^ first
			x1 := *(*uint64)(unsafe.Add(p, 8)) | ff ^ first
			y0 := *(*uint64)(q) | fl ^ last8
			y1 := *(*uint64)(unsafe.Add(q, 8)) | fl ^ last8
			t0, t1 := x0|y0, x1|y1
			z0 := (t0 - lsb) &^ t0 & msb
			z1 := (t1 - lsb) &^ t1 & msb
			if z0|z1 == 0 {
				continue
			}
			for z0 != 0 {
				j := i + bits.TrailingZeros64(z0)>>3
				if j <= last && n.matchAt(data, j) {
					return j
				}
				z0 &= z0 - 1
			}
			for z1 != 0 {
				j := i + 8 + bits.TrailingZeros64(z1)>>3
				if j <= last && n.matchAt(data, j) {
					return j
				}
				z1 &= z1 - 1
			}
		}
	}
	for ; i <= last; i++ {
		if data[i]|n.fold[0] == n.lower[0] && n.matchAt(data, i) {
			return i
		}
	}
	return -1
}

// searchRange sets hit[i] for the rows i in [lo, hi) whose text contains
// needle, ignoring case.
func searchRange(c *Vector, needle string, lo, hi int, hit []bool) {
	if lo >= hi {
		return
	}
	start, end := int(c.Offs[lo]), int(c.Offs[hi])
	if isASCII(needle) {
		n := newFoldNeedle(needle)
		scanHits(c, lo, hi, start, end, hit, func(from int) (int, int) {
			return n.index(c.Data, from, end), len(needle)
		})
		if needsUnicodeCheck(needle) {
			for _, v := range [][]byte{[]byte("\u212a"), []byte("\u017f")} {
				scanHits(c, lo, hi, start, end, hit, c.literalFinder(v, end, func(row int) bool {
					return ContainsFold(c.TextBytes(row), needle)
				}))
			}
		}
		return
	}
	r, _ := utf8.DecodeRuneInString(needle)
	for _, v := range foldVariants(r) {
		variant := []byte(string(v))
		scanHits(c, lo, hi, start, end, hit, c.literalFinder(variant, end, func(row int) bool {
			return ContainsFold(c.TextBytes(row), needle)
		}))
	}
}

// searchExact marks the rows in [lo, hi) whose text contains needle
// byte for byte (bytes.Index over the buffer).
func searchExact(c *Vector, needle []byte, lo, hi int, hit []bool) {
	if lo >= hi {
		return
	}
	start, end := int(c.Offs[lo]), int(c.Offs[hi])
	scanHits(c, lo, hi, start, end, hit, func(from int) (int, int) {
		k := bytes.Index(c.Data[from:end], needle)
		if k < 0 {
			return -1, 0
		}
		return from + k, len(needle)
	})
}

// literalFinder returns a finder (for scanHits) of the occurrences of v
// before end whose row check accepts. It reports a match length of 1 so
// that scanHits never rejects a hit by position: check decides.
func (c *Vector) literalFinder(v []byte, end int, check func(row int) bool) func(from int) (int, int) {
	data := c.Data
	return func(from int) (int, int) {
		for from < end {
			k := bytes.Index(data[from:end], v)
			if k < 0 {
				return -1, 0
			}
			j := from + k
			row := rowOf(c, j)
			if check(row) {
				return j, 1
			}
			from = int(c.Offs[row+1])
			if from <= j {
				from = j + 1
			}
		}
		return -1, 0
	}
}

// scanHits repeatedly asks find for the next match at or after a
// position, marks the row the match lies in (when the match does not run
// past the row's end), and continues at the next row.
func scanHits(c *Vector, lo, hi, start, end int, hit []bool, find func(from int) (int, int)) {
	pos := start
	row := lo
	for pos < end {
		j, m := find(pos)
		if j < 0 {
			return
		}
		// Advance row to the row holding byte j.
		if int(c.Offs[row+1]) <= j {
			if j-int(c.Offs[row+1]) > 4096 {
				row = rowOf(c, j)
			} else {
				for int(c.Offs[row+1]) <= j {
					row++
				}
			}
		}
		rowEnd := int(c.Offs[row+1])
		if j+m <= rowEnd {
			hit[row] = true
			pos = rowEnd
			row++
			if row >= hi {
				return
			}
			continue
		}
		pos = j + 1
	}
}

// rowOf returns the row whose bytes include position j (offsets are
// non-decreasing; empty rows are skipped).
func rowOf(c *Vector, j int) int {
	// first row r with offs[r+1] > j
	return sort.Search(c.N, func(r int) bool { return int(c.Offs[r+1]) > j })
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// needsUnicodeCheck reports whether an ASCII needle has a letter that a
// non-ASCII rune folds to (k and s).
func needsUnicodeCheck(needle string) bool {
	for i := 0; i < len(needle); i++ {
		switch needle[i] | 0x20 {
		case 'k', 's':
			return true
		}
	}
	return false
}

// foldVariants returns r and every rune that folds to it.
func foldVariants(r rune) []rune {
	out := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, f)
	}
	return out
}

// ContainsFold reports whether needle occurs in s under Unicode simple
// case folding (strings.EqualFold rules).
func ContainsFold(s []byte, needle string) bool {
	if needle == "" {
		return true
	}
	for i := 0; i < len(s); {
		if HasPrefixFold(s[i:], needle) {
			return true
		}
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return false
}

// HasPrefixFold reports whether s starts with prefix under simple folding.
func HasPrefixFold(s []byte, prefix string) bool {
	for _, pr := range prefix {
		if len(s) == 0 {
			return false
		}
		sr, size := utf8.DecodeRune(s)
		s = s[size:]
		if sr == pr {
			continue
		}
		if !equalFoldRune(sr, pr) {
			return false
		}
	}
	return true
}

// HasSuffixFold reports whether s ends with suffix under simple folding.
func HasSuffixFold(s []byte, suffix string) bool {
	for len(suffix) > 0 {
		if len(s) == 0 {
			return false
		}
		pr, ps := utf8.DecodeLastRuneInString(suffix)
		sr, ss := utf8.DecodeLastRune(s)
		if sr != pr && !equalFoldRune(sr, pr) {
			return false
		}
		suffix = suffix[:len(suffix)-ps]
		s = s[:len(s)-ss]
	}
	return true
}

func equalFoldRune(a, b rune) bool {
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		if a|0x20 == b|0x20 && isASCIILetter(byte(a)) {
			return true
		}
		return a == b
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// SearchRows returns the rows of f whose text column c contains needle
// (ignoring case when fold is set), in f's order. Large selections scan
// the column's buffer (in parallel); small ones search row by row.
func SearchRows(s Sel, c *Vector, needle string, fold bool) []int32 {
	total := s.Len()
	if needle == "" {
		return NotNullRows(s, c)
	}
	if !s.All && total < c.N/8 {
		out := make([]int32, 0, 16)
		ascii := isASCII(needle) && !needsUnicodeCheck(needle)
		var n *foldNeedle
		if ascii {
			n = newFoldNeedle(needle)
		}
		for _, i := range s.Rows() {
			if c.IsNull(int(i)) {
				continue
			}
			b := c.TextBytes(int(i))
			var ok bool
			if !fold {
				ok = bytes.Contains(b, []byte(needle))
			} else if ascii {
				ok = n.index(b, 0, len(b)) >= 0
			} else {
				ok = ContainsFold(b, needle)
			}
			if ok {
				out = append(out, i)
			}
		}
		return out
	}
	hit := make([]bool, c.N)
	parts := runtime.GOMAXPROCS(0)
	if parts > 8 {
		parts = 8
	}
	if len(c.Data) < 1<<20 {
		parts = 1
	}
	bounds := splitByBytes(c, parts)
	var wg sync.WaitGroup
	for p := 0; p+1 < len(bounds); p++ {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			if fold {
				searchRange(c, needle, lo, hi, hit)
			} else {
				searchExact(c, []byte(needle), lo, hi, hit)
			}
		}(bounds[p], bounds[p+1])
	}
	wg.Wait()
	// Null slots normally hold no bytes, but Arrow allows any; never
	// report them.
	out := make([]int32, 0, 64)
	if s.All {
		for i, h := range hit {
			if h && !c.IsNull(i) {
				out = append(out, int32(i))
			}
		}
		return out
	}
	for _, i := range s.Rows() {
		if hit[i] && !c.IsNull(int(i)) {
			out = append(out, i)
		}
	}
	return out
}

// splitByBytes cuts rows 0..n into parts ranges holding about the same
// number of text bytes.
func splitByBytes(c *Vector, parts int) []int {
	bounds := []int{0}
	if parts <= 1 || c.N == 0 {
		return append(bounds, c.N)
	}
	total := int64(c.Offs[c.N]) - int64(c.Offs[0])
	for p := 1; p < parts; p++ {
		target := int64(c.Offs[0]) + total*int64(p)/int64(parts)
		r := sort.Search(c.N, func(r int) bool { return int64(c.Offs[r]) >= target })
		if r > bounds[len(bounds)-1] && r < c.N {
			bounds = append(bounds, r)
		}
	}
	return append(bounds, c.N)
}

func NotNullRows(s Sel, c *Vector) []int32 {
	out := make([]int32, 0, s.Len())
	for k := 0; k < s.Len(); k++ {
		i := s.Row(k)
		if !c.IsNull(i) {
			out = append(out, int32(i))
		}
	}
	return out
}
