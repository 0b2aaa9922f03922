package award_data

import (
	"math/bits"
	"sync"
)

// bitSel is a selection of table rows in ascending order, as a bitmap.
// Where produces one when filtering all rows (or another bitSel) on a
// column that can answer with bits: 219,500 rows take 27 KB instead of the
// 860 KB of a row vector.
//
// A bitSel is lazy: it is the AND of a few terms, bitmaps that belong to a
// column's index or were computed by a scan, each possibly negated, so a
// chain of Where calls ending in Count reads the terms once, word by word,
// and writes nothing. The bitmap and the row vector are built once, on
// first use by anything else. Term bitmaps are never modified.
type bitSel struct {
	n     int       // rows of the table
	terms []bitTerm // the selection is the AND of the terms (all rows if none)

	wordsOnce sync.Once
	words     []uint64

	countOnce sync.Once
	count     int

	rowsOnce sync.Once
	list     []int32
}

// bitTerm is one bitmap of a bitSel, negated when not is set.
type bitTerm struct {
	words []uint64
	not   bool
}

// maxTerms bounds the terms of a bitSel; longer chains are materialised.
const maxTerms = 4

// newBitSel is the selection of the rows set in words, out of n rows.
func newBitSel(n int, words []uint64) *bitSel {
	return &bitSel{n: n, terms: []bitTerm{{words: words}}}
}

// emptySel is a selection of no rows out of n.
func emptySel(n int) *bitSel {
	b := newBitSel(n, make([]uint64, wordCount(n)))
	b.countOnce.Do(func() {})
	return b
}

// and returns the rows of b (all n rows when b is nil) that are also
// selected by the terms.
func (b *bitSel) and(n int, terms ...bitTerm) *bitSel {
	var prev []bitTerm
	if b != nil {
		prev = b.terms
	}
	all := make([]bitTerm, 0, len(prev)+len(terms))
	all = append(append(all, prev...), terms...)
	out := &bitSel{n: n, terms: all}
	if len(all) > maxTerms {
		out.terms = []bitTerm{{words: out.bitmap()}}
	}
	return out
}

// bitmap returns the selection as one bitmap (the caller must not modify it).
func (b *bitSel) bitmap() []uint64 {
	b.wordsOnce.Do(func() {
		if len(b.terms) == 1 && !b.terms[0].not {
			b.words = b.terms[0].words
			return
		}
		b.words = make([]uint64, wordCount(b.n))
		b.eval(func(lo int, block []uint64) { copy(b.words[lo:], block) })
	})
	return b.words
}

// size returns the number of rows selected.
func (b *bitSel) size() int {
	b.countOnce.Do(func() { b.count = b.countTerms() })
	return b.count
}

// countTerms counts the rows of the AND of the terms in one pass that
// reads each term word once and writes nothing (a negated term is XORed
// with all ones).
func (b *bitSel) countTerms() int {
	nw := wordCount(b.n)
	if len(b.terms) == 0 || nw == 0 {
		return b.n
	}
	mask := func(t bitTerm) uint64 {
		if t.not {
			return ^uint64(0)
		}
		return 0
	}
	// Every word but the last, which holds bits past n, is counted whole.
	full := nw - 1
	count := 0
	switch len(b.terms) {
	case 1:
		t0, m0 := b.terms[0].words[:full], mask(b.terms[0])
		for _, w := range t0 {
			count += bits.OnesCount64(w ^ m0)
		}
	case 2:
		t0, m0 := b.terms[0].words[:full], mask(b.terms[0])
		t1, m1 := b.terms[1].words[:full], mask(b.terms[1])
		for i, w := range t0 {
			count += bits.OnesCount64((w ^ m0) & (t1[i] ^ m1))
		}
	case 3:
		t0, m0 := b.terms[0].words[:full], mask(b.terms[0])
		t1, m1 := b.terms[1].words[:full], mask(b.terms[1])
		t2, m2 := b.terms[2].words[:full], mask(b.terms[2])
		for i, w := range t0 {
			count += bits.OnesCount64((w ^ m0) & (t1[i] ^ m1) & (t2[i] ^ m2))
		}
	default:
		b.eval(func(lo int, block []uint64) {
			if lo+len(block) > full {
				block = block[:full-lo]
			}
			for _, w := range block {
				count += bits.OnesCount64(w)
			}
		})
	}
	last := ^uint64(0)
	if b.n&63 != 0 {
		last = 1<<uint(b.n&63) - 1
	}
	for _, t := range b.terms {
		last &= t.words[full] ^ mask(t)
	}
	return count + bits.OnesCount64(last)
}

