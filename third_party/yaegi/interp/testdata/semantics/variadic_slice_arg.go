// Patch 29: a slice passed without ... to a variadic parameter of its
// own type is one argument.
package main

import "fmt"

func count(args ...any) int { return len(args) }

type T struct{}

func (T) Count(args ...any) int { return len(args) }

func main() {
	xs := []any{1, 2, 3}
	fmt.Println(count(xs), count(xs...), count(), count(xs, xs))
	var t T
	fmt.Println(t.Count(xs), t.Count(xs...))
	f := func(a ...any) int { return len(a) }
	fmt.Println(f(xs), f(xs...))
}

// Output:
// 1 3 0 2
// 1 3
// 1 3
