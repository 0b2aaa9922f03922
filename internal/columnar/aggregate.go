package columnar

import (
	"math"
	"math/bits"
	"slices"
)

// SumByCode adds vals[i] (NaN skipped) into out[slot[codes[i]]]. Large
// inputs are split across processors; within a part, two interleaved
// compensated accumulators keep consecutive rows of one group (common:
// half the awards are DoD) from waiting on each other's additions. The
// sums are compensated (Neumaier), so that a sum of amounts in cents
// prints as cents (1512945025.09, not 1512945025.0899994).
func SumByCode(out []float64, codes []int16, slot []int32, vals []float64) {
	partial := make([][2]Sums, MaxParts())
	used := Parts(len(codes), func(part, lo, hi int) {
		acc := [2]Sums{NewSums(len(slot)), NewSums(len(slot))}
		a0, a1 := acc[0], acc[1]
		cs, vs := codes[lo:hi], vals[lo:hi]
		n := len(cs)
		i := 0
		for ; i+2 <= n; i += 2 {
			if v := vs[i]; v == v {
				a0.Add(int(cs[i]), v)
			}
			if v := vs[i+1]; v == v {
				a1.Add(int(cs[i+1]), v)
			}
		}
		for ; i < n; i++ {
			if v := vs[i]; v == v {
				a0.Add(int(cs[i]), v)
			}
		}
		partial[part] = acc
	})
	total := NewSums(len(out))
	for p := 0; p < used; p++ {
		for _, acc := range partial[p] {
			for code := range slot {
				total.Add(int(slot[code]), acc.S[code])
				total.Add(int(slot[code]), acc.C[code])
			}
		}
	}
	for id := range out {
		out[id] += total.Value(id)
	}
}

// Sums are compensated running sums (Neumaier's algorithm), one per
// group: S holds each sum, C the rounding error S has lost, so that S+C
// is the sum of the values nearly as if it were computed exactly.
type Sums struct{ S, C []float64 }

// NewSums returns n zero sums.
func NewSums(n int) Sums { return Sums{S: make([]float64, n), C: make([]float64, n)} }

// Add adds v to sum i.
func (s Sums) Add(i int, v float64) {
	t := s.S[i] + v
	if math.Abs(s.S[i]) >= math.Abs(v) {
		s.C[i] += (s.S[i] - t) + v
	} else {
		s.C[i] += (v - t) + s.S[i]
	}
	s.S[i] = t
}

// Value returns sum i.
func (s Sums) Value(i int) float64 { return s.S[i] + s.C[i] }

// Quantile is numpy's default (linear) quantile of s, which it reorders:
// it selects the one or two values the quantile needs instead of sorting
// (linear time expected; a sort bounds the worst case), and gives exactly
// what QuantileSorted gives on the sorted values.
func Quantile(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	selectKth(s, lo)
	a := s[lo]
	if lo == hi {
		return a
	}
	b := slices.Min(s[lo+1:]) // everything after lo is ≥ s[lo]
	return a + (b-a)*(pos-float64(lo))
}

// selectKth reorders s so that s[k] is the value a sort would put there,
// with nothing smaller after it and nothing larger before it.
func selectKth(s []float64, k int) {
	lo, hi := 0, len(s)-1
	for budget := 2 * bits.Len(uint(len(s))); hi > lo; budget-- {
		if budget == 0 {
			slices.Sort(s[lo : hi+1]) // adversarial pivots: bound the work
			return
		}
		mid := lo + (hi-lo)/2
		if s[mid] < s[lo] {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[mid] {
			s[hi], s[mid] = s[mid], s[hi]
		}
		pivot := s[mid]
		i, j := lo, hi
		for i <= j {
			for s[i] < pivot {
				i++
			}
			for s[j] > pivot {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return // j < k < i: s[k] equals the pivot and is in place
		}
	}
}

// QuantileSorted is numpy's default (linear) quantile of sorted values.
func QuantileSorted(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	if lo == hi {
		return s[lo]
	}
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

func NewFloatResult(name string, n int, agg string) *Vector {
	return &Vector{Name: name, Kind: KindFloat, N: n, Floats: make([]float64, n), AggName: agg}
}

// SetNull marks row i of a result column as null, creating the bitmap.
func (c *Vector) SetNull(i int) {
	if c.Valid == nil {
		c.Valid = make([]byte, (c.N+7)/8)
		for j := range c.Valid {
			c.Valid[j] = 0xff
		}
	}
	c.Valid[i>>3] &^= 1 << (uint(i) & 7)
}

// Gather copies the values of c at the given table rows into a new
// column; a row of -1 gives a null.
func Gather(c *Vector, rows []int32) *Vector {
	n := len(rows)
	out := &Vector{Name: c.Name, Kind: c.Kind, N: n, Ordered: c.Ordered, Bool: c.Bool}
	null := func(r int32) bool { return r < 0 || c.IsNull(int(r)) }
	switch c.Kind {
	case KindText:
		if d := c.CachedTextDictionary(); d != nil && n >= minPackedGather {
			if out, ok := gatherPacked(c, d, rows); ok {
				return out
			}
		}
		out.Offs = make([]int32, n+1)
		size := 0
		for _, r := range rows {
			if !null(r) {
				size += len(c.TextBytes(int(r)))
			}
		}
		out.Data = make([]byte, 0, size)
		for k, r := range rows {
			if !null(r) {
				out.Data = append(out.Data, c.TextBytes(int(r))...)
			}
			out.Offs[k+1] = int32(len(out.Data))
		}
	case KindCategory:
		out.Dict = c.Dict
		out.Codes = make([]int16, n)
		for k, r := range rows {
			if !null(r) {
				out.Codes[k] = c.Codes[r]
			}
		}
	case KindInt:
		out.Ints = make([]int64, n)
		for k, r := range rows {
			if !null(r) {
				out.Ints[k] = c.Ints[r]
			}
		}
	case KindFloat:
		out.Floats = make([]float64, n)
		for k, r := range rows {
			if !null(r) {
				out.Floats[k] = c.Floats[r]
			}
		}
	case KindDate:
		out.Days = make([]int32, n)
		for k, r := range rows {
			if !null(r) {
				out.Days[k] = c.Days[r]
			}
		}
	}
	for k, r := range rows {
		if null(r) {
			out.SetNull(k)
		}
	}
	return out
}

// Quantiles is Quantile for several q in ascending order, on the same
// values (which it reorders): each selection works only on the values
// past the previous one, so q quantiles cost about two passes, not q.
func Quantiles(s []float64, qs []float64) []float64 {
	out := make([]float64, len(qs))
	base := 0 // s[:base] holds nothing above s[base]
	for i, q := range qs {
		pos := q * float64(len(s)-1)
		lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
		if lo < base {
			lo = base // cannot happen for ascending qs; keeps the slice valid
		}
		selectKth(s[base:], lo-base)
		a := s[lo]
		base = lo
		if lo == hi {
			out[i] = a
			continue
		}
		b := slices.Min(s[lo+1:]) // everything after lo is ≥ s[lo]
		out[i] = a + (b-a)*(pos-float64(lo))
	}
	return out
}
