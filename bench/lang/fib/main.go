// Fib is recursive Fibonacci: a function call costs what it costs.
package main

import (
	"fmt"
	"os"
	"time"
)

const n = 27 // small: 15

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() {
	start := time.Now()
	r := fib(n)
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println(r)
}