// evalBlock is the number of words eval computes at a time (2 KB, so
// that a block stays in the L1 cache while every term is ANDed into it).
const evalBlock = 256

// eval computes the selection block by block, calling emit with each
// block's first word and words.
func (b *bitSel) eval(emit func(lo int, block []uint64)) {
	nw := wordCount(b.n)
	var buf [evalBlock]uint64
	for lo := 0; lo < nw; lo += evalBlock {
		blk := buf[:min(evalBlock, nw-lo)]
		if len(b.terms) == 0 {
			for i := range blk {
				blk[i] = ^uint64(0)
			}
		}
		for t, term := range b.terms {
			src := term.words[lo : lo+len(blk)]
			switch {
			case t == 0 && term.not:
				for i, w := range src {
					blk[i] = ^w
				}
			case t == 0:
				copy(blk, src)
			case term.not:
				for i, w := range src {
					blk[i] &^= w
				}
			default:
				for i, w := range src {
					blk[i] &= w
				}
			}
		}
		if lo+len(blk) == nw && b.n&63 != 0 {
			blk[len(blk)-1] &= 1<<uint(b.n&63) - 1 // rows past n are not selected
		}
		emit(lo, blk)
	}
}

// rows returns the selected rows (built on first call, then shared).
func (b *bitSel) rows() []int32 {
	b.rowsOnce.Do(func() {
		b.list = make([]int32, 0, b.size())
		for wi, w := range b.bitmap() {
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

// withSel returns f with the rows of sel, which must be a subset of f's.
func (f Frame) withSel(sel *bitSel) Frame {
	g := f
	g.all = false
	g.rows = nil
	g.bits = sel
	return g
}

// scanSel is the selection of the rows set in words (freshly computed for
// all rows) that f also selects.
func scanSel(f Frame, words []uint64) *bitSel {
	return f.bits.and(f.t.n, bitTerm{words: words})
}

// codeBits marks the rows whose dictionary code has hit[code] == 1.
func codeBits(codes []int16, hit []uint64) []uint64 {
	n := len(codes)
	words := make([]uint64, wordCount(n))
	parallelParts(n, func(_, lo, hi int) {
		wi := lo >> 6
		// Whole words, eight rows at a time with constant shifts, so that
		// the rows' bits are independent of each other.
		for ; wi < hi>>6; wi++ {
			v := codes[wi<<6 : wi<<6+64 : wi<<6+64]
			var w uint64
			for j := 0; j < 64; j += 8 {
				w |= (hit[v[j]] | hit[v[j+1]]<<1 | hit[v[j+2]]<<2 | hit[v[j+3]]<<3 |
					hit[v[j+4]]<<4 | hit[v[j+5]]<<5 | hit[v[j+6]]<<6 | hit[v[j+7]]<<7) << uint(j)
			}
			words[wi] = w
		}
		if wi<<6 < hi {
			var w uint64
			for i, k := range codes[wi<<6 : hi] {
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
	ulo := uint64(lo)
	in := func(x int64) uint64 { return uint64(b2i(uint64(x)-ulo <= span)) }
	parallelParts(n, func(_, from, to int) {
		wi := from >> 6
		for ; wi < to>>6; wi++ {
			v := vals[wi<<6 : wi<<6+64 : wi<<6+64]
			var w uint64
			for j := 0; j < 64; j += 8 {
				w |= (in(v[j]) | in(v[j+1])<<1 | in(v[j+2])<<2 | in(v[j+3])<<3 |
					in(v[j+4])<<4 | in(v[j+5])<<5 | in(v[j+6])<<6 | in(v[j+7])<<7) << uint(j)
			}
			words[wi] = w
		}
		if wi<<6 < to {
			var w uint64
			for i, x := range vals[wi<<6 : to] {
				w |= in(x) << uint(i)
			}
			words[wi] = w
		}
	})
	return words
}
