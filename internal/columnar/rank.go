package columnar

import (
	"fmt"
	"slices"
)

// RankMethods are the ways Rank numbers ties, as pandas' rank(method=).
var RankMethods = []string{"average", "min", "max", "first", "dense"}

// Rank numbers the rows of each segment from 1 by c's values (key gives
// the direction; nulls get a null rank), as pandas' rank(): ties share the
// average of their positions ("average", a float column), the lowest
// ("min") or highest ("max"), or are numbered in order ("first"), or ranks
// leave no gaps after ties ("dense"). The other methods give an int column.
func Rank(name string, key SortKey, rows []int32, seg Segments, method string) (*Vector, error) {
	if !slices.Contains(RankMethods, method) {
		return nil, fmt.Errorf("unknown method %q", method)
	}
	n := len(rows)
	out := &Vector{Name: name, Kind: KindInt, N: n, Ints: make([]int64, n)}
	if method == "average" {
		out.Kind, out.Ints, out.Floats = KindFloat, nil, make([]float64, n)
	}
	var tableRows []int32
	seg.each(func(pos []int32) {
		tableRows = tableRows[:0]
		for _, p := range pos {
			tableRows = append(tableRows, rows[p])
		}
		order := SortedPositions(tableRows, []SortKey{key}) // stable: ties in order
		rankSegment(out, key, pos, tableRows, order, method)
	})
	return out, nil
}

// rankSegment writes the ranks of one segment: order lists its positions
// (indexes into pos and tableRows) sorted, nulls last.
func rankSegment(out *Vector, key SortKey, pos, tableRows, order []int32, method string) {
	dense := 0
	for i := 0; i < len(order); {
		first := int(tableRows[order[i]])
		if key.Missing(first) {
			for _, o := range order[i:] {
				out.SetNull(int(pos[o]))
			}
			return
		}
		j := i + 1
		for j < len(order) && key.Compare(first, int(tableRows[order[j]])) == 0 {
			j++
		}
		dense++
		for k := i; k < j; k++ {
			p := pos[order[k]]
			switch method {
			case "average":
				out.Floats[p] = float64(i+1+j) / 2
			case "min":
				out.Ints[p] = int64(i + 1)
			case "max":
				out.Ints[p] = int64(j)
			case "first":
				out.Ints[p] = int64(k + 1)
			case "dense":
				out.Ints[p] = int64(dense)
			}
		}
		i = j
	}
}
