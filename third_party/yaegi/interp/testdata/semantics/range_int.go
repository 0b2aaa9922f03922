// Patch 37: range over an integer.
package main

import "fmt"

type Count uint8

func size() int { return 3 }

func main() {
	total := 0
	for i := range 3 {
		n := i + 1
		for j := range n {
			total += 10*i + j
		}
	}
	fmt.Println(total)
	for i := range 5 {
		if i == 2 {
			i += 2
		}
		fmt.Print(i)
	}
	fmt.Println()
	var c Count = 2
	for i := range c {
		fmt.Printf("%T%d ", i, i)
	}
	for i := range size() {
		fmt.Print(i)
	}
	fmt.Println()
	k := 0
	for range 4 {
		k++
	}
	for i := range -2 {
		k += 100 + i
	}
	var last int
	for last = range 3 {
	}
	fmt.Println(k, last)
	for r := range 'b' - 'a' {
		fmt.Printf("%T\n", r)
	}
}

// Output:
// 84
// 01434
// main.Count0 main.Count1 012
// 4 2
// int32
