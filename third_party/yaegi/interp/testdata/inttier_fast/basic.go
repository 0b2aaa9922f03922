package main

import (
	"fmt"
	"sort"
)

type inner struct {
	rank int64
	ok   bool
}

type record struct {
	id    int
	score int
	in    inner
}

type byScore []record

type celsius int

var global []record
var temps []celsius
var named byScore
var pivot = 500

func byTemp(i, j int) bool { return temps[i] < temps[j] }

func main() {
	seed := 7
	recs := make([]record, 2000)
	for i := range recs {
		seed = (seed*1103515245 + 12345) % 2147483648
		recs[i] = record{id: i, score: (seed >> 16) % 100, in: inner{rank: int64(seed % 7), ok: seed%3 == 0}}
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].score != recs[j].score {
			return recs[i].score > recs[j].score
		}
		return recs[i].id < recs[j].id
	})
	fmt.Println("first", recs[0], "last", recs[len(recs)-1])

	// Fields of a nested struct, another field on each side, constants.
	global = append([]record(nil), recs...)
	sort.SliceStable(global, func(i, j int) bool {
		return global[i].in.rank*3+1 < global[j].in.rank*3+1 || global[i].in.rank == global[j].in.rank && global[i].in.ok && !global[j].in.ok
	})
	fmt.Println("global", global[0], global[1999], global[1000].in.rank)
	sort.Slice(global, func(i, j int) bool { return global[i].score < global[j].id })
	fmt.Println("cross", sort.SliceIsSorted(global, func(i, j int) bool { return global[i].score < global[j].id }))

	// A declared function over a global of a defined int type.
	temps = []celsius{30, -4, 12, 7, 100, -40, 0}
	sort.Slice(temps, byTemp)
	fmt.Println("temps", temps)

	// A defined slice type, an index computed, a captured int.
	named = byScore(recs[:50])
	n := len(named)
	sort.Slice(named, func(i, j int) bool { return named[n-1-i].id%13 > named[n-1-j].id%13 })
	fmt.Println("named", named[0].id, named[49].id)
	xs := []int{1, 3, 5, 7, 9, 11, 13}
	lim := 8
	fmt.Println("search", sort.Search(len(xs), func(i int) bool { return xs[i] >= lim }))
	ys := make([]int, 1000)
	for i := range ys {
		ys[i] = i * 2
	}
	fmt.Println("search global", sort.Search(len(ys), func(i int) bool { return ys[i] > pivot }))
	fmt.Println("first elem", sort.Search(len(ys), func(i int) bool { return ys[0]+i > 600 }))
}
