package interp

import (
	"fmt"
	"go/constant"
	"go/token"
	"reflect"
	"testing"
	"unicode"
)

// osLimit is a compiled package's variable the decisions read.
var osLimit = 5

// intTierSymbols are the compiled functions and constants the decisions
// below use.
var intTierSymbols = Exports{
	"fmt/fmt":   {"Sprint": reflect.ValueOf(fmt.Sprint), "Println": reflect.ValueOf(fmt.Println)},
	"math/math": {"MaxInt32": reflect.ValueOf(constant.MakeFromLiteral("2147483647", token.INT, 0))},
	"os/os":     {"Limit": reflect.ValueOf(&osLimit).Elem()},
	"unicode/unicode": {"IsLetter": reflect.ValueOf(unicode.IsLetter), "ToLower": reflect.ValueOf(unicode.ToLower),
		"In": reflect.ValueOf(unicode.In), "Latin": reflect.ValueOf(unicode.Latin)},
}

// TestSbirIntTierDecision checks which functions the int tier compiles
// (sbir patch S9): one row per thing it refuses, each otherwise a
// function it would take.
func TestSbirIntTierDecision(t *testing.T) {
	const decls = `
import ("fmt"; "math"; "os"; "unicode")
type celsius int
type pt struct{ x int }
var global = 3
var _ = os.Limit
const k = 7
func other(x int) int { return x + 1 }
func writer(x int) int { global = x; return x }
type rec struct{ n int; in struct{ ok bool } }
var gxs = []int{1, 2, 3}
var grecs = []rec{{n: 1}}
var gps = []*rec{{n: 1}}
var garr = [3]int{1, 2, 3}
var g32 = []int32{1, 2}
var _ = unicode.IsLetter
func text(x int) string { return fmt.Sprint(x) }
func (p *pt) get() int { return p.x }
`
	tests := []struct {
		name, src string
		want      bool
	}{
		{"ints", `func f(a, b int) int { for a > 0 { a -= b; if a == 3 { break } }; return a * k }`, true},
		{"int64", `func f(a, b int64) int64 { return a<<2 | b }`, true},
		{"defined int", `func f(c celsius) celsius { return c*9/5 + 32 }`, true},
		{"bools", `func f(a bool, n int) bool { return !a || n > 2 && a == (n < 9) }`, true},
		{"calls", `func f(n int) int { if n == 0 { return other(n) }; return f(n-1) + other(n) }`, true},
		{"package constant", `func f(n int) int { return n % math.MaxInt32 }`, true},
		{"blank", `func f(n int) int { _ = n / 2; _, x := n > 1, n; return x }`, true},
		{"parallel assignment", `func f(n int) int { a, b := 0, 1; for ; n > 0; n-- { a, b = b, a+b }; return a }`, true},
		{"global variable read", `func f(n int) int { return n + global }`, true},
		{"global variable written", `func f(n int) int { global += n; global++; return global / 2 }`, true},
		{"global written, a division", `func f(n int) int { global++; return global / n }`, false},
		{"global written, a shift", `func f(n int) int { global <<= n; return 0 }`, false},
		{"global written, a call", `func f(n int) int { global++; return other(n) }`, false},
		{"calls a writer", `func f(n int) int { return writer(n) }`, false},
		{"global slice read", `func f(i int) int { return gxs[i] + grecs[i].n }`, true},
		{"global slice field of a field", `func f(i int) bool { return grecs[i].in.ok }`, true},
		{"local slice", `func f(i int) int { x := gxs; return x[i] }`, false},
		{"slice of pointers", `func f(i int) int { return gps[i].n }`, false},
		{"array", `func f(i int) int { return garr[i] }`, false},
		{"slice element written", `func f(i int) int { gxs[i] = 1; return 0 }`, false},
		{"package variable", `func f(n int) int { return n + os.Limit }`, false},
		{"conversion", `func f(n int) int { return int(int32(n)) }`, false},
		{"int32", `func f(n int32) int32 { return n + 1 }`, true},
		{"rune and unicode", `func f(r rune) bool { return unicode.IsLetter(r) || unicode.ToLower(r) == 'x' }`, true},
		{"unicode not listed", `func f(r rune) bool { return unicode.In(r, unicode.Latin) }`, false},
		{"int32 slice", `func f(i int) int32 { return g32[i] }`, false},
		{"int16", `func f(n int16) int16 { return n + 1 }`, false},
		{"rune conversion", `func f(n int) rune { return rune(n) }`, false},
		{"uint", `func f(n uint) uint { return n + 1 }`, false},
		{"float", `func f(n int) float64 { return float64(n) }`, false},
		{"string", `func f(n int) int { return len(text(n)) }`, false},
		{"two results", `func f(n int) (int, int) { return n, n }`, false},
		{"no result", `func f(n int) { n++ }`, true},
		{"call statement", `func f(n int) int { g(n); return n }; func g(n int) { n++ }`, false},
		{"variadic", `func f(n ...int) int { return 0 }`, false},
		{"method", `func f(p *pt) int { return p.get() }`, false},
		{"callee refused", `func f(n int) int { return len(text(n)) + other(n) }`, false},
		{"closure", `func f(n int) int { g := func() int { return n }; return g() }`, false},
		{"switch", `func f(n int) int { switch n { case 1: return 2 }; return 0 }`, false},
		{"labelled break", `func f(n int) int { L: for { for { break L } }; return n }`, false},
		{"range", `func f(n int) int { s := 0; for i := range n { s += i }; return s }`, false},
		{"var declaration", `func f(n int) int { var x int; return x + n }`, false},
		{"output", `func f(n int) int { fmt.Println(n); return n }`, false},
		{"goroutine", `func f(n int) int { go other(n); return n }`, false},
		{"defer", `func f(n int) int { defer other(n); return n }`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := New(Options{})
			if err := i.Use(intTierSymbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(decls + tt.src); err != nil {
				t.Fatal(err)
			}
			fn := i.scopes[mainID].sym["f"].node
			if got := compileIntFunc(fn) != nil; got != tt.want {
				t.Errorf("compileIntFunc(%s) compiled = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

// TestSbirIntTierMethodDecision checks which methods the int tier
// compiles (sbir patch S17): those whose receiver is used only to select
// int and bool fields of its struct, not through a pointer.
func TestSbirIntTierMethodDecision(t *testing.T) {
	const decls = `
type in struct{ a, b int; ok bool }
type outer struct{ x int; small int32; name string; in; p *in; arr [2]int }
type celsius int
func other(x int) int { return x + 1 }
`
	tests := []struct {
		name, src string
		want      bool
	}{
		{"pointer receiver written", `func (o *outer) m(v int) { o.x += v; o.ok = v > 2; o.in.a++ }`, true},
		{"value receiver written", `func (o outer) m(v int) int { o.x += v; return o.x + o.b }`, true},
		{"promoted field", `func (o *outer) m() bool { return o.ok && o.a > o.in.b }`, true},
		{"unnamed receiver", `func (*outer) m(v int) int { return v * 2 }`, true},
		{"reads and divides", `func (o *outer) m(v int) int { return o.x / v }`, true},
		{"calls a function", `func (o outer) m() int { return other(o.x) }`, true},
		{"writes and divides", `func (o *outer) m(v int) { o.x = o.x / v }`, false},
		{"writes and calls", `func (o *outer) m() { o.x = other(o.x) }`, false},
		{"through a pointer field", `func (o *outer) m() int { return o.p.a }`, false},
		{"int32 field", `func (o *outer) m() int32 { return o.small }`, false},
		{"array field", `func (o *outer) m() int { return o.arr[0] }`, false},
		{"receiver passed on", `func (o *outer) m() int { return o.n() }; func (o *outer) n() int { return 1 }`, false},
		{"receiver assigned", `func (o *outer) m() int { o = nil; return 0 }`, false},
		{"defined int receiver", `func (c celsius) m() celsius { return c + 1 }`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := New(Options{})
			if _, err := i.Eval(decls + tt.src); err != nil {
				t.Fatal(err)
			}
			var m *node
			for _, typ := range []string{"outer", "celsius"} {
				if n, _ := i.scopes[mainID].sym[typ].typ.lookupMethod("m"); n != nil {
					m = n
				}
			}
			if m == nil {
				t.Fatal("no method m")
			}
			if got := compileIntFunc(m) != nil; got != tt.want {
				t.Errorf("compileIntFunc(%s) compiled = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}
