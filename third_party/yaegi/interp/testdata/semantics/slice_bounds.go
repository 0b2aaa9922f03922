// Patch 39: slice expressions out of range fail with gc's runtime errors.
package main

import (
	"fmt"
	"runtime"
)

func try(name string, f func()) {
	defer func() {
		r := recover()
		_, ok := r.(runtime.Error)
		fmt.Println(name, ok, r)
	}()
	f()
}

func main() {
	s := make([]int, 10, 2000)
	i, j, k, neg := 50000, 5, 3, -1
	try("s[:i]", func() { _ = s[:i] })
	try("s[j:k]", func() { _ = s[j:k] })
	try("s[i:]", func() { _ = s[i:] })
	try("s[neg:]", func() { _ = s[neg:] })
	try("s[1:2:i]", func() { _ = s[1:2:i] })
	try("s[1:i:10]", func() { _ = s[1:i:10] })
	try("s[k:2:9]", func() { _ = s[k:2:9] })
	str := "hello"
	try("str[:i]", func() { _ = str[:i] })
	try("str[6:]", func() { _ = str[j+1:] })
	arr := [4]int{}
	try("arr[:i]", func() { _ = arr[:i] })
	try("arr[j:k]", func() { _ = arr[j:k] })
	try("arr[neg:]", func() { _ = arr[neg:] })
	try("arr[1:2:i]", func() { _ = arr[1:2:i] })
	try("arr[1:j:4]", func() { _ = arr[1:j:4] })
	try("arr[k:2:4]", func() { _ = arr[k:2:4] })
	pa := &arr
	try("pa[2:i]", func() { _ = pa[2:i] })
	try("[4]int(s[:3])", func() { _ = [4]int(s[:3]) })
	fmt.Println(len(s[2:5:7]), cap(s[2:5:7]), len(arr[1:3]), str[1:3])
}

// Output:
// s[:i] true runtime error: slice bounds out of range [:50000] with capacity 2000
// s[j:k] true runtime error: slice bounds out of range [5:3]
// s[i:] true runtime error: slice bounds out of range [50000:10]
// s[neg:] true runtime error: slice bounds out of range [-1:]
// s[1:2:i] true runtime error: slice bounds out of range [::50000] with capacity 2000
// s[1:i:10] true runtime error: slice bounds out of range [:50000:10]
// s[k:2:9] true runtime error: slice bounds out of range [3:2:]
// str[:i] true runtime error: slice bounds out of range [:50000] with length 5
// str[6:] true runtime error: slice bounds out of range [6:5]
// arr[:i] true runtime error: slice bounds out of range [:50000] with length 4
// arr[j:k] true runtime error: slice bounds out of range [5:3]
// arr[neg:] true runtime error: slice bounds out of range [-1:]
// arr[1:2:i] true runtime error: slice bounds out of range [::50000] with length 4
// arr[1:j:4] true runtime error: slice bounds out of range [:5:4]
// arr[k:2:4] true runtime error: slice bounds out of range [3:2:]
// pa[2:i] true runtime error: slice bounds out of range [:50000] with length 4
// [4]int(s[:3]) true runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
// 3 5 2 el
