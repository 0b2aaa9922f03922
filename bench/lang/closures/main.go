// Closures makes closures over variables and calls them in a loop.
package main

import (
	"fmt"
	"os"
	"time"
)

const n = 2_000_000 // small: 20_000

func counter() func() int {
	c := 0
	return func() int {
		c++
		return c
	}
}

func adder(k int) func(int) int {
	return func(x int) int { return x + k }
}

func main() {
	start := time.Now()
	next := counter()
	adders := make([]func(int) int, 10)
	for k := range adders {
		adders[k] = adder(k)
	}
	total := 0
	for i := 0; i < n; i++ {
		total += adders[i%10](next()) % 1000
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println("calls", next()-1, "total", total)
}
