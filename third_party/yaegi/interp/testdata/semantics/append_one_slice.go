// Patch 40: append(s, t) with t of the slice's type appends t itself.
package main

import "fmt"

func main() {
	var rows []any
	row := []any{1, "a"}
	rows = append(rows, row)
	rows = append(rows, row...)
	fmt.Println(len(rows), rows)
	var items []interface{}
	items = append(items, []interface{}{}, []byte("hi"))
	fmt.Println(len(items))
	b := append([]byte("x"), "yz"...)
	fmt.Println(string(b))
}

// Output:
// 3 [[1 a] 1 a]
// 2
// xyz
