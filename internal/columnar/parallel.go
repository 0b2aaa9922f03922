package columnar

import (
	"runtime"
	"sync"
)

// minParallelRows is the smallest row count worth splitting across
// goroutines: below it, starting them costs more than it saves.
const MinParallelRows = 1 << 16

// Parts splits 0..n into contiguous parts, at most one per
// processor (and at most 8), and runs fn on each concurrently; the parts'
// boundaries are multiples of 64 so that bitmap words are never shared.
// fn must only write memory owned by its part.
func Parts(n int, fn func(part, lo, hi int)) int {
	parts := min(runtime.GOMAXPROCS(0), 8)
	if n < MinParallelRows || parts < 2 {
		fn(0, 0, n)
		return 1
	}
	size := (n/parts + 63) &^ 63
	var wg sync.WaitGroup
	p := 0
	for lo := 0; lo < n; lo += size {
		hi := min(lo+size, n)
		wg.Add(1)
		go func(part, lo, hi int) {
			defer wg.Done()
			fn(part, lo, hi)
		}(p, lo, hi)
		p++
	}
	wg.Wait()
	return p
}

// MaxParts is an upper bound on the parts parallelParts uses.
func MaxParts() int { return min(runtime.GOMAXPROCS(0), 8) + 1 }
