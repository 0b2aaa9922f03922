// A 100M-iteration integer loop.
package main

import "fmt"

func main() {
	s := 0
	for i := 0; i < 100_000_000; i++ {
		s += i % 7
	}
	fmt.Println(s)
}
