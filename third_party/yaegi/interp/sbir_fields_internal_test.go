package interp

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestSbirFieldSelectorsFused checks that the selectors of int fields
// whose parent is a direct int operator do the operator's work (sbir
// patch S11b), and that the others keep their own step: a float field, a
// field of a global, an int32 field, a promoted field, and a field whose
// operator's other operand is computed after it.
func TestSbirFieldSelectorsFused(t *testing.T) {
	i := New(Options{})
	if _, err := i.Eval(`
type acct struct{ bal, n int; r float64; s int32 }
type in struct{ k int }
type out struct{ in; m int }
var g acct
func two() int { return 2 }
func (a *acct) f(x int) (int, bool) {
	a.bal += x
	a.n++
	a.bal -= 3
	a.n *= x
	a.n--
	y := a.bal + 1
	z := x - a.n
	if x > a.bal {
		return y, false
	}
	return z, a.n == 4
}
func (a acct) v() bool { return a.bal > 1000 }
func (a *acct) kept(o *out) int {
	a.r += 1.5
	g.bal++
	a.s++
	o.k++
	a.bal += two()
	return a.bal
}`); err != nil {
		t.Fatal(err)
	}
	fused := func(name string) (yes, no int) {
		var def *node
		for _, m := range i.scopes[mainID].sym["acct"].typ.method {
			if m.child[1].ident == name {
				def = m
			}
		}
		if def == nil {
			t.Fatalf("method %s not found", name)
		}
		def.Walk(func(n *node) bool {
			if n.kind != selectorExpr || n.exec == nil {
				return true
			}
			fn := runtime.FuncForPC(reflect.ValueOf(n.exec).Pointer()).Name()
			if strings.Contains(fn, "fieldAssign") || strings.Contains(fn, "fieldOperator") {
				yes++
			} else {
				no++
			}
			return true
		}, nil)
		return yes, no
	}
	if yes, no := fused("f"); yes != 9 || no != 0 {
		t.Errorf("f: %d selectors fused, %d not, want 9 and 0", yes, no)
	}
	if yes, no := fused("v"); yes != 1 || no != 0 {
		t.Errorf("v: %d selectors fused, %d not, want 1 and 0", yes, no)
	}
	if yes, no := fused("kept"); yes != 0 || no < 4 {
		t.Errorf("kept: %d selectors fused, %d not, want 0 and at least 4", yes, no)
	}
}
