package worker_test

import (
	"strings"
	"testing"
	"time"
)

// iterSessions are sequences of cells using range over functions and the
// constructs yaegi patches 8a-8g fixed, run through a real worker. Each cell
// has the stdout go run prints for the same code, or the error it raises.
var iterSessions = []struct {
	name  string
	cells []iterCell
}{
	{"range over func across cells", []iterCell{
		{code: `import "iter"

type List[T any] struct{ items []T }

func (l *List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i, v := range l.items {
			if !yield(i, v) {
				return
			}
		}
	}
}

func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func firstOver(seq iter.Seq[int], min int) (int, bool) {
	for v := range seq {
		if v > min {
			return v, true
		}
	}
	return 0, false
}`},
		{code: `l := &List[string]{items: []string{"a", "b", "c"}}
for i, s := range l.All() {
	if i == 1 {
		continue
	}
	fmt.Println(i, s)
}
fmt.Println(firstOver(Count(10), 6))
fmt.Println(firstOver(Count(3), 6))`, stdout: "0 a\n2 c\n7 true\n0 false\n"},
		{code: `var none iter.Seq[int]
fmt.Println(none == nil, Count(1) != nil)
n := 0
for range Count(4) {
	n++
}
fmt.Println(n)`, stdout: "true true\n4\n"},
	}},
	{"standard iterators", []iterCell{
		{code: `import (
	"maps"
	"slices"
	"strings"
)

m := map[string]int{"b": 2, "a": 1, "c": 3}
fmt.Println(slices.Sorted(maps.Keys(m)))
for line := range strings.Lines("x\ny\n") {
	fmt.Printf("%q ", line)
}
for f := range strings.FieldsSeq(" p  q ") {
	fmt.Print(f, ";")
}
fmt.Println()
for i, v := range slices.All([]string{"u", "v"}) {
	fmt.Print(i, v, " ")
}
fmt.Println(slices.Collect(slices.Values([]int{3, 1})))`, stdout: "[a b c]\n\"x\\n\" \"y\\n\" p;q;\n0u 1v [3 1]\n"},
	}},
	{"yield after break", []iterCell{
		{code: `func bad(yield func(int) bool) {
	yield(1)
	yield(2)
}`},
		{code: `for x := range bad {
	fmt.Println(x)
	break
}`, stdout: "1\n", errName: "RuntimeError", errMsg: "range function continued iteration after function for loop body returned false"},
	}},
	{"top-level statements", []iterCell{
		{code: `primes := [6]int{2, 3, 5, 7, 11, 13}
m := map[string]int{"a": 1}`},
		{code: `var s []int = primes[1:4]
for _, k := range []string{"a", "z"} {
	v, ok := m[k]
	fmt.Println(k, v, ok)
}
fmt.Println(s)`, stdout: "a 1 true\nz 0 false\n[3 5 7]\n"},
		// The deferred calls run at the end of the cell, once. (The cell
		// ends with the loop: a last expression after it would be a chunk
		// of its own, evaluated after the deferred calls ran.)
		{code: `fmt.Println("body")
for i := 0; i < 2; i++ {
	defer fmt.Println("deferred", i)
}`, stdout: "body\ndeferred 1\ndeferred 0\n"},
		{code: `fmt.Println("next")`, stdout: "next\n"},
	}},
}

type iterCell struct {
	code, stdout    string
	errName, errMsg string // the error the cell must end with, if any
}

// TestRangeOverFuncCells runs iterSessions in real sessions.
func TestRangeOverFuncCells(t *testing.T) {
	if testing.Short() {
		t.Skip("starts sandbox sessions")
	}
	for _, sess := range iterSessions {
		t.Run(sess.name, func(t *testing.T) {
			ctx, s := startSession(t, 60*time.Second, 0)
			if _, err := s.Run(ctx, `import "fmt"`, nil); err != nil {
				t.Fatal(err)
			}
			for i, c := range sess.cells {
				res, err := s.Run(ctx, c.code, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Stdout != c.stdout {
					t.Errorf("cell %d: stdout %q, want %q", i+1, res.Stdout, c.stdout)
				}
				switch {
				case c.errName == "" && !res.Success:
					t.Errorf("cell %d failed: %s: %s", i+1, res.ErrorName, res.ErrorMessage)
				case c.errName != "" && (res.Success || res.ErrorName != c.errName || !strings.Contains(res.ErrorMessage, c.errMsg)):
					t.Errorf("cell %d: success=%v %s: %s; want %s containing %q", i+1, res.Success, res.ErrorName, res.ErrorMessage, c.errName, c.errMsg)
				}
			}
		})
	}
}
