package columnar

import (
	"math/bits"
	"slices"
)

// linearBinEdges is the most edges Bin compares a value with one by one
// (branch-free, every edge): more take a binary search.
const linearBinEdges = 16

// Bin puts each value of a numeric column at the rows of s (by
// position) into the interval of edges (ascending) that holds
// it, as pandas' cut: interval i is (edges[i], edges[i+1]], the first
// one closed on the left too when lowest is set (qcut). The result is a
// category column whose dictionary is labels, in order (Ordered); a value
// in no interval is null. Large selections are split across processors.
// Edges may repeat only as QCut's single bin [v, v].
func Bin(name string, c *Vector, s Sel, edges []float64, labels []string, lowest bool) *Vector {
	n := s.Len()
	out := &Vector{Name: name, Kind: KindCategory, N: n, Codes: make([]int16, n), Dict: labels, Ordered: true}
	valid := make([]byte, (n+7)/8)
	var rows []int32 // nil: all rows, position k is row k
	if !s.All {
		rows = s.Rows()
	}
	nulls := make([]int, MaxParts())
	used := Parts(n, func(part, lo, hi int) {
		b := binner{c: c, rows: rows, edges: edges, lowest: lowest, codes: out.Codes, valid: valid}
		if c.Kind == KindInt {
			nulls[part] = binRange(b, c.Ints, lo, hi)
		} else {
			nulls[part] = binRange(b, c.Floats, lo, hi)
		}
	})
	for _, k := range nulls[:used] {
		if k > 0 {
			out.Valid = valid
			break
		}
	}
	return out
}

// binner holds what Bin's parts share.
type binner struct {
	c      *Vector
	rows   []int32
	edges  []float64
	lowest bool
	codes  []int16
	valid  []byte
}

// binRange bins positions lo..hi (lo a multiple of 8) eight at a time,
// writing each eight's validity as one byte, and returns how many are
// null.
func binRange[T int64 | float64](b binner, vals []T, lo, hi int) int {
	edges, last := b.edges, len(b.edges)-1
	first := edges[0]
	nulls := 0
	for k0 := lo; k0 < hi; k0 += 8 {
		m := min(8, hi-k0)
		present := byte(0xff) << m // past the last row: set, as SetNull leaves them
		for j := range m {
			k := k0 + j
			r := k
			if b.rows != nil {
				r = int(b.rows[k])
			}
			v := float64(vals[r])
			// i: the number of edges below v, which is the index of the
			// first edge ≥ v (NaN is below none: i is 0).
			i := 0
			if len(edges) <= linearBinEdges {
				for _, e := range edges {
					i += B2I(e < v)
				}
			} else {
				i, _ = slices.BinarySearch(edges, v)
			}
			in := i > 0 && i <= last || i == 0 && b.lowest && v == first
			in = in && !b.c.IsNull(r)
			b.codes[k] = int16(max(i-1, 0) * B2I(in))
			present |= byte(B2I(in)) << j
		}
		b.valid[k0>>3] = present
		nulls += 8 - bits.OnesCount8(present)
	}
	return nulls
}
