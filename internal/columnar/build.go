package columnar

import (
	"errors"
	"fmt"
	"math"
)

// Renamed returns a column sharing c's values under another name (its
// caches are not shared: they are rebuilt on demand).
func Renamed(c *Vector, name string) *Vector {
	return &Vector{Name: name, Kind: c.Kind, N: c.N, Valid: c.Valid, ValidOff: c.ValidOff,
		Offs: c.Offs, Data: c.Data, Codes: c.Codes, Dict: c.Dict,
		Ints: c.Ints, Floats: c.Floats, Days: c.Days, AggName: c.AggName, Ordered: c.Ordered, Bool: c.Bool}
}

// ErrTextTooLarge reports a text column whose values would need more
// bytes than its 32-bit offsets address (2 GiB).
var ErrTextTooLarge = errors.New("text column larger than 2 GiB")

// Append concatenates columns into one of the given kind. Parts must be
// of that kind, except that ints may join a float column and categories
// a text column (they are converted). rows, when not nil, says which rows
// of each part to take, in order (a nil entry: all of them; a negative
// row: a null), so that a caller stacking selections of larger columns
// copies each value once instead of gathering it first.
func Append(name string, kind Kind, parts []*Vector, rows [][]int32) (*Vector, error) {
	n := 0
	for k, p := range parts {
		n += partLen(p, rows, k)
	}
	out := &Vector{Name: name, Kind: kind, N: n}
	switch kind {
	case KindInt:
		out.Ints = make([]int64, n)
	case KindFloat:
		out.Floats = make([]float64, n)
	case KindDate:
		out.Days = make([]int32, n)
	case KindText:
		// Sized first: the values are copied once, into exactly their room.
		size := 0
		for k, p := range parts {
			forRows(p, rows, k, func(_, r int) {
				if r >= 0 && !p.IsNull(r) {
					size += len(textAt(p, r))
				}
			})
			if size > math.MaxInt32 {
				return nil, fmt.Errorf("column %q: %w", name, ErrTextTooLarge)
			}
		}
		out.Offs = make([]int32, n+1)
		out.Data = make([]byte, 0, size)
	case KindCategory:
		out.Codes = make([]int16, n)
	}
	// Categories merge their dictionaries.
	dictIndex := map[string]int16{}
	base := 0
	for k, p := range parts {
		forRows(p, rows, k, func(i, r int) {
			at := base + i
			if r < 0 || p.IsNull(r) {
				out.SetNull(at)
				switch kind {
				case KindText:
					out.Offs[at+1] = int32(len(out.Data))
				case KindFloat:
					out.Floats[at] = math.NaN()
				}
				return
			}
			switch kind {
			case KindInt:
				out.Ints[at] = p.Ints[r]
			case KindFloat:
				out.Floats[at] = p.Float(r)
			case KindDate:
				out.Days[at] = p.Days[r]
			case KindText:
				out.Data = append(out.Data, textAt(p, r)...)
				out.Offs[at+1] = int32(len(out.Data))
			case KindCategory:
				if p.Dict == nil {
					return
				}
				s := p.Dict[p.Codes[r]]
				code, ok := dictIndex[s]
				if !ok {
					code = int16(len(out.Dict))
					dictIndex[s] = code
					out.Dict = append(out.Dict, s)
				}
				out.Codes[at] = code
			}
		})
		base += partLen(p, rows, k)
	}
	return out, nil
}

// textAt is the value at row r (not null) of p, a text or category part
// of a text column, without copying it.
func textAt(p *Vector, r int) string {
	if p.Kind == KindText {
		return p.View(r)
	}
	if p.Dict == nil {
		return ""
	}
	return p.Dict[p.Codes[r]]
}

// partLen is how many rows Append takes from parts[k].
func partLen(p *Vector, rows [][]int32, k int) int {
	if rows != nil && rows[k] != nil {
		return len(rows[k])
	}
	return p.N
}

// forRows calls fn with the position in the part and the row of p that
// Append takes next, for each of them in order.
func forRows(p *Vector, rows [][]int32, k int, fn func(i, r int)) {
	if rows != nil && rows[k] != nil {
		for i, r := range rows[k] {
			fn(i, int(r))
		}
		return
	}
	for i := 0; i < p.N; i++ {
		fn(i, i)
	}
}
