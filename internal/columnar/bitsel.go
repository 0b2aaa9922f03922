package columnar

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// BitSel is a selection of table rows in ascending order, as a bitmap.
// Where produces one when filtering all rows (or another bitSel) on a
// column that can answer with bits: 219,500 rows take 27 KB instead of the
// 860 KB of a row vector.
//
// A bitSel is lazy: it is the AND of a few terms, bitmaps that belong to a
// column's index or were computed by a scan, each possibly negated, so a
// chain of Where calls ending in Count reads the terms once, word by word,
// and writes nothing. The bitmap and the row vector are built once, on
// first use by anything else. Term bitmaps are never modified.
type BitSel struct {
	n     int       // rows of the table
	terms []BitTerm // the selection is the AND of the terms (all rows if none)

	wordsOnce sync.Once
	words     []uint64

	countOnce sync.Once
	count     int

	rowsOnce sync.Once
	list     []int32
	listDone atomic.Bool // list is built (Rows has returned once)
}

// BitTerm is one bitmap of a bitSel, negated when not is set.
type BitTerm struct {
	Words []uint64
	Not   bool
}

// maxTerms bounds the terms of a bitSel; longer chains are materialised.
const MaxTerms = 4

// NewBitSel is the selection of the rows set in words, out of n rows.
func NewBitSel(n int, words []uint64) *BitSel {
	return &BitSel{n: n, terms: []BitTerm{{Words: words}}}
}

// EmptySel is a selection of no rows out of n.
func EmptySel(n int) *BitSel {
	b := NewBitSel(n, make([]uint64, WordCount(n)))
	b.countOnce.Do(func() {})
	return b
}

// And returns the rows of b (all n rows when b is nil) that are also
// selected by the terms.
func (b *BitSel) And(n int, terms ...BitTerm) *BitSel {
	var prev []BitTerm
	if b != nil {
		prev = b.terms
	}
	all := make([]BitTerm, 0, len(prev)+len(terms))
	all = append(append(all, prev...), terms...)
	out := &BitSel{n: n, terms: all}
	if len(all) > MaxTerms {
		out.terms = []BitTerm{{Words: out.Bitmap()}}
	}
	return out
}

// Bitmap returns the selection as one bitmap (the caller must not modify it).
func (b *BitSel) Bitmap() []uint64 {
	b.wordsOnce.Do(func() {
		if len(b.terms) == 1 && !b.terms[0].Not {
			b.words = b.terms[0].Words
			return
		}
		b.words = make([]uint64, WordCount(b.n))
		b.eval(func(lo int, block []uint64) { copy(b.words[lo:], block) })
	})
	return b.words
}

// Len returns the number of rows selected.
func (b *BitSel) Len() int {
	b.countOnce.Do(func() { b.count = b.countTerms() })
	return b.count
}

// countTerms counts the rows of the AND of the terms in one pass that
// reads each term word once and writes nothing (a negated term is XORed
// with all ones).
func (b *BitSel) countTerms() int {
	nw := WordCount(b.n)
	if len(b.terms) == 0 || nw == 0 {
		return b.n
	}
	mask := func(t BitTerm) uint64 {
		if t.Not {
			return ^uint64(0)
		}
		return 0
	}
	// Every word but the last, which holds bits past n, is counted whole.
	full := nw - 1
	count := 0
	switch len(b.terms) {
	case 1:
		t0, m0 := b.terms[0].Words[:full], mask(b.terms[0])
		for _, w := range t0 {
			count += bits.OnesCount64(w ^ m0)
		}
	case 2:
		t0, m0 := b.terms[0].Words[:full], mask(b.terms[0])
		t1, m1 := b.terms[1].Words[:full], mask(b.terms[1])
		for i, w := range t0 {
			count += bits.OnesCount64((w ^ m0) & (t1[i] ^ m1))
		}
	case 3:
		t0, m0 := b.terms[0].Words[:full], mask(b.terms[0])
		t1, m1 := b.terms[1].Words[:full], mask(b.terms[1])
		t2, m2 := b.terms[2].Words[:full], mask(b.terms[2])
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
		last &= t.Words[full] ^ mask(t)
	}
	return count + bits.OnesCount64(last)
}

// evalBlock is the number of words eval computes at a time (2 KB, so
// that a block stays in the L1 cache while every term is ANDed into it).
const evalBlock = 256

// eval computes the selection block by block, calling emit with each
// block's first word and words.
func (b *BitSel) eval(emit func(lo int, block []uint64)) {
	nw := WordCount(b.n)
	var buf [evalBlock]uint64
	for lo := 0; lo < nw; lo += evalBlock {
		blk := buf[:min(evalBlock, nw-lo)]
		if len(b.terms) == 0 {
			for i := range blk {
				blk[i] = ^uint64(0)
			}
		}
		for t, term := range b.terms {
			src := term.Words[lo : lo+len(blk)]
			switch {
			case t == 0 && term.Not:
				for i, w := range src {
					blk[i] = ^w
				}
			case t == 0:
				copy(blk, src)
			case term.Not:
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

// Rows returns the selected rows (built on first call, then shared).
func (b *BitSel) Rows() []int32 {
	b.rowsOnce.Do(func() {
		b.list = make([]int32, 0, b.Len())
		for wi, w := range b.Bitmap() {
			for w != 0 {
				b.list = append(b.list, int32(wi<<6+bits.TrailingZeros64(w)))
				w &= w - 1
			}
		}
		b.listDone.Store(true)
	})
	return b.list
}

// builtRows returns the row vector if Rows has built it, else nil.
func (b *BitSel) builtRows() []int32 {
	if b.listDone.Load() {
		return b.list
	}
	return nil
}

// WordCount is the number of 64-row words that cover n rows.
func WordCount(n int) int { return (n + 63) >> 6 }

// CodeBits marks the rows whose dictionary code has hit[code] == 1.
func CodeBits(codes []int16, hit []uint64) []uint64 {
	n := len(codes)
	words := make([]uint64, WordCount(n))
	Parts(n, func(_, lo, hi int) {
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

// RangeBits marks the rows whose value x satisfies uint64(x-lo) ≤ span
// (lo ≤ x ≤ lo+span, in one comparison).
func RangeBits(vals []int64, lo int64, span uint64) []uint64 {
	n := len(vals)
	words := make([]uint64, WordCount(n))
	ulo := uint64(lo)
	in := func(x int64) uint64 { return uint64(B2I(uint64(x)-ulo <= span)) }
	Parts(n, func(_, from, to int) {
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

// Terms returns the number of bitmaps b is the AND of (at most MaxTerms).
func (b *BitSel) Terms() int { return len(b.terms) }
