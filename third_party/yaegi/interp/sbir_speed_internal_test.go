//go:build go1.24

package interp

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSbirFuncRecordsGo checks that the records of sbir patch S3 leave
// with their function values: a loop that makes twenty thousand
// closures referring to themselves leaves few records once they are
// garbage. (A closure keeps the one made before it in the same frame slot
// alive, through the frame it copied: a closure kept after the loop would
// keep them all, records included, as it keeps the closures.)
func TestSbirFuncRecordsGo(t *testing.T) {
	withoutClosureReading(t) // sbir patch S12: records are made only then
	i := New(Options{})
	if _, err := i.Eval(`
func churn(n int) int {
	s := 0
	for j := 0; j < n; j++ {
		var self func(int) int
		self = func(k int) int {
			if k == 0 {
				return j
			}
			return self(k - 1)
		}
		s += self(2)
	}
	return s
}`); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval(`churn(20000)`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 199990000 {
		t.Errorf("churn(20000) = %d, want 199990000", v.Int())
	}
	count := func() int {
		n := 0
		i.funcs.Range(func(any, any) bool { n++; return true })
		return n
	}
	deadline := time.Now().Add(30 * time.Second)
	for count() > 100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := count(); n > 100 {
		t.Errorf("%d function records left after the closures died, want at most 100", n)
	}
}

// TestSbirDirectOperatorsDispatch checks that the operators of sbir patch
// S7 are the ones compiled for int, float64 and string operands in a
// function: each operator node's exec is a closure of sbir_ops.go.
func TestSbirDirectOperatorsDispatch(t *testing.T) {
	i := New(Options{})
	if _, err := i.Eval(`func f(a, b int, x float64, s string) (int, bool) {
	c := a*b + 3
	c += a
	c++
	y := x / 2
	y -= 1.5
	s += "!"
	if a < b && x > 1.5 && s == "x!" && y != 0 {
		return c, true
	}
	d := c % 7
	return d - a, a >= b
}`); err != nil {
		t.Fatal(err)
	}
	fn := i.scopes[mainID].sym["f"].node
	ops := map[action]bool{aAdd: true, aSub: true, aMul: true, aQuo: true, aRem: true, aEqual: true, aNotEqual: true,
		aLower: true, aLowerEqual: true, aGreater: true, aGreaterEqual: true, aAddAssign: true, aSubAssign: true, aInc: true}
	seen := 0
	fn.Walk(func(n *node) bool {
		if !ops[n.action] || n.rval.IsValid() {
			return true
		}
		seen++
		name := runtime.FuncForPC(reflect.ValueOf(n.exec).Pointer()).Name()
		if !strings.Contains(name, "interp.direct") {
			t.Errorf("%v at %v: exec is %s, want a direct operator of sbir_ops.go", n.action, i.fset.Position(n.pos), name)
		}
		return true
	}, nil)
	if seen < 14 {
		t.Errorf("%d operators seen, want at least 14", seen)
	}
}
