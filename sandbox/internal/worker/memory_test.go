package worker

import (
	"context"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// memorySession is an in-process interpreter session running cells as
// the worker does (preparation, evaluation, output, forgetMain), for
// measuring the live heap cells leave behind.
func memorySession(tb testing.TB) (cell func(code string), heap func() uint64) {
	tb.Helper()
	c := wire.NewConn(eofReader{}, io.Discard)
	out := newCellOutput(c.Send, c.SendStream, 1<<20)
	s, err := newInterpreter(out, eofReader{}, "")
	if err != nil {
		tb.Fatal(err)
	}
	st := cellprep.NewState()
	cell = func(code string) {
		prep, err := cellprep.Prepare(code, st)
		if err != nil {
			tb.Fatal(err)
		}
		res := &wire.Result{}
		out.begin()
		s.run(context.Background(), prep.Chunks, res)
		out.end(res)
		s.forgetMain()
		if !res.Success {
			tb.Fatalf("%q: %s: %s", code, res.ErrorName, res.ErrorMessage)
		}
		st.Commit(prep)
	}
	heap = func() uint64 {
		// A collection queues the finalizers that drop the FileSet files
		// of dead nodes (yaegi patch 12); the next frees what they dropped,
		// if they have run by then. They run on one goroutine, in an order
		// of its own: wait for a sentinel queued with them, three rounds,
		// and take the least (on a loaded machine two bare collections
		// made the heap seem to grow 300 bytes a cell).
		least := uint64(math.MaxUint64)
		for range 3 {
			ran := finalizerSentinel()
			runtime.GC()
			select {
			case <-ran:
			case <-time.After(testenv.Scale(time.Minute)):
				tb.Fatal("the finalizers of dead nodes did not run")
			}
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			least = min(least, m.HeapAlloc)
		}
		return least
	}
	for range 200 { // warm up
		cell("1")
	}
	return cell, heap
}

// finalizerSentinel returns a channel closed by the finalizer of an object
// unreachable once it returns.
func finalizerSentinel() <-chan struct{} {
	ran := make(chan struct{})
	runtime.SetFinalizer(new([16]byte), func(*[16]byte) { close(ran) })
	return ran
}

// TestMemoryPerCell measures the worker's live heap over many cells that
// declare nothing new (issue 14: at most 10 MB over 100,000 cells). Set
// SBIR_MEMORY_CELLS to the number of cells (default 2,000) and
// SBIR_MEMORY_PROFILE to a file for the heap profile at the end.
func TestMemoryPerCell(t *testing.T) {
	n := 2000
	if v := os.Getenv("SBIR_MEMORY_CELLS"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	cell, heap := memorySession(t)
	start := heap()
	perCell := 0.0
	for i := range n {
		cell("1")
		if (i+1)%(n/4) == 0 {
			grown := int64(heap()) - int64(start)
			perCell = float64(grown) / float64(i+1)
			t.Logf("after %d cells: heap +%d KiB (%.0f bytes a cell)", i+1, grown>>10, perCell)
		}
	}
	// 2,120 bytes a cell before yaegi patch 4, 400 before patch 12 (the
	// FileSet kept two files per cell), ~3 with it. The goal is 100
	// (10 MB per 100,000 cells).
	if perCell > 100 {
		t.Errorf("the heap grows %.0f bytes a cell of `1`; the goal is at most 100 (it grew ~3 with yaegi patch 12)", perCell)
	}
	if p := os.Getenv("SBIR_MEMORY_PROFILE"); p != "" {
		f, _ := os.Create(p)
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
}

// BenchmarkMemoryPerCell reports the live heap each cell of `1` leaves
// behind (heap-bytes/cell; issue 14's goal is ≤ 100, i.e. ≤ 10 MB over
// 100,000 cells): go test ./sandbox/internal/worker -run '^$' -bench
// MemoryPerCell -benchtime 100000x.
func BenchmarkMemoryPerCell(b *testing.B) {
	cell, heap := memorySession(b)
	start := heap()
	b.ResetTimer()
	for b.Loop() {
		cell("1")
	}
	b.StopTimer()
	b.ReportMetric((float64(heap())-float64(start))/float64(b.N), "heap-bytes/cell")
}

// TestMemoryRedefinedFunction measures the live heap a function declared
// again and again leaves behind while a caller compiled against its first
// declaration lives on (yaegi patch 52: every declaration points to the
// latest through one shared box, so the ones in between can be freed; a
// chain from each to the next kept them all).
func TestMemoryRedefinedFunction(t *testing.T) {
	n := 1000
	cell, heap := memorySession(t)
	cell("func level() int { return 1 }")
	cell("func report() int { return level() }")
	body := "func level() int {\n\ttotal := 0\n\tfor i := 0; i < 10; i++ {\n\t\ttotal += i * i\n\t}\n\treturn total\n}"
	for range 300 { // warm up, until the heap is steady
		cell(body)
	}
	heap()
	start := heap()
	for range n {
		cell(body)
	}
	end := heap()
	cell("if report() != 285 {\n\tpanic(report())\n}") // and keeps the session alive
	perCell := float64(int64(end)-int64(start)) / float64(n)
	t.Logf("the heap grows %.0f bytes a declaration", perCell)
	if perCell > 500 {
		t.Errorf("the heap grows %.0f bytes each time a function is declared again; the goal is at most 500 (the bodies in between must be freed)", perCell)
	}
}
