package columnar

import (
	"math"
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
