// Patch 38: a declared function or method expression in parentheses is
// the function, in a go statement, a call or a tuple definition.
package main

import (
	"fmt"
	"sync"
)

type S struct{ k int }

func (s S) Add(x int) int { return x + s.k }

func double(x int) int { return 2 * x }

func main() {
	f, n := (double), 4
	g, h := (S.Add), S{10}
	fmt.Println(f(n), g(h, 1), (double)(5), (S.Add)(S{1}, 1))
	var wg sync.WaitGroup
	out := make([]int, 2)
	wg.Add(2)
	go (func(x int) { out[0] = double(x); wg.Done() })(3)
	go func(s S) { out[1] = S.Add(s, 5); wg.Done() }(S{2})
	wg.Wait()
	fmt.Println(out)
}

// Output:
// 8 11 10 2
// [6 7]
