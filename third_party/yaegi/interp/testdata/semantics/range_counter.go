// Patch 27: assigning to a range loop's key does not change the
// iteration, and a string is ranged over by byte positions.
package main

import "fmt"

func main() {
	xs := []string{"a", "b", "c", "d"}
	n := 0
	for i := range xs {
		i++
		n += i
	}
	fmt.Println(n)
	for i, x := range xs {
		i += 10
		fmt.Print(" ", i, x)
	}
	fmt.Println()
	arr := [3]int{7, 8, 9}
	for i := range &arr {
		fmt.Print(i)
		i = 5
	}
	fmt.Println()
	for i := range "héllo" {
		fmt.Print(" ", i)
	}
	fmt.Println()
	for i, r := range "a\xffé" {
		fmt.Print(" ", i, ":", r)
		i = 100
	}
	fmt.Println()
}

// Output:
// 10
//  10a 11b 12c 13d
// 012
//  0 1 3 4 5
//  0:97 1:65533 2:233
