package interp

import (
	"bytes"
	"go/token"
	"runtime"
	"strings"
	"testing"
)

// fileCount returns the number of files in the interpreter's FileSet
// after letting the garbage collector run the finalizers of dead nodes.
func fileCount(i *Interpreter) int {
	for j := 0; j < 3; j++ {
		runtime.GC()
		runtime.Gosched()
	}
	n := 0
	i.fset.Iterate(func(*token.File) bool { n++; return true })
	return n
}

// TestFileSetKeepsOnlyLiveFiles (sbir patch 12): with DiscardDebugInfo,
// evaluations that leave nothing behind leave no file in the FileSet, and
// a function declared early still reports its line when it panics many
// evaluations later; without the option every file is kept.
func TestFileSetKeepsOnlyLiveFiles(t *testing.T) {
	n := 50000
	if testing.Short() {
		n = 2000
	}
	var stderr bytes.Buffer
	i := New(Options{DiscardDebugInfo: true, Stderr: &stderr})
	// A declared function, and a closure stored in a variable: both must
	// keep their files.
	decls := []string{
		"func boom() {\n\tx := 1\n\tpanic(x)\n}",
		"var later func() int",
		"later = func() int {\n\n\tvar m map[string]int\n\tm[\"a\"] = 1\n\treturn 0\n}",
	}
	for _, d := range decls {
		if _, err := i.Eval(d); err != nil {
			t.Fatal(err)
		}
	}
	start := fileCount(i)
	for k := 0; k < n; k++ {
		if _, err := i.Eval("1"); err != nil {
			t.Fatal(err)
		}
		if _, err := i.Eval("1 +"); err == nil { // a parse error
			t.Fatal("no error for 1 +")
		}
		if k%10000 == 0 {
			runtime.GC()
		}
	}
	if got := fileCount(i); got > start+2 {
		t.Errorf("%d evaluations of 1 left %d files in the FileSet, it held %d before them", n, got, start)
	}

	// The panics report the positions an interpreter that never drops a
	// file reports (declared, then called at once).
	want := func(code string) string {
		var out bytes.Buffer
		ref := New(Options{Stderr: &out})
		for _, d := range decls {
			if _, err := ref.Eval(d); err != nil {
				t.Fatal(err)
			}
		}
		ref.Eval(code)
		return out.String()
	}
	for _, code := range []string{"boom()", "later()"} {
		stderr.Reset()
		if _, err := i.Eval(code); err == nil {
			t.Fatalf("%s: no panic", code)
		}
		w := want(code)
		if !strings.Contains(w, ": panic: main.") {
			t.Fatalf("%s: the reference reports %q, with no position", code, w)
		}
		if stderr.String() != w {
			t.Errorf("%s after %d evaluations: stderr %q, want %q", code, n, stderr.String(), w)
		}
	}

	// A parse error still names its position.
	if _, err := i.Eval("x := (1 +\n\n)"); err == nil || !strings.Contains(err.Error(), ":3:1") {
		t.Errorf("parse error %v, want the position 3:1", err)
	}

	keep := New(Options{})
	for j := 0; j < 100; j++ {
		if _, err := keep.Eval("1"); err != nil {
			t.Fatal(err)
		}
	}
	if got := fileCount(keep); got < 100 {
		t.Errorf("without DiscardDebugInfo %d files kept after 100 evaluations; the debugger needs them", got)
	}
}

// BenchmarkEvalHeapGrowth reports the live heap each evaluation of `1`
// leaves behind with DiscardDebugInfo (sbir patch 12; ~200 bytes before
// it, from the FileSet's files).
func BenchmarkEvalHeapGrowth(b *testing.B) {
	i := New(Options{DiscardDebugInfo: true})
	for j := 0; j < 200; j++ {
		i.Eval("1")
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	b.ResetTimer()
	for j := 0; j < b.N; j++ {
		if _, err := i.Eval("1"); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric((float64(heap())-float64(before))/float64(b.N), "heap-bytes/eval")
}
