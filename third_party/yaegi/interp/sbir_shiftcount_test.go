package interp_test

import "testing"

// TestSbirNegativeShiftCount checks that a shift by a negative count of a
// signed type panics as in gc (sbir patch 113), in x << n, x >> n and
// their assignments, for int and int8 counts, and that non-negative and
// unsigned counts shift. Without the patch the count was read as a huge
// unsigned number: 0 or -1 where gc panics. The wanted output is go
// run's.
func TestSbirNegativeShiftCount(t *testing.T) {
	const src = `package main

import "fmt"

func try(f func() int64) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = fmt.Sprint("panic: ", p)
		}
	}()
	return fmt.Sprint(f())
}

func main() {
	n, m8 := -1, int8(-3)
	var u uint = 3
	x := int64(12)
	fmt.Println(try(func() int64 { return x << n }))
	fmt.Println(try(func() int64 { return x >> n }))
	fmt.Println(try(func() int64 { return x >> m8 }))
	fmt.Println(try(func() int64 { y := x; y <<= n; return y }))
	fmt.Println(try(func() int64 { y := x; y >>= m8; return y }))
	fmt.Println(try(func() int64 { return int64(u << n) }))
	fmt.Println(try(func() int64 { return 1 << u }))
	fmt.Println(try(func() int64 { n = 2; return x << n }))
}
`
	const want = "panic: runtime error: negative shift amount\n" +
		"panic: runtime error: negative shift amount\n" +
		"panic: runtime error: negative shift amount\n" +
		"panic: runtime error: negative shift amount\n" +
		"panic: runtime error: negative shift amount\n" +
		"panic: runtime error: negative shift amount\n" +
		"8\n48\n"
	i, out, errs := intTierInterp(t, false)
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
	}
}
