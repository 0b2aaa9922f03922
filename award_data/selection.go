package award_data

import "github.com/sbirtools/sbir-kernel/internal/columnar"

// bitsInput reports whether f's rows can be filtered as a bitmap: all
// rows, or a bitmap selection.
func bitsInput(f Frame) bool { return f.all || f.bits != nil }

// withSel returns f with the rows of sel, which must be a subset of f's.
func (f Frame) withSel(sel *columnar.BitSel) Frame {
	g := f
	g.all = false
	g.rows = nil
	g.sorted = nil
	g.bits = sel
	return g
}

// scanSel is the selection of the rows set in words (freshly computed for
// all rows) that f also selects.
func scanSel(f Frame, words []uint64) *columnar.BitSel {
	return f.bits.And(f.t.N, columnar.BitTerm{Words: words})
}
