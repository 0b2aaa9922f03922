// Patch 35: tuple assignments assign every pair: through pointers to
// empty interfaces, with calls or composite literals among constants,
// and to map entries from a call's results.
package main

import (
	"fmt"
	"strconv"
)

type S struct{ k int }

type Shape interface{ Area() int }

type Sq struct{ side int }

func (q Sq) Area() int { return q.side * q.side }

func pair() (int, string) { return 1, "one" }

func one() int { return 1 }

func main() {
	var a, b interface{}
	pa, pb := &a, &b
	*pa, *pb = pair()
	*pa, *pb = *pb, *pa
	fmt.Println(a, b)

	var n, m int
	m, n = one(), 5
	fmt.Println(m, n)
	n, m = 6, one()
	fmt.Println(m, n)
	s, k := S{2}, 3
	fmt.Println(s, k)
	var e error
	e, n = fmt.Errorf("e%d", 1), 7
	fmt.Println(e, n)
	var sh, sh2 Shape = Sq{2}, Sq{3}
	sh, n = Sq{4}, 8
	fmt.Println(sh.Area(), sh2.Area(), n)
	ch := make(chan int, 1)
	ch <- 11
	r, m2 := <-ch, 9
	fmt.Println(r, m2)

	entries := map[string]any{}
	entries["n"], entries["s"] = pair()
	nums := map[string]int{}
	var err error
	nums["x"], err = strconv.Atoi("42")
	fmt.Println(entries, nums, err)
}

// Output:
// one 1
// 1 5
// 1 6
// {2} 3
// e1 7
// 16 9 8
// 11 9
// map[n:1 s:one] map[x:42] <nil>
