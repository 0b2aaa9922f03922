package main

import (
	"fmt"
	"sort"
)

func digits(n int) int {
	if n < 10 {
		return n
	}
	return digits(n/10) + n%10
}

func main() {
	xs := make([]int, 3000)
	for i := range xs {
		xs[i] = (i*7919 + 13) % 10007
	}
	// A less that calls a recursive function: the tier with a register
	// stack, not a leaf.
	sort.Slice(xs, func(i, j int) bool {
		a, b := digits(xs[i]), digits(xs[j])
		if a != b {
			return a < b
		}
		return xs[i] < xs[j]
	})
	fmt.Println(xs[:5], xs[len(xs)-5:])
	// A less with a loop.
	sort.Slice(xs, func(i, j int) bool {
		a, b := xs[i], xs[j]
		for a%2 == 0 && a > 0 {
			a /= 2
		}
		for b%2 == 0 && b > 0 {
			b /= 2
		}
		return a < b || a == b && xs[i] < xs[j]
	})
	fmt.Println(xs[:5], xs[len(xs)-5:])
}
