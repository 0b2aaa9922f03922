package columnar

import "math"

// Renamed returns a column sharing c's values under another name (its
// caches are not shared: they are rebuilt on demand).
func Renamed(c *Vector, name string) *Vector {
	return &Vector{Name: name, Kind: c.Kind, N: c.N, Valid: c.Valid, ValidOff: c.ValidOff,
		Offs: c.Offs, Data: c.Data, Codes: c.Codes, Dict: c.Dict,
		Ints: c.Ints, Floats: c.Floats, Days: c.Days, AggName: c.AggName}
}

// Append concatenates columns into one of the given kind. Parts must be
// of that kind, except that ints may join a float column and categories
// a text column (they are converted).
func Append(name string, kind Kind, parts []*Vector) *Vector {
	n := 0
	for _, p := range parts {
		n += p.N
	}
	out := &Vector{Name: name, Kind: kind, N: n}
	switch kind {
	case KindInt:
		out.Ints = make([]int64, 0, n)
	case KindFloat:
		out.Floats = make([]float64, 0, n)
	case KindDate:
		out.Days = make([]int32, 0, n)
	case KindText:
		out.Offs = make([]int32, 1, n+1)
	case KindCategory:
		out.Codes = make([]int16, 0, n)
	}
	// Categories merge their dictionaries.
	dictIndex := map[string]int16{}
	var nulls []int
	base := 0
	for _, p := range parts {
		for i := 0; i < p.N; i++ {
			null := p.IsNull(i)
			if null {
				nulls = append(nulls, base+i)
			}
			switch kind {
			case KindInt:
				var v int64
				if !null {
					v = p.Ints[i]
				}
				out.Ints = append(out.Ints, v)
			case KindFloat:
				v := math.NaN()
				if !null {
					v = p.Float(i)
				}
				out.Floats = append(out.Floats, v)
			case KindDate:
				var v int32
				if !null {
					v = p.Days[i]
				}
				out.Days = append(out.Days, v)
			case KindText:
				if !null {
					out.Data = append(out.Data, p.Str(i)...)
				}
				out.Offs = append(out.Offs, int32(len(out.Data)))
			case KindCategory:
				var code int16
				if !null && p.Dict != nil {
					s := p.Dict[p.Codes[i]]
					k, ok := dictIndex[s]
					if !ok {
						k = int16(len(out.Dict))
						dictIndex[s] = k
						out.Dict = append(out.Dict, s)
					}
					code = k
				}
				out.Codes = append(out.Codes, code)
			}
		}
		base += p.N
	}
	for _, i := range nulls {
		out.SetNull(i)
	}
	return out
}
