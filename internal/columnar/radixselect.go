package columnar

import (
	"math"
	"math/bits"
	"slices"
)

// QuantileBuf is Quantile (s reordered, the same value) by radix
// selection on order-preserving 64-bit images of the values: a pass
// counts the values' top byte, the byte of the wanted rank's bucket is
// then known, and the values in that bucket (usually few) go on to the
// next byte. It reads each value a few times without the unpredictable
// branches of a partition (see BenchmarkQuantile for how it compares
// with Quantile's quickselect). buf is scratch space (len(s) values),
// grown as needed and returned for the next call.
//
// When the result involves a zero, Quantile decides: -0 and +0 have one
// image, and which of them a selection returns is Quantile's choice.
func QuantileBuf(s []float64, q float64, buf []uint64) (float64, []uint64) {
	n := len(s)
	if n < 64 {
		return Quantile(s, q), buf
	}
	pos := q * float64(n-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	if cap(buf) < n {
		buf = make([]uint64, n)
	}
	keys := buf[:n]
	var diff uint64
	first := FloatKey(s[0])
	for i, v := range s {
		k := FloatKey(v)
		keys[i] = k
		diff |= k ^ first
	}
	ka := kthKey(keys, lo, diff)
	if ka == FloatKey(0) {
		return Quantile(s, q), buf
	}
	a := keyFloat(ka)
	if lo == hi {
		return a, buf
	}
	// The value at rank lo+1 is a again if more than lo+1 values are ≤ a,
	// else the smallest value above a. Both in one pass over the images,
	// without branches: about half the values are on each side.
	le := 0
	kb := uint64(math.MaxUint64)
	for _, v := range s {
		k := FloatKey(v)
		below := k <= ka
		le += B2I(below)
		kb = min(kb, k|-uint64(B2I(below))) // images ≤ ka count as the largest image
	}
	if le > lo+1 {
		kb = ka
	}
	if kb == FloatKey(0) {
		return Quantile(s, q), buf
	}
	b := keyFloat(kb)
	return a + (b-a)*(pos-float64(lo)), buf
}

// kthKey returns the k-th smallest of keys (from 0), which it reorders.
// Bytes where no key differs from another (diff, the OR of every key
// XOR the first, has no bit there) are skipped.
func kthKey(keys []uint64, k int, diff uint64) uint64 {
	for shift := 56; shift >= 0; shift -= 8 {
		if len(keys) <= 32 {
			slices.Sort(keys)
			return keys[k]
		}
		if (diff>>uint(shift))&0xff == 0 {
			continue
		}
		// Two histograms, alternating, so that runs of one byte value do
		// not wait on each other's increments.
		var count [2][256]int32
		i := 0
		for ; i+2 <= len(keys); i += 2 {
			count[0][(keys[i]>>uint(shift))&0xff]++
			count[1][(keys[i+1]>>uint(shift))&0xff]++
		}
		if i < len(keys) {
			count[0][(keys[i]>>uint(shift))&0xff]++
		}
		b, below := 0, 0
		for {
			c := int(count[0][b] + count[1][b])
			if below+c > k {
				break
			}
			below += c
			b++
		}
		// Keep the bucket's keys (in place: writes trail reads).
		m := 0
		for _, x := range keys {
			keys[m] = x // branch-free: half the keys may be kept
			m += B2I((x>>uint(shift))&0xff == uint64(b))
		}
		keys, k = keys[:m], k-below
	}
	return keys[k] // every byte is equal: so are the keys
}

// keyFloat inverts FloatKey.
func keyFloat(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// minRadixQuantiles is the fewest values QuantilesOf selects by radix;
// fewer go to Quantiles.
const minRadixQuantiles = 4096

// QuantilesOf is Quantiles of the values of vals other than NaN (ok is
// false when there are none), leaving vals as they are. Rather than a
// selection per quantile over what the previous one left (each a
// partition of many values, with a pass to find the next value up for
// an interpolated quantile), one pass counts the values' order-preserving
// images by their top 16 differing bits, the counts give the bucket of
// every rank wanted (each quantile's rank and the next), a second pass
// gathers the values of those buckets alone, and each rank is selected
// within its bucket (see kthKey). When a zero is selected and vals hold
// a -0 (-0 and +0 have one image), Quantiles decides.
func QuantilesOf(vals []float64, qs []float64) (out []float64, ok bool) {
	keys := make([]uint64, 0, len(vals))
	negZero := false
	for _, v := range vals {
		if v == v {
			keys = append(keys, FloatKey(v))
		}
		if v == 0 && math.Signbit(v) {
			negZero = true
		}
	}
	n := len(keys)
	if n == 0 {
		return nil, false
	}
	quickselect := func() []float64 {
		s := make([]float64, 0, n)
		for _, v := range vals {
			if v == v {
				s = append(s, v)
			}
		}
		return Quantiles(s, qs)
	}
	if n < minRadixQuantiles {
		return quickselect(), true
	}
	// The ranks wanted, ascending: each quantile's and, when it falls
	// between two, the next.
	var ranks []int
	for _, q := range qs {
		pos := q * float64(n-1)
		lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
		ranks = append(ranks, lo)
		if hi != lo {
			ranks = append(ranks, lo+1)
		}
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	at := kthKeys(keys, ranks)
	for _, k := range at {
		if k == FloatKey(0) && negZero {
			return quickselect(), true // which zero is Quantiles' choice
		}
	}
	value := func(rank int) float64 {
		i, _ := slices.BinarySearch(ranks, rank)
		return keyFloat(at[i])
	}
	out = make([]float64, len(qs))
	for i, q := range qs {
		pos := q * float64(n-1)
		lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
		a := value(lo)
		if lo == hi {
			out[i] = a
			continue
		}
		b := value(lo + 1)
		out[i] = a + (b-a)*(pos-float64(lo))
	}
	return out, true
}

// kthKeys returns the key at each rank of ranks (ascending, distinct,
// each below len(keys)) in keys sorted, which it does not sort: see
// QuantilesOf.
func kthKeys(keys []uint64, ranks []int) []uint64 {
	out := make([]uint64, len(ranks))
	first := keys[0]
	var diff uint64
	for _, k := range keys {
		diff |= k ^ first
	}
	if diff == 0 {
		for i := range out {
			out[i] = first
		}
		return out
	}
	shift := max(bits.Len64(diff)-16, 0)
	nb := 1 << (bits.Len64(diff) - shift)
	mask := uint64(nb - 1)
	hist := make([]int32, nb)
	for _, k := range keys {
		hist[(k>>shift)&mask]++
	}
	// The bucket of each rank, its first rank and size.
	type bucket struct{ b, start, size int }
	var wanted []bucket
	bucketOf := make([]int, len(ranks)) // index into wanted
	start := 0
	j := 0
	for b, c := range hist {
		for j < len(ranks) && ranks[j] < start+int(c) {
			if len(wanted) == 0 || wanted[len(wanted)-1].b != b {
				wanted = append(wanted, bucket{b, start, int(c)})
			}
			bucketOf[j] = len(wanted) - 1
			j++
		}
		start += int(c)
	}
	// Gather the wanted buckets' keys, each bucket in a region of its
	// own; hist becomes the write cursor of a wanted bucket, -1 for the
	// others.
	for b := range hist {
		hist[b] = -1
	}
	off := 0
	for _, w := range wanted {
		hist[w.b] = int32(off)
		off += w.size
	}
	gathered := make([]uint64, off)
	for _, k := range keys {
		b := (k >> shift) & mask
		if c := hist[b]; c >= 0 {
			gathered[c] = k
			hist[b] = c + 1
		}
	}
	off = 0
	regions := make([][]uint64, len(wanted))
	for i, w := range wanted {
		regions[i] = gathered[off : off+w.size]
		off += w.size
	}
	for i, r := range ranks {
		w := wanted[bucketOf[i]]
		region := regions[bucketOf[i]]
		if i+1 < len(ranks) && bucketOf[i+1] == bucketOf[i] {
			region = slices.Clone(region) // kthKey reorders and drops keys
		}
		var d uint64
		for _, k := range region {
			d |= k ^ region[0]
		}
		out[i] = kthKey(region, r-w.start, d)
	}
	return out
}
