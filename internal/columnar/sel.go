package columnar

import "math/bits"

// Sel is a selection of rows of a table of N rows, in order: all of them
// (All), a bitmap in ascending row order (Bits), or a list of row numbers
// (List). It is a value; the slices it holds are never modified.
type Sel struct {
	N    int     // rows of the table
	All  bool    // rows 0..N-1 in order
	Bits *BitSel // when not nil (and All is false): the rows set in it
	List []int32 // otherwise: these rows, in this order
}

// Len returns the number of rows selected.
func (s Sel) Len() int {
	switch {
	case s.All:
		return s.N
	case s.Bits != nil:
		return s.Bits.Len()
	}
	return len(s.List)
}

// Row returns the table row at position k of the selection.
func (s Sel) Row(k int) int {
	switch {
	case s.All:
		return k
	case s.Bits != nil:
		return int(s.Bits.Rows()[k])
	}
	return int(s.List[k])
}

// Rows returns the selected rows as a slice the caller must not modify.
func (s Sel) Rows() []int32 {
	switch {
	case s.Bits != nil && !s.All:
		return s.Bits.Rows()
	case !s.All:
		return s.List
	}
	rows := make([]int32, s.N)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

// chunkRows is how many rows Chunks hands over at a time (4 KB of row
// numbers: the buffer stays in the L1 cache while a loop reads it).
const chunkRows = 1024

// Chunks calls fn with the selected rows in order, a chunk at a time: k
// is the position of rows[0] in the selection. It reads a bitmap
// selection word by word instead of building its row vector, so a
// query that visits a Where's rows once allocates nothing for them.
// fn must not keep or modify rows.
func (s Sel) Chunks(fn func(k int, rows []int32)) {
	switch {
	case s.All:
		var buf [chunkRows]int32
		for lo := 0; lo < s.N; lo += chunkRows {
			rows := buf[:min(chunkRows, s.N-lo)]
			for i := range rows {
				rows[i] = int32(lo + i)
			}
			fn(lo, rows)
		}
	case s.Bits != nil:
		if list := s.Bits.builtRows(); list != nil {
			Sel{N: s.N, List: list}.Chunks(fn)
			return
		}
		var buf [chunkRows + 64]int32
		k, n := 0, 0
		for wi, w := range s.Bits.Bitmap() {
			for w != 0 {
				buf[n] = int32(wi<<6 + bits.TrailingZeros64(w))
				n++
				w &= w - 1
			}
			if n >= chunkRows {
				fn(k, buf[:n])
				k += n
				n = 0
			}
		}
		if n > 0 {
			fn(k, buf[:n])
		}
	default:
		for lo := 0; lo < len(s.List); lo += chunkRows {
			fn(lo, s.List[lo:min(lo+chunkRows, len(s.List))])
		}
	}
}
