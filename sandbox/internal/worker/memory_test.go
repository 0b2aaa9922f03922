package worker

import (
	"context"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// TestMemoryPerCell measures the worker's live heap over many cells that
// declare nothing new (issue 14: at most 10 MB over 100,000 cells). Set
// SBIR_MEMORY_CELLS to the number of cells (default 2,000) and
// SBIR_MEMORY_PROFILE to a file for the heap profile at the end.
func TestMemoryPerCell(t *testing.T) {
	n := 2000
	if v := os.Getenv("SBIR_MEMORY_CELLS"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	c := wire.NewConn(eofReader{}, io.Discard)
	out := newCellOutput(c.Send, c.SendStream, 1<<20)
	s, err := newInterpreter(out, eofReader{}, "")
	if err != nil {
		t.Fatal(err)
	}
	st := cellprep.NewState()
	cell := func(code string) {
		prep, err := cellprep.Prepare(code, st)
		if err != nil {
			t.Fatal(err)
		}
		res := &wire.Result{}
		out.begin()
		s.run(context.Background(), prep.Chunks, res)
		out.end(res)
		s.forgetMain()
		if !res.Success {
			t.Fatalf("%q: %s: %s", code, res.ErrorName, res.ErrorMessage)
		}
		st.Commit(prep)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for range 200 { // warm up
		cell("1")
	}
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
	// 370 bytes a cell remain (yaegi's FileSet, see docs/performance.md);
	// 2,120 before yaegi patch 4. The goal is 100 (10 MB per 100,000).
	if perCell > 1000 {
		t.Errorf("the heap grows %.0f bytes a cell of `1`; it grew 370 with yaegi patch 4", perCell)
	}
	if p := os.Getenv("SBIR_MEMORY_PROFILE"); p != "" {
		f, _ := os.Create(p)
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
}
