package supervise

import (
	"context"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchDeadlockSparesACellStartingGoroutines: a cell that keeps
// starting goroutines is making progress, whatever CPU it gets, so the
// detector must not look at it. Each look stops the world to dump every
// goroutine's stack; on a loaded host a package's Bomb(50000) got so
// little CPU that the detector took each interval for idleness, and its
// dumps of up to 10,000 goroutines took most of what the cell got: the
// cell ran past its one-minute limit instead of failing at the
// goroutine cap (issue 30, hole 4). Dumps are counted as the runtime's
// stop-the-world pauses not caused by the garbage collector.
func TestWatchDeadlockSparesACellStartingGoroutines(t *testing.T) {
	var n atomic.Uint64
	started := func() uint64 { return n.Add(1) } // one more each time it is asked
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	before := otherPauses()
	go func() {
		defer close(done)
		WatchDeadlock(ctx, cancel, make(chan struct{}), &TimerWatch{}, started)
	}()
	// Twenty looks' worth of intervals, each one idle as far as CPU goes.
	for n.Load() < 40 {
		time.Sleep(detectFirst)
	}
	cancel(context.Canceled)
	<-done
	if d := otherPauses() - before; d != 0 {
		t.Fatalf("the detector stopped the world %d times while the cell kept starting goroutines; want none", d)
	}
}

// otherPauses is how many times the world was stopped for something other
// than the garbage collector (runtime.Stack of all goroutines is one).
func otherPauses() uint64 {
	s := []metrics.Sample{{Name: "/sched/pauses/total/other:seconds"}}
	metrics.Read(s)
	var n uint64
	for _, c := range s[0].Value.Float64Histogram().Counts {
		n += c
	}
	return n
}
