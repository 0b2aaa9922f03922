//go:build go1.24

package interp

import (
	"runtime"
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
