package interp

import "reflect"

// float32FromInt returns the conversion of an integer value of type from
// to a float32 type, rounded once as gc converts it, or nil when from is
// not an integer type or to not a float32 type (sbir patch 151).
// reflect.Value.Convert converts an integer to float64 and then to
// float32, rounding twice: float32(x) with x := 1<<60 + 1<<36 + 1 was
// 1.1529215e+18 (2^60 + 2^36 as a float64, which float32 rounds to even)
// where gc rounds x itself, up, to 1.1529216e+18.
func float32FromInt(from, to reflect.Type) func(reflect.Value) float64 {
	if from == nil || to.Kind() != reflect.Float32 {
		return nil
	}
	switch from.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(v reflect.Value) float64 { return float64(float32(v.Int())) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(v reflect.Value) float64 { return float64(float32(v.Uint())) }
	}
	return nil
}

// roundedConstant is constant v converted to type t, rounded once, when
// float32FromInt or exactConstant (patch 150) converts it; ok is false
// when the caller's conversion applies. A conversion of a typed integer
// constant, float32(n) with const n int64 = 1<<60 + 1<<36 + 1, went
// through reflect.Value.Convert and was rounded twice (sbir patch 151).
func roundedConstant(v reflect.Value, t reflect.Type) (reflect.Value, bool) {
	if c := vConstantValue(v); c != nil {
		return exactConstant(c, t)
	}
	round := float32FromInt(v.Type(), t)
	if round == nil {
		return reflect.Value{}, false
	}
	x := reflect.New(t).Elem()
	x.SetFloat(round(v))
	return x, true
}
