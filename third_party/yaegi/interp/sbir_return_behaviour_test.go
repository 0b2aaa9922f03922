package interp_test

import "testing"

// TestSbirConstantReturn runs functions returning untyped constants,
// which sbir patch S10c converts once: booleans, strings, ints, floats
// and unsigned ints of predeclared and declared types, runes and bytes,
// constant expressions, constants returned as interfaces, errors,
// pointers and slices (which keep the step of before), two results, a
// named result replaced by the constant, and callbacks of
// strings.FieldsFunc, strings.Map and strings.IndexFunc. The wanted
// output is go run's (Go 1.26).
func TestSbirConstantReturn(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"constants returned", `package main

import (
	"fmt"
	"strings"
	"unicode"
)

type myBool bool
type celsius float64
type code int8
type label string

func yes() bool        { return true }
func no() myBool       { return false }
func boil() celsius    { return 100 }
func half() float32    { return 0.5 }
func small() code      { return -128 }
func big() uint64      { return 1<<64 - 1 }
func name() label      { return "x" + "y" }
func r() rune          { return 'é' }
func b() byte          { return 'A' }
func shifted() int     { return 1 << 10 }
func any1() any        { return 3 }
func err() error       { return nil }
func ptr() *int        { return nil }
func sl() []int        { return nil }
func both() (int, bool) { return 1, true }
func named() (x int)   { x = 4; return 7 }
func pick(k int) string {
	if k > 0 {
		return "pos"
	}
	return ""
}
func main() {
	fmt.Println(yes(), no(), boil(), half(), small(), big(), name(), r(), b(), shifted())
	fmt.Printf("%T %T %T %T %T %T %T\n", no(), boil(), half(), small(), name(), r(), b())
	fmt.Println(any1(), err(), ptr(), sl() == nil)
	fmt.Println(both())
	fmt.Println(named(), pick(1), pick(-1) == "")
	seps := 0
	f := strings.FieldsFunc("a-b c,d  e", func(c rune) bool {
		if unicode.IsLetter(c) || c == '-' {
			return false
		}
		seps++
		return true
	})
	fmt.Println(f, len(f), seps)
	fmt.Println(strings.Map(func(c rune) rune {
		if c == 'a' {
			return 'A'
		}
		return c
	}, "banana"))
	fmt.Println(strings.IndexFunc("abc1", func(c rune) bool { return unicode.IsDigit(c) }))
}
`, `true false 100 0.5 -128 18446744073709551615 xy 233 65 1024
main.myBool main.celsius float32 main.code main.label int32 uint8
3 <nil> <nil> true
1 true
7 pos true
[a-b c d e] 4 4
bAnAnA
3`},
	})
}
