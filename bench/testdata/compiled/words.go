// Word counts over 8 MB of generated text (strings.Fields, ToLower, a
// map), then the 5 most common words: the text-mining cell's shape.
package main

import (
	"fmt"
	"sort"
	"strings"
)

func main() {
	vocab := strings.Fields("The Phase I SBIR award funds research on sensors Radar software DATA Analysis of materials for the Navy and the Army with novel methods")
	var b strings.Builder
	x := uint32(1)
	for b.Len() < 8<<20 {
		x = x*1664525 + 1013904223
		b.WriteString(vocab[int(x>>16)%len(vocab)])
		b.WriteByte(' ')
	}
	counts := map[string]int{}
	for _, w := range strings.Fields(b.String()) {
		counts[strings.ToLower(w)]++
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	for _, w := range words[:5] {
		fmt.Println(w, counts[w])
	}
}
