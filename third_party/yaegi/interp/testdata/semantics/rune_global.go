package main

import "fmt"

// Patch 31b: a package-level variable initialised by a rune literal is a
// rune (int32), as inside a function, not an int.

var r = 'A'

var q, n = 'b', 1

func main() {
	r++
	fmt.Printf("%T %v %T %c %T\n", r, r, q, q, n)
	var x any = q
	_, ok := x.(rune)
	fmt.Println(ok)
}

// Output:
// int32 66 int32 b int
// true
