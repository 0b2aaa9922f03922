package supervise

import (
	"runtime"
	"testing"
	"time"
)

// TestCPUMeterLeavesOutTheCollector: the CPU the garbage collector uses is
// no progress of a cell's. A worker whose live memory sits near its
// budget (the runtime's memory limit) collects back to back while every
// goroutine of the cell is blocked; the deadlock detector, which took
// that CPU for the cell's, kept waiting until the cell's time limit.
// Here the collector does nearly all the work: the meter must leave most
// of it out; and it must count the work of code that does not allocate.
func TestCPUMeterLeavesOutTheCollector(t *testing.T) {
	// A million pointers make each collection cost CPU to mark.
	keep := make([]*[2]int, 1<<20)
	for i := range keep {
		keep[i] = new([2]int)
	}
	m := newCPUMeter()
	before := m.read()
	collections := 0
	for CPUTime()-before.process < 500*time.Millisecond {
		runtime.GC()
		collections++
	}
	after := m.read()
	process, code := after.process-before.process, after.since(before)
	t.Logf("%d collections: %v of CPU, %v of it outside the runtime's work", collections, process, code)
	if code > process/4 {
		t.Errorf("the meter counted %v of %v CPU spent collecting garbage as code's: the collector's work would pass for a cell's progress", code, process)
	}
	runtime.KeepAlive(keep)

	before = m.read()
	n := 0
	for CPUTime()-before.process < 200*time.Millisecond {
		for i := range 1 << 20 {
			n += i & 3
		}
	}
	after = m.read()
	process, code = after.process-before.process, after.since(before)
	if code < process/2 {
		t.Errorf("the meter counted %v of %v CPU spent in a loop that allocates nothing as code's", code, process)
	}
	_ = n
}
