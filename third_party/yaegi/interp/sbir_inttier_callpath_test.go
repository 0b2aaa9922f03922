package interp_test

import (
	"fmt"
	"testing"
)

// intTierCallPath is a program for sbir patch S15's changes to the int
// tier's calls: closures and functions that write and read variables
// outside them of int, int64 and defined 8-byte types (at their address)
// and of int32 and bool (through reflect); locals that must start at zero
// in windows of four registers and of more, called again and again; the
// results set into int64, defined-type, interface, float64, map and slice
// destinations; closures made in a loop, each over its own variable. Its
// functions cannot panic, so they run without a deferred recover. The
// wanted output is go run's.
const intTierCallPath = `package main

import "fmt"

type celsius int
type ticks int64

var hits int        // a global the tier writes
var total ticks     // a global of a defined 8-byte type
var small int32 = 7 // not an int of eight bytes: read through reflect
var on bool

func bump() int              { hits++; return hits }
func addTicks(d ticks) ticks { total += d; return total }
func readSmall(x int) int    { return x + int(small) }
func flip() bool             { on = !on; return on }

// zeroed locals in windows of up to four registers and of more
func four(a int) int {
	var x int
	if a > 0 {
		x = a
	}
	return x
}

func six(a, b int) int {
	var x, y, z int
	if a > 0 {
		x, y, z = a, b, a*b
	}
	return x + y + z
}

func warm(c celsius) celsius { return c*9/5 + 32 }

func main() {
	// closures over ints of several types, written and read
	var c celsius
	heat := func() celsius { c += 10; return c }
	var n64 int64 = 1 << 40
	grow := func(k int64) int64 { n64 += k; return n64 }
	count := 0
	next := func() int { count++; return count }
	for i := 0; i < 5; i++ {
		heat()
		grow(int64(i))
		next()
	}
	fmt.Println(c, n64, count)
	h, g, x := heat(), grow(-1), next()
	fmt.Println(h, g, x, c, n64, count)

	for i := 0; i < 3; i++ {
		bump()
		addTicks(ticks(i * 100))
	}
	fmt.Println(hits, total, readSmall(3), flip(), flip(), flip())

	// windows reused: the locals start at zero at every call
	fmt.Println(four(5), four(-1), four(0), four(9), four(-3))
	fmt.Println(six(2, 3), six(-1, 4), six(0, 0), six(4, 5), six(-2, 2))

	// results set into destinations of several types
	var r int64 = int64(four(11))
	var w celsius = warm(100)
	var a any = four(12)
	var f float64 = float64(six(1, 1))
	m := map[string]int{}
	m["k"] = four(13)
	s := []int{0, 0}
	s[1] = six(1, 2)
	fmt.Printf("%d %v %T %v %v %v %v\n", r, w, a, a, f, m["k"], s)

	// a captured variable shadowed, and a closure returned from a loop
	var fs []func() int
	for i := 0; i < 3; i++ {
		v := i * 7
		fs = append(fs, func() int { v++; return v })
	}
	fmt.Println(fs[0](), fs[1](), fs[2](), fs[0](), fs[2]())
}
`

const intTierCallPathWant = `50 1099511627786 5
60 1099511627785 6 60 1099511627785 6
3 300 10 true false true
5 0 0 9 0
11 0 0 29 0
11 212 int 12 3 13 [0 5]
1 8 15 2 16
`

func TestSbirIntTierCallPath(t *testing.T) {
	for _, tier := range []bool{true, false} {
		t.Run(fmt.Sprintf("tier=%v", tier), func(t *testing.T) {
			i, out, errs := intTierInterp(t, tier)
			if _, err := i.Eval(intTierCallPath); err != nil {
				t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
			}
			if got := out.String(); got != intTierCallPathWant {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, intTierCallPathWant)
			}
			checkIntTierUsed(t, i, tier)
		})
	}
}
