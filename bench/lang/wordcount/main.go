// Wordcount counts the words of 50,000 abstracts with strings.Fields,
// strings.ToLower and a map: string keys, compiled calls, allocation.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/award_data"
)

func main() {
	abstracts := award_data.Head(50_000).Strings("Abstract")
	start := time.Now()
	counts := map[string]int{}
	words := 0
	for _, a := range abstracts {
		for _, w := range strings.Fields(strings.ToLower(a)) {
			counts[w]++
			words++
		}
	}
	top, topCount := "", 0
	for w, c := range counts {
		if c > topCount || c == topCount && w < top {
			top, topCount = w, c
		}
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println(len(abstracts), "abstracts,", words, "words,", len(counts), "distinct; most common:", top, topCount)
}
