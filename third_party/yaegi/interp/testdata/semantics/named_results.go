// Patch 24: every call starts with zero results of its own.
package main

import "fmt"

func sign(n int) (s string) {
	if n < 0 {
		s = "neg"
	}
	return
}

func acc(n int) (sum int) {
	for i := 1; i <= n; i++ {
		sum += i
	}
	return
}

func safeDiv(a, b int) int {
	defer func() { recover() }()
	return a / b
}

var total = 10

func addTotal(n int) (r int) {
	r = n
	r += total
	return
}

func boom() (r int) {
	r = 5
	panic("boom")
}

func keep() {
	defer func() { recover() }()
	total = boom()
}

func main() {
	fmt.Printf("%q %q %q\n", sign(-1), sign(0), sign(1))
	x := 0
	for i := 0; i < 3; i++ {
		x = acc(3)
	}
	fmt.Println(x)
	fmt.Println(safeDiv(6, 3), safeDiv(1, 0))
	total = addTotal(1)
	fmt.Println(total)
	keep()
	fmt.Println(total)
	a, b := 1, 2
	swap := func() (int, int) { return b, a }
	a, b = swap()
	fmt.Println(a, b)
}

// Output:
// "neg" "" ""
// 6
// 2 0
// 11
// 11
// 2 1
