package main

import (
	"fmt"
	"sort"
	"sync"
)

var sharedG []int

func main() {
	const n = 20000
	var wg sync.WaitGroup
	results := make([][2]int, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			xs := make([]int, n)
			seed := w + 1
			for i := range xs {
				seed = (seed*1103515245 + 12345) % 2147483648
				xs[i] = seed % 1000
			}
			sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
			results[w] = [2]int{xs[0], xs[n-1]}
		}(w)
	}
	wg.Wait()
	fmt.Println(results)

	// One less and one predicate shared by goroutines at once.
	shared := make([]int, n)
	for i := range shared {
		shared[i] = i * 3
	}
	less := func(i, j int) bool { return shared[i] < shared[j] }
	found := make([]int, 8)
	sorted := make([]bool, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			target := w * 1000
			pred := func(i int) bool { return shared[i] >= target }
			for k := 0; k < 200; k++ {
				found[w] = sort.Search(len(shared), pred)
			}
			sorted[w] = sort.SliceIsSorted(shared, less)
		}(w)
	}
	wg.Wait()
	fmt.Println(found, sorted)

	// A global slice read by one predicate from goroutines at once.
	sharedG = shared
	found2 := make([]int, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := 0; k < 200; k++ {
				found2[w] = sort.Search(len(sharedG), globalPred)
			}
		}(w)
	}
	wg.Wait()
	fmt.Println(found2)
}

func globalPred(i int) bool { return sharedG[i] >= 30000 }
