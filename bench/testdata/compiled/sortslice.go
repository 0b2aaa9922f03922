// sort.Slice of 300,000 structs with a less func (compiled code
// calling back into the program).
package main

import (
	"fmt"
	"sort"
)

type rec struct {
	id    int
	score float64
}

func main() {
	rs := make([]rec, 300_000)
	x := uint32(3)
	for i := range rs {
		x = x*1664525 + 1013904223
		rs[i] = rec{i, float64(x>>8) / (1 << 24)}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].score < rs[j].score })
	fmt.Println(rs[0].id, rs[len(rs)-1].id)
}
