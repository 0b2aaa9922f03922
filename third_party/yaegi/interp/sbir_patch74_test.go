package interp_test

import (
	"bytes"
	"testing"
)

// TestSbirTopLevelFuncLitCall checks sbir patch 74: statements evaluated
// at the top level that start with a call of a function literal are
// statements like others: what they define is global, seen by the next
// evaluation, and they register no main that later evaluations run.
// Upstream wrapped them in a func main, so `v` below was undefined in the
// next compilation and "once" printed again.
func TestSbirTopLevelFuncLitCall(t *testing.T) {
	var out bytes.Buffer
	i := newPatch51Interp(t, &out)
	srcs := []string{
		"func() { fmt.Println(\"once\") }()\nv := \"a\"\nvar n int",
		"v = v + \"x\"\nfmt.Println(v, n)",
		"func() {\n\tdefer func() { fmt.Println(\"recovered:\", recover()) }()\n\tpanic(4)\n}()\nw := len(v)",
		"fmt.Println(w)",
	}
	// Compile each before running any, as the worker compiles a cell's
	// chunks.
	for _, src := range srcs {
		p, err := i.Compile(src)
		if err != nil {
			t.Fatalf("Compile(%q): %v", src, err)
		}
		if _, err := i.Execute(p); err != nil {
			t.Fatalf("Execute(%q): %v", src, err)
		}
	}
	want := "once\nax 0\nrecovered: 4\n2\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
