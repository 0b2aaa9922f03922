// Patch 25: converting a value to an interface copies it.
package main

import "fmt"

type Shape interface{ Area() int }

type Square struct{ Side int }

func (s Square) Area() int { return s.Side * s.Side }

type Level int

func (l Level) String() string { return fmt.Sprintf("L%d", int(l)) }

type Tag struct{ n int }

func (t Tag) String() string { return fmt.Sprint("tag", t.n) }

func main() {
	sq := Square{2}
	var sh Shape = sq
	sq.Side = 10
	fmt.Println(sh.Area(), sq.Area())

	var levels []fmt.Stringer
	l := Level(1)
	levels = append(levels, l)
	l = 2
	levels = append(levels, l)
	fmt.Println(levels)

	var tags []fmt.Stringer
	for i := 0; i < 3; i++ {
		t := Tag{i}
		tags = append(tags, t)
	}
	fmt.Println(tags)

	shapes := map[string]Shape{}
	s2 := Square{3}
	shapes["a"] = s2
	s2.Side = 4
	shapes["b"] = s2
	fmt.Println(shapes["a"].Area(), shapes["b"].Area())

	p := &Square{5}
	var ps Shape = p
	p.Side = 6
	fmt.Println(ps.Area())
}

// Output:
// 4 100
// [L1 L2]
// [tag0 tag1 tag2]
// 9 16
// 36
