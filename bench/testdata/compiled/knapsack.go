// A 0/1 knapsack by dynamic programming: 300 items, capacity 100,000.
package main

import "fmt"

func main() {
	const n, capacity = 300, 100_000
	weights, values := make([]int, n), make([]int, n)
	x := uint32(7)
	for i := range n {
		x = x*1664525 + 1013904223
		weights[i] = 1 + int(x>>8)%2000
		x = x*1664525 + 1013904223
		values[i] = 1 + int(x>>8)%1000
	}
	best := make([]int, capacity+1)
	for i := range n {
		for c := capacity; c >= weights[i]; c-- {
			if v := best[c-weights[i]] + values[i]; v > best[c] {
				best[c] = v
			}
		}
	}
	fmt.Println(best[capacity])
}
