// Patch 31: a division of two untyped integer constants is an integer
// division, whatever type the context gives the result.
package main

import "fmt"

const a float64 = 3

func main() {
	var ratio float64 = 3 / 2
	var r32 float32 = 7 / 2
	var shifted float64 = 1 << 3 / 3
	var mixed float64 = 3 / 2 * 2
	var real float64 = 3.0 / 2
	fmt.Println(ratio, r32, shifted, mixed, real, a/2, 'a'/2)
}

// Output:
// 1 3 2 2 1.5 1.5 48
