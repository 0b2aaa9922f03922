package award_data

import (
	"runtime"
	"sync"
)

// minParallelRows is the smallest row count worth splitting across
// goroutines: below it, starting them costs more than it saves.
const minParallelRows = 1 << 16

// parallelParts splits 0..n into contiguous parts, at most one per
// processor (and at most 8), and runs fn on each concurrently; the parts'
// boundaries are multiples of 64 so that bitmap words are never shared.
// fn must only write memory owned by its part.
func parallelParts(n int, fn func(part, lo, hi int)) int {
	parts := min(runtime.GOMAXPROCS(0), 8)
	if n < minParallelRows || parts < 2 {
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

// maxParts is an upper bound on the parts parallelParts uses.
func maxParts() int { return min(runtime.GOMAXPROCS(0), 8) + 1 }
