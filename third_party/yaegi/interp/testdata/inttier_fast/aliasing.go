package main

import (
	"fmt"
	"sort"
)

var g []int

// sortDesc sorts the halves of xs first, recursively, each with a less
// capturing its own xs (a parameter: one frame out of the literal).
func sortDesc(xs []int) {
	if len(xs) > 3 {
		sortDesc(xs[:len(xs)/2])
		sortDesc(xs[len(xs)/2:])
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] > xs[j] })
}

func main() {
	recs := []int{5, 2, 9, 1, 7}
	less := func(i, j int) bool { return recs[i] < recs[j] }
	sort.Slice(recs, less)
	fmt.Println(recs)
	// The variable is assigned a longer slice: the same less reads it.
	recs = append(recs, 0, 8, -3)
	sort.Slice(recs, less)
	fmt.Println(recs)
	// Resliced, and another backing array.
	recs = recs[2:6]
	sort.Slice(recs, func(i, j int) bool { return recs[i] > recs[j] })
	fmt.Println(recs)
	recs = []int{3, 1, 2}
	sort.Slice(recs, less)
	fmt.Println(recs)
	// A global appended to between searches (a new array each time).
	pred := func(i int) bool { return g[i] >= 10 }
	for k := 0; k < 20; k++ {
		g = append(g, k)
		fmt.Print(sort.Search(len(g), pred), " ")
	}
	fmt.Println()
	// Sorting one slice by the values of another.
	keys := []int{40, 10, 30, 20}
	names := []string{"d", "a", "c", "b"}
	idx := []int{0, 1, 2, 3}
	sort.Slice(idx, func(i, j int) bool { return keys[idx[i]] < keys[idx[j]] })
	for _, k := range idx {
		fmt.Print(names[k])
	}
	fmt.Println()
	// A less over an array element's slice, and a slice of slices: not leaves.
	var arr [2][]int
	arr[0] = []int{3, 2, 1}
	sort.Slice(arr[0], func(i, j int) bool { return arr[0][i] < arr[0][j] })
	fmt.Println(arr)
	// Slices of a struct type declared inside the function.
	type pt struct{ x, y int }
	ps := []pt{{3, 1}, {1, 2}, {2, 0}}
	sort.Slice(ps, func(i, j int) bool { return ps[i].y < ps[j].y })
	fmt.Println(ps)
	// The caller changes the slice's elements between two less calls.
	vals := []int{3, 1, 2}
	k := 0
	sort.Slice(vals, func(i, j int) bool {
		k++
		return vals[i] < vals[j]
	})
	fmt.Println(vals, k > 0)
	rec := []int{4, 8, 1, 9, 2, 7, 3, 6, 5, 0, 11, 10}
	sortDesc(rec)
	fmt.Println(rec)
}
