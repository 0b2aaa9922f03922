package interp

import "reflect"

// sbir patch 113: a shift by a negative count of a signed type panics, as
// in gc ("runtime error: negative shift amount").
//
// The interpreter read every shift count with genValueUint, which
// converts a signed value to uint64: x << -1 shifted by 2^64-1 and gave 0
// (or -1 for x >> -1 with x negative), a number where gc panics.

// genShiftCount returns the value of n, a shift count, as genValueUint
// does, panicking with gc's runtime error when n is signed and negative.
func genShiftCount(n *node) func(*frame) (reflect.Value, uint64) {
	switch n.typ.TypeOf().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		value := genValue(n)
		return func(f *frame) (reflect.Value, uint64) {
			v := value(f)
			c := v.Int()
			if c < 0 {
				return v, negativeShift(c)
			}
			return v, uint64(c)
		}
	}
	return genValueUint(n)
}

// negativeShift shifts by c, which is negative, for the runtime error
// gc's code panics with.
func negativeShift(c int64) uint64 {
	return uint64(1) << c
}
