// Recursive fib(32): function calls.
package main

import "fmt"

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() { fmt.Println(fib(32)) }
