// Patch 41: the first growth of a slice that does not escape its
// function takes gc's 32-byte stack buffer.
package main

import "fmt"

type pair struct{ a, b int64 }

type wide struct{ a, b, c, d, e int64 }

type Shape interface{ Area() int }

type square struct{ side int }

func (q square) Area() int { return q.side * q.side }

func ints(n int) {
	var s []int
	for i := 0; i < n; i++ {
		s = append(s, i)
		fmt.Print(" ", cap(s))
	}
	fmt.Println()
}

func bytesAndPairs() {
	b := []byte{}
	var p []pair
	var w []wide
	for i := 0; i < 40; i++ {
		b = append(b, 'x')
		if i < 5 {
			p = append(p, pair{})
			w = append(w, wide{})
			fmt.Print(" ", cap(p), "/", cap(w))
		}
	}
	fmt.Println(" bytes:", len(b), cap(b))
}

func escapes() {
	var s []int
	for i := 0; i < 3; i++ {
		s = append(s, i)
		fmt.Print(" ", cap(s))
	}
	fmt.Println(s)
}

func several() {
	s := make([]string, 0)
	s = append(s, "a", "b", "c")
	t := []int{}
	t = append(t, 1, 2, 3, 4, 5)
	fmt.Println(len(s), cap(s), len(t), cap(t))
}

func shapes() {
	var all []Shape
	for i := 0; i < 3; i++ {
		all = append(all, square{i})
		fmt.Print(" ", cap(all), all[i].Area())
	}
	fmt.Println()
}

func main() {
	shapes()
	ints(10)
	ints(3)
	bytesAndPairs()
	escapes()
	several()
}

// Output:
//  2 0 2 1 4 4
//  4 4 4 4 8 8 8 8 16 16
//  4 4 4
//  2/1 2/2 4/4 4/4 8/8 bytes: 40 64
//  1 2 4[0 1 2]
// 3 3 5 6
