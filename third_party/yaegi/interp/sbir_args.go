package interp

import "reflect"

// sbir patch S11e: an argument of an int, float64, string or bool
// parameter is stored with its kind's setter before anything else is
// asked of it. call asked every argument whether it was a zero value (to
// leave a zero struct unset, a workaround for recursive struct types)
// and what kind it was before storing it: for an int, a third of the
// cost of passing it. The parameter's value is a zero value when the
// call starts (a new frame, or one used again, zeroed), so storing a
// zero there changes nothing.

// sameBasicKind reports whether dst and src are both ints, int64s,
// float64s, strings or bools: the kinds setSameKind sets with their
// setter.
func sameBasicKind(dst, src reflect.Value) bool {
	switch k := src.Kind(); k {
	case reflect.Int, reflect.Int64, reflect.Float64, reflect.String, reflect.Bool:
		return dst.Kind() == k
	}
	return false
}
