package main

import (
	"fmt"
	"sort"
)

type rec struct{ a, b int }

var short = []int{1, 2}

func try(name string, f func()) {
	defer func() {
		fmt.Println(name, "recovered:", recover())
	}()
	f()
}

func main() {
	xs := []int{4, 3, 2, 1}
	next := func(i, j int) bool { return xs[i+1] < xs[j] }
	prev := func(i, j int) bool { return xs[i-1] < xs[j] }
	for k := 0; k < 6; k++ {
		try("next", func() { sort.Slice(xs, next) })
	}
	try("prev", func() { sort.Slice(xs, prev) })
	rs := []rec{{1, 0}, {2, 5}, {3, 1}}
	div := func(i, j int) bool { return 100/rs[i].b < 100/rs[j].b }
	for k := 0; k < 6; k++ {
		try("div", func() { sort.Slice(rs, div) })
	}
	fmt.Println(rs)
	// A function declared: the globals through the caller's frame.
	pred := func(i int) bool { return short[i] > 1 }
	try("search", func() { fmt.Println(sort.Search(5, pred)) })
	fmt.Println(sort.Search(2, pred))
	var nilSlice []int
	try("nil", func() {
		fmt.Println(sort.Search(3, func(i int) bool { return nilSlice[i] > 0 }))
	})
	neg := func(i int) bool { return xs[i-2] > 0 }
	try("neg", func() { fmt.Println(sort.Search(4, neg)) })
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	fmt.Println(xs)
}
