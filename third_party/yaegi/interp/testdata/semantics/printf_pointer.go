// Patch 30: %p prints the address of a pointer to an interpreted type.
package main

import (
	"fmt"
	"strings"
)

type Node struct{ V int }

func main() {
	a := &Node{1}
	b := a
	c := &Node{1}
	pa, pb, pc := fmt.Sprintf("%p", a), fmt.Sprintf("%p", b), fmt.Sprintf("%p", c)
	fmt.Println(strings.HasPrefix(pa, "0x"), pa == pb, pa == pc)
	fmt.Println(fmt.Sprintf("%#p", a) == strings.TrimPrefix(pa, "0x"))
	var nilNode *Node
	fmt.Printf("%p %v\n", nilNode, a)
}

// Output:
// true true false
// true
// 0x0 &{1}
