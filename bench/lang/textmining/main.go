// Textmining is the analyst's question "the 10 most common words in DoD
// abstracts", written as a cell: lower case, split, trim punctuation,
// skip stop words, count in a map, sort with sort.Slice.
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/award_data"
)

func main() {
	abstracts := award_data.Where("Agency", "==", "Department of Defense").Strings("Abstract")
	start := time.Now()
	stop := map[string]bool{}
	for _, w := range strings.Fields("the and of to a in for is on with by this that be are will as an at from it or can which these we our its has have been not such into also using based") {
		stop[w] = true
	}
	counts := map[string]int{}
	for _, a := range abstracts {
		for _, w := range strings.Fields(strings.ToLower(a)) {
			w = strings.Trim(w, `.,;:()[]"'!?`)
			if len(w) < 3 || stop[w] {
				continue
			}
			counts[w]++
		}
	}
	type wordCount struct {
		word  string
		count int
	}
	ranked := make([]wordCount, 0, len(counts))
	for w, c := range counts {
		ranked = append(ranked, wordCount{w, c})
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].count != ranked[j].count {
			return ranked[i].count > ranked[j].count
		}
		return ranked[i].word < ranked[j].word
	})
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println(len(abstracts), "abstracts,", len(counts), "distinct words")
	for _, wc := range ranked[:min(10, len(ranked))] {
		fmt.Println(wc.word, wc.count)
	}
}
