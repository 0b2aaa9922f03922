package columnar

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
