package columnar

import (
	"math"
	"math/bits"
)

// maxDayTable bounds the days DatePart tabulates a part for (8 MB).
const maxDayTable = 1 << 20

// DatePart computes part (a pure function of days since 1970-01-01, such
// as the month) of a date column at the rows of s (by position), as an
// int column: null where the date is null. Award dates repeat a lot and
// span a few decades, so part is computed once per day of the span the
// rows cover (when the span is under maxDayTable days and at most 4 per
// row) and looked up for each row; otherwise it is called for each row.
// The result's int span is known (OrderedGroups then numbers its values
// without a pass of its own). Large selections are split across
// processors: part must be safe for concurrent use.
func DatePart(name string, c *Vector, s Sel, part func(day int32) int64) *Vector {
	n := s.Len()
	out := &Vector{Name: name, Kind: KindInt, N: n, Ints: make([]int64, n)}
	var rows []int32 // nil: all rows, position k is row k
	if !s.All {
		rows = s.Rows()
	}
	d := dayParts{c: c, rows: rows, out: out.Ints}
	if c.Valid != nil {
		d.valid = make([]byte, (n+7)/8)
	}

	// The span of the days present.
	spans := make([]daySpan, MaxParts())
	used := Parts(n, func(p, lo, hi int) { spans[p] = d.span(lo, hi) })
	all := daySpan{lo: math.MaxInt32, hi: math.MinInt32}
	for _, sp := range spans[:used] {
		all = all.merge(sp)
	}
	if all.present < n {
		out.Valid = d.valid
	}
	if all.present == 0 {
		out.Valid = make([]byte, (n+7)/8) // every value null
		return out
	}

	width := int64(all.hi) - int64(all.lo) + 1
	d.part, d.first = part, all.lo
	if width <= maxDayTable && width <= 4*int64(n) {
		d.table = make([]int64, width)
		Parts(int(width), func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				d.table[i] = part(all.lo + int32(i))
			}
		})
	}
	// The parts' values' span, for the result's cache.
	ranges := make([]valueSpan, MaxParts())
	Parts(n, func(p, lo, hi int) { ranges[p] = d.fill(lo, hi) })
	vs := valueSpan{lo: math.MaxInt64, hi: math.MinInt64}
	for _, r := range ranges[:used] {
		vs.lo, vs.hi = min(vs.lo, r.lo), max(vs.hi, r.hi)
	}
	out.span.once.Do(func() { out.span.lo, out.span.hi, out.span.ok = vs.lo, vs.hi, true })
	return out
}

// dayParts holds what DatePart's parts share.
type dayParts struct {
	c     *Vector
	rows  []int32
	out   []int64
	valid []byte // the result's validity; nil when c has no nulls

	part  func(int32) int64
	table []int64 // part of each day from first on, or nil
	first int32
}

// daySpan is the range of the non-null days of a part of the rows and
// how many there are.
type daySpan struct {
	lo, hi  int32
	present int
}

func (a daySpan) merge(b daySpan) daySpan {
	return daySpan{lo: min(a.lo, b.lo), hi: max(a.hi, b.hi), present: a.present + b.present}
}

// valueSpan is the range of a part's values.
type valueSpan struct{ lo, hi int64 }

// validity returns the validity of positions k0..k0+m-1 as the bits of a
// byte (bit j: position k0+j), the bits from m up set; it writes them
// into the result's validity when c has nulls. k0 is a multiple of 8.
func (d dayParts) validity(k0, m int) byte {
	if d.c.Valid == nil {
		return 0xff
	}
	present := byte(0xff) << m
	if d.rows == nil {
		present |= validByte(d.c, k0) & (1<<m - 1)
	} else {
		for j := range m {
			present |= byte(B2I(!d.c.IsNull(int(d.rows[k0+j])))) << j
		}
	}
	d.valid[k0>>3] = present
	return present
}

// span is the span of the non-null days at positions lo..hi (lo a
// multiple of 8); it writes their validity.
func (d dayParts) span(lo, hi int) daySpan {
	days := d.c.Days
	sp := daySpan{lo: math.MaxInt32, hi: math.MinInt32}
	for k0 := lo; k0 < hi; k0 += 8 {
		m := min(8, hi-k0)
		present := d.validity(k0, m)
		sp.present += bits.OnesCount8(present) - (8 - m)
		for j := range m {
			r := k0 + j
			if d.rows != nil {
				r = int(d.rows[r])
			}
			if present&(1<<j) != 0 {
				sp.lo, sp.hi = min(sp.lo, days[r]), max(sp.hi, days[r])
			}
		}
	}
	return sp
}

// fill writes part of each non-null day at positions lo..hi (lo a
// multiple of 8; span has written the validity) and returns the span of
// the values written.
func (d dayParts) fill(lo, hi int) valueSpan {
	days := d.c.Days
	vs := valueSpan{lo: math.MaxInt64, hi: math.MinInt64}
	for k0 := lo; k0 < hi; k0 += 8 {
		m := min(8, hi-k0)
		present := byte(0xff)
		if d.valid != nil {
			present = d.valid[k0>>3]
		}
		for j := range m {
			if present&(1<<j) == 0 {
				continue
			}
			k := k0 + j
			r := k
			if d.rows != nil {
				r = int(d.rows[k])
			}
			var v int64
			if d.table != nil {
				v = d.table[days[r]-d.first]
			} else {
				v = d.part(days[r])
			}
			d.out[k] = v
			vs.lo, vs.hi = min(vs.lo, v), max(vs.hi, v)
		}
	}
	return vs
}

// validByte returns the validity bits of rows k..k+7 of c (which has a
// validity bitmap), bit j for row k+j; bits past the last row are
// unspecified.
func validByte(c *Vector, k int) byte {
	j := c.ValidOff + k
	b, sh := j>>3, uint(j)&7
	v := uint16(c.Valid[b])
	if sh != 0 && b+1 < len(c.Valid) {
		v |= uint16(c.Valid[b+1]) << 8
	}
	return byte(v >> sh)
}
