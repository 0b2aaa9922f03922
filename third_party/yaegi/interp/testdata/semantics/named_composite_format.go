// Patch 32: %T and %#v name a defined slice, array or map type.
package main

import "fmt"

type bookcase [3]int
type names []string
type counts map[string]int
type grid [2][2]int

// buffer is a defined slice type that is an io.Writer.
type buffer []byte

func (b *buffer) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

func main() {
	b := bookcase{1, 2}
	fmt.Printf("%#v %T\n", b, b)
	fmt.Printf("%#v %T\n", names{"a"}, names{})
	fmt.Printf("%#v %T\n", counts{"k": 1}, counts{})
	fmt.Printf("%#v\n", grid{})
	fmt.Printf("%#v\n", []bookcase{b})
	fmt.Println(b, names{"x", "y"})
	type local [2]int
	var out buffer
	fmt.Fprintf(&out, "%#v %T", local{7}, local{})
	fmt.Println(string(out))
}

// Output:
// main.bookcase{1, 2, 0} main.bookcase
// main.names{"a"} main.names
// main.counts{"k":1} main.counts
// main.grid{[2]int{0, 0}, [2]int{0, 0}}
// []main.bookcase{main.bookcase{1, 2, 0}}
// [1 2 0] [x y]
// main.local{7, 0} main.local
