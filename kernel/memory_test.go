package kernel

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
)

// TestMemoryPerCell measures the kernel process's live heap over many
// cells of `1` through real sockets (issue 14: at most 10 MB over 100,000
// cells, with the worker's share in sandbox/internal/worker). What a cell
// leaves behind on purpose is bounded: history (maxHistoryEntries) and
// remembered signatures (maxReplayEntries); past those bounds nothing
// should grow. Set SBIR_MEMORY_CELLS to the number of cells (default
// 3,000) and SBIR_MEMORY_PROFILE to a file for the heap profile at the end.
func TestMemoryPerCell(t *testing.T) {
	n := 3000
	if v := os.Getenv("SBIR_MEMORY_CELLS"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	k := startKernel(t, Config{})
	c := k.client
	cell := func() {
		id := c.execute("value 1", nil)
		c.reply(c.shellC, id)
		c.untilIdle(id)
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for range 200 {
		cell()
	}
	start := heap()
	var grown int64
	for i := range n {
		cell()
		if (i+1)%(n/4) == 0 {
			grown = int64(heap()) - int64(start)
			t.Logf("after %d cells: heap %+d KiB (%.0f bytes a cell)", i+1, grown>>10, float64(grown)/float64(i+1))
		}
	}
	// A remembered signature costs ~45 bytes and a history entry of `1`
	// ~70, so below both bounds a cell may keep ~120 bytes; this test's
	// client adds nothing that lasts.
	if perCell := float64(grown) / float64(n); perCell > 160 {
		t.Errorf("the kernel's heap grows %.0f bytes a cell of `1`; history and the replay set account for ~120", perCell)
	}
	if p := os.Getenv("SBIR_MEMORY_PROFILE"); p != "" {
		f, _ := os.Create(p)
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
}
