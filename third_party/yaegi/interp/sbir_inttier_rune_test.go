package interp_test

import (
	"fmt"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// intTierRunes is a program for sbir patch S19, runes in the int tier:
// int32 arithmetic that wraps (+, *, MinInt32 / -1 and % -1, unary -,
// shifts by 31, 32 and 40, and op-assignments), panics by zero and by a
// negative shift count, a global int32 the tier increments past
// MaxInt32, and callbacks of strings.FieldsFunc, Map, IndexFunc and
// TrimFunc calling unicode's functions and writing captured counters,
// over ASCII, Latin-1, invalid and non-Latin runes. The wanted output is
// go run's.
const intTierRunes = `package main

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

var total32 int32 = math.MaxInt32 - 5 // a global int32 the tier writes

func wrapAdd(a, b int32) int32 { return a + b }
func wrapMul(a, b int32) int32 { return a * b }
func quo(a, b int32) int32     { return a / b }
func rem(a, b int32) int32     { return a % b }
func neg(a int32) int32        { return -a }
func shl(a int32, s int) int32 { return a << s }
func shr(a int32, s int) int32 { return a >> s }
func bump(n int) int32 {
	for i := 0; i < n; i++ {
		total32++
	}
	return total32
}
func rot13(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return 'a' + (r-'a'+13)%26
	case r >= 'A' && r <= 'Z':
		return 'A' + (r-'A'+13)%26
	}
	return r
}
func rot13if(r rune) rune {
	if r >= 'a' && r <= 'z' {
		return 'a' + (r-'a'+13)%26
	}
	if r >= 'A' && r <= 'Z' {
		return 'A' + (r-'A'+13)%26
	}
	return r
}
func acc(r rune) int32 {
	x := r
	x *= 1 << 20
	x += r << 12
	x -= 7
	x++
	x--
	x <<= 3
	x ^= 0x55
	return x
}

func try(name string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println(name, "panic:", r)
		}
	}()
	f()
}

func main() {
	fmt.Println(wrapAdd(math.MaxInt32, 1), wrapAdd(math.MinInt32, -1), wrapMul(1<<20, 1<<12), wrapMul(-65536, 65536))
	fmt.Println(quo(math.MinInt32, -1), rem(math.MinInt32, -1), quo(-7, 2), rem(-7, 2), neg(math.MinInt32))
	fmt.Println(shl(1, 31), shl(3, 31), shl(1, 32), shl(-1, 40), shr(-8, 1), shr(-8, 40), shr(math.MaxInt32, 31))
	try("divide", func() { fmt.Println(quo(1, 0)) })
	try("shift", func() { fmt.Println(shl(1, -1)) })
	fmt.Println(bump(3), bump(4), total32)
	for _, r := range []rune{'a', 'Z', 0x10FFFF, -1, 'é', '٣'} {
		fmt.Print(acc(r), " ")
	}
	fmt.Println()

	// callbacks from compiled code
	text := "Hello, Wörld! x-ray 42 ÉTÉ naïve—café ٣"
	separators := 0
	notLetter := func(r rune) bool {
		if unicode.IsLetter(r) || r == '-' {
			return false
		}
		separators++
		return true
	}
	fmt.Println(strings.FieldsFunc(text, notLetter), separators)
	fmt.Println(strings.Map(rot13, text), strings.Map(rot13if, text))
	upper := 0
	fmt.Println(strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			upper++
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, text), upper)
	fmt.Println(strings.IndexFunc(text, unicode.IsDigit), strings.TrimFunc("  ¡hi!  ", func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }))
	fmt.Println(strings.IndexFunc(text, func(r rune) bool { return unicode.IsNumber(r) && r > '9' }))
	folded := 0
	strings.Map(func(r rune) rune {
		if unicode.SimpleFold(r) != r {
			folded++
		}
		return r
	}, text)
	fmt.Println(folded, unicode.IsTitle('ǅ'), unicode.ToTitle('ǆ'))
	var drop = func(r rune) rune {
		if r < 0x80 {
			return r
		}
		return -1
	}
	fmt.Println(strings.Map(drop, text))
}
`

const intTierRunesWant = `-2147483648 2147483647 0 0
-2147483648 0 -3 -1 -2147483648
-2147483648 -2147483648 0 0 -4 -1 0
divide panic: runtime error: integer divide by zero
shift panic: runtime error: negative shift amount
2147483645 -2147483647 -2147483647
816873373 757923741 2139062173 -8421475 1962180509 884047773 
[Hello Wörld x-ray ÉTÉ naïve café] 12
Uryyb, Jöeyq! k-enl 42 ÉGÉ anïir—pnsé ٣ Uryyb, Jöeyq! k-enl 42 ÉGÉ anïir—pnsé ٣
hELLO, wÖRLD! X-RAY 42 été NAÏVE—CAFÉ ٣ 5
21 hi
45
26 true 453
Hello, Wrld! x-ray 42 T navecaf 
`

func TestSbirIntTierRunes(t *testing.T) {
	for _, tier := range []bool{true, false} {
		t.Run(fmt.Sprintf("tier=%v", tier), func(t *testing.T) {
			i, out, errs := intTierInterp(t, tier)
			if _, err := i.Eval(intTierRunes); err != nil {
				t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
			}
			if got := out.String(); got != intTierRunesWant {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, intTierRunesWant)
			}
			checkIntTierUsed(t, i, tier)
			// wrapAdd, wrapMul, quo, rem, neg, shl, shr, bump, rot13if,
			// acc and the six literals (rot13 has a switch).
			if n := interp.IntTierFunctions(i); tier && n < 16 {
				t.Errorf("%d functions ran in the int tier, want 16 or more", n)
			}
		})
	}
}
