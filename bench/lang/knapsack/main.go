// Knapsack solves a 0/1 knapsack problem with the textbook table of
// best values (items × capacities): nested loops over slices of slices.
package main

import (
	"fmt"
	"os"
	"time"
)

const (
	items    = 200    // small: 20
	capacity = 10_000 // small: 500
)

func main() {
	// The items come from a linear congruential generator, so that every
	// language solves the same problem.
	seed := 1
	next := func() int {
		seed = (seed*1103515245 + 12345) % 2147483648
		return seed >> 16
	}
	weight := make([]int, items)
	value := make([]int, items)
	for i := range weight {
		weight[i] = 1 + next()%(capacity/10)
		value[i] = 1 + next()%1000
	}

	start := time.Now()
	best := make([][]int, items+1)
	for i := range best {
		best[i] = make([]int, capacity+1)
	}
	for i := 1; i <= items; i++ {
		w, v := weight[i-1], value[i-1]
		for c := 0; c <= capacity; c++ {
			best[i][c] = best[i-1][c]
			if w <= c && best[i-1][c-w]+v > best[i][c] {
				best[i][c] = best[i-1][c-w] + v
			}
		}
	}
	// Walk back through the table to find which items were taken.
	taken, c := 0, capacity
	for i := items; i > 0; i-- {
		if best[i][c] != best[i-1][c] {
			taken++
			c -= weight[i-1]
		}
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println("best value", best[items][capacity], "with", taken, "items, weight", capacity-c)
}
