// Sortslice sorts records with sort.Slice and a less function: compiled
// code calling back into an interpreted closure for every comparison.
package main

import (
	"fmt"
	"os"
	"sort"
	"time"
)

const n = 200_000 // small: 2_000

type record struct {
	id    int
	score int
}

func main() {
	seed := 7
	recs := make([]record, n)
	for i := range recs {
		seed = (seed*1103515245 + 12345) % 2147483648
		recs[i] = record{id: i, score: (seed >> 16) % 10_000}
	}
	start := time.Now()
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].score != recs[j].score {
			return recs[i].score > recs[j].score
		}
		return recs[i].id < recs[j].id
	})
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	check := 0
	for i, r := range recs {
		check = (check*31 + r.id*(i%97+1)) % 1_000_000_007
	}
	fmt.Println("first", recs[0].id, recs[0].score, "last", recs[n-1].id, recs[n-1].score, "check", check)
}
