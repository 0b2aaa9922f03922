// Loop is issue 28's first program: a 20-million-iteration integer loop.
package main

import (
	"fmt"
	"os"
	"time"
)

const n = 20_000_000 // small: 200_000

func main() {
	start := time.Now()
	sum := 0
	for i := 0; i < n; i++ {
		sum += i % 7
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println(sum)
}
