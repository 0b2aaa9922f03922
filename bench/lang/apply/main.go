// Apply derives a column from every award with award_data.Apply and an
// interpreted function: compiled code calling back into the cell once per
// row, and the row calling compiled code.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/award_data"
)

func main() {
	start := time.Now()
	words := award_data.Apply("Title Words", func(r award_data.Row) int {
		return len(strings.Fields(r.String("Award Title")))
	}).Ints("Title Words")
	total := int64(0)
	for _, w := range words {
		total += w
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println(len(words), "awards,", total, "words in titles")
}
