// Patch 28: a default clause that is not last: the other cases are tried
// in the order written, and fallthrough goes to the next clause of the
// source.
package main

import "fmt"

func size(x int) string {
	switch {
	case x > 5:
		return "big"
	default:
		return "tiny"
	case x > 3:
		return "mid"
	case x > 1:
		return "small"
	}
}

func order(x int) string {
	seen := ""
	f := func(s string, v int) int { seen += s; return v }
	switch x {
	case f("a", 1):
	default:
	case f("b", 2):
	case f("c", 3):
	}
	return seen
}

func fall(x int) {
	switch x {
	case 0:
		fmt.Print(" zero")
		fallthrough
	default:
		fmt.Print(" default")
		fallthrough
	case 1:
		fmt.Print(" one")
	case 2:
		fmt.Print(" two")
	}
	fmt.Println()
}

func main() {
	for _, x := range []int{9, 4, 2, 0} {
		fmt.Println(size(x), order(x))
	}
	fall(0)
	fall(1)
	fall(5)
}

// Output:
// big abc
// mid abc
// small ab
// tiny abc
//  zero default one
//  one
//  default one
