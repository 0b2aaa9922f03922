package award_data

import (
	"math/bits"
	"sync"
)

// bitSel is a selection of table rows in ascending order, as a bitmap.
// Where produces one when filtering all rows (or another bitSel) with a
// kernel that can write bits: 219,500 rows take 27 KB instead of the
// 860 KB of a row vector, so a chain of filters ending in Count
// allocates, and page-faults, little. The row vector is built once, on
// first use by anything else.
type bitSel struct {
	words []uint64
	count int

	once sync.Once
	list []int32
}

func newBitSel(words []uint64) *bitSel {
	b := &bitSel{words: words}
	for _, w := range words {
		b.count += bits.OnesCount64(w)
	}
	return b
}

// rows returns the selected rows (built on first call, then shared).
func (b *bitSel) rows() []int32 {
	b.once.Do(func() {
		b.list = make([]int32, 0, b.count)
		for wi, w := range b.words {
			for w != 0 {
				b.list = append(b.list, int32(wi<<6+bits.TrailingZeros64(w)))
				w &= w - 1
			}
		}
	})
	return b.list
}

// wordCount is the number of 64-row words that cover n rows.
func wordCount(n int) int { return (n + 63) >> 6 }

// bitsInput reports whether f's rows can be filtered as a bitmap: all
// rows, or a bitmap selection.
func bitsInput(f Frame) bool { return f.all || f.bits != nil }

// withBits returns f with the rows set in words (ANDed with f's own
// bitmap when it has one).
func (f Frame) withBits(words []uint64) Frame {
	if f.bits != nil {
		for i, w := range f.bits.words {
			words[i] &= w
		}
	}
	g := f
	g.all = false
	g.rows = nil
	g.bits = newBitSel(words)
	return g
}

// codeBits marks the rows whose dictionary code has hit[code] == 1.
func codeBits(codes []int16, hit []uint64) []uint64 {
	n := len(codes)
	words := make([]uint64, wordCount(n))
	parallelParts(n, func(_, lo, hi int) {
		for wi := lo >> 6; wi < wordCount(hi); wi++ {
			base := wi << 6
			end := min(base+64, n)
			var w uint64
			for i, k := range codes[base:end] {
				w |= hit[k] << uint(i)
			}
			words[wi] = w
		}
	})
	return words
}

// rangeBits marks the rows whose value x satisfies uint64(x-lo) ≤ span
// (lo ≤ x ≤ lo+span, in one comparison).
func rangeBits(vals []int64, lo int64, span uint64) []uint64 {
	n := len(vals)
	words := make([]uint64, wordCount(n))
	parallelParts(n, func(_, from, to int) {
		for wi := from >> 6; wi < wordCount(to); wi++ {
			base := wi << 6
			end := min(base+64, n)
			var w uint64
			for i, x := range vals[base:end] {
				w |= uint64(b2i(uint64(x)-uint64(lo) <= span)) << uint(i)
			}
			words[wi] = w
		}
	})
	return words
}
