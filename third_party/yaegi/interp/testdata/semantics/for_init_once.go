// Patch 26: the init statement of a loop without condition or post
// statement runs once.
package main

import "fmt"

func main() {
	n := 0
	for j := 10; ; {
		j--
		n++
		if j < 7 {
			break
		}
	}
	fmt.Println(n)
	for k := 3; ; {
		k--
		if k == 0 {
			break
		}
		fmt.Println("k", k)
		continue
	}
}

// Output:
// 4
// k 2
// k 1
