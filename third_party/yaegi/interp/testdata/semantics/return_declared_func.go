// Patch 33: a declared function returned as a func value.
package main

import (
	"fmt"
	"strings"
)

type op func(int, int) int

func add(a, b int) int { return a + b }

func double(x int) int { return 2 * x }

func get() func(int) int { return double }

func pick(name string) op {
	if name == "add" {
		return add
	}
	return nil
}

func pair() (func(int) int, string) { return double, "double" }

func upper() func(string) string { return strings.ToUpper }

func main() {
	f := get()
	fmt.Println(f(4), pick("add")(2, 3), pick("x") == nil)
	var g func(int) int = double
	h, name := pair()
	fmt.Println(g(3), h(5), name, upper()("go"))
}

// Output:
// 8 5 true
// 6 10 double GO
