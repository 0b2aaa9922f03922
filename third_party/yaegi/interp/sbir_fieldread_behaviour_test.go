package interp_test

import "testing"

// TestSbirIndexFieldRead runs programs reading and writing s[i].f, which
// sbir patch S10b reads in one step: reads of slices and arrays (and
// through a pointer to an array), nested fields, writes, increments and
// addresses of such fields, copies that must stay copies, indexes out of
// range in both operands (the left one panics), less functions of
// sort.Slice and sort.SliceStable, recursion (frames used again, S8) and
// goroutines reading the same slice. The wanted outputs are go run's
// (Go 1.26).
func TestSbirIndexFieldRead(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"reads, writes and panics", `package main

import (
	"fmt"
	"sort"
)

type inner struct{ a, b int }
type rec struct {
	id    int
	name  string
	in    inner
	score float64
}
type withPtr struct {
	*inner
	k int
}

func sumIDs(rs []rec) int {
	t := 0
	for i := 0; i < len(rs); i++ {
		t += rs[i].id
	}
	return t
}

func main() {
	recs := []rec{{1, "a", inner{1, 2}, 0.5}, {2, "b", inner{3, 4}, 1.5}, {3, "c", inner{5, 6}, -1}}
	arr := [3]rec{{7, "x", inner{}, 0}, {8, "y", inner{9, 9}, 1}, {9, "z", inner{}, 2}}
	pa := &arr
	s := 0
	for i := range recs {
		s += recs[i].id*10 + recs[i].in.a
	}
	fmt.Println(s, recs[1].name, arr[2].id, pa[1].in.b, recs[len(recs)-1].score)
	recs[0].id = 100
	recs[1].in.b++
	arr[0].name += "!"
	pa[2].score *= 4
	k := 2
	p := &recs[k].in.a
	*p = 55
	fmt.Println(recs, arr)
	x := recs[k-2].id
	recs[0].id = 1
	fmt.Println(x, recs[0].id)
	sort.Slice(recs, func(i, j int) bool { return recs[i].score > recs[j].score })
	fmt.Println(recs)
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		i := 5
		fmt.Println(recs[i].id)
	}()
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		i := -1
		fmt.Println(recs[i+0].name)
	}()
	wp := []withPtr{{nil, 1}, {&inner{4, 5}, 2}}
	j := 1
	fmt.Println(wp[j].a, wp[j].k)
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		i, j := 7, 9
		fmt.Println(recs[i].id + recs[j].id)
	}()
	fmt.Println(sumIDs(recs), sumIDs(recs[:1]))
}
`, `69 b 9 9 -1
[{100 a {1 2} 0.5} {2 b {3 5} 1.5} {3 c {55 6} -1}] [{7 x! {0 0} 0} {8 y {9 9} 1} {9 z {0 0} 8}]
100 1
[{2 b {3 5} 1.5} {1 a {1 2} 0.5} {3 c {55 6} -1}]
recovered: runtime error: index out of range [5] with length 3
recovered: runtime error: index out of range [-1]
4 2
recovered: runtime error: index out of range [7] with length 3
6 2`},
		{"copies, callbacks, recursion and goroutines", `package main

import (
	"fmt"
	"sort"
	"strings"
)

type inner struct{ a, b int }
type rec struct {
	id int
	in inner
}

func depth(rs []rec, i int) int {
	if i >= len(rs) {
		return 0
	}
	return rs[i].id + depth(rs, i+1)
}

func main() {
	recs := []rec{{1, inner{1, 2}}, {2, inner{3, 4}}, {3, inner{5, 6}}}
	i := 1
	a := recs[i].in
	recs[i].in.a = 9
	fmt.Println(a, recs[i].in)
	recs[i].in = inner{7, 8}
	recs[i].id++
	recs[i].id += recs[i-1].id
	fmt.Println(recs)
	var got []int
	for len(recs) > 0 {
		j := 0
		got = append(got, recs[j].id)
		recs = recs[1:]
	}
	fmt.Println(got)
	rs := make([]rec, 6)
	for k := range rs {
		rs[k].id = (k * 7) % 6
		rs[k].in.b = k
	}
	sort.SliceStable(rs, func(x, y int) bool { return rs[x].id%3 < rs[y].id%3 })
	fmt.Println(rs, depth(rs, 0))
	done := make(chan int)
	for g := 0; g < 4; g++ {
		go func(g int) {
			s := 0
			for n := 0; n < 1000; n++ {
				s += rs[n%6].in.b * g
			}
			done <- s
		}(g)
	}
	total := 0
	for g := 0; g < 4; g++ {
		total += <-done
	}
	fmt.Println(total)
	words := []struct{ w string; n int }{{"b", 2}, {"a", 2}, {"c", 5}}
	sort.Slice(words, func(x, y int) bool {
		if words[x].n != words[y].n {
			return words[x].n > words[y].n
		}
		return words[x].w < words[y].w
	})
	fmt.Println(words, strings.Repeat(words[i].w, words[i].n))
}
`, `{3 4} {9 4}
[{1 {1 2}} {4 {7 8}} {3 {5 6}}]
[1 4 3]
[{0 {0 0}} {3 {0 3}} {1 {0 1}} {4 {0 4}} {2 {0 2}} {5 {0 5}}] 15
14988
[{c 5} {a 2} {b 2}] aa`},
	})
}
