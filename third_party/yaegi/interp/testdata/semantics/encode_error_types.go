package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
)

type Point struct{ X, Y int }

type Count int

type Grid struct {
	Name  string
	Cells map[Point]Count
}

type Node struct {
	V    int
	Next *Node
}

type Header struct {
	Name string
	N    int32
}

type Fixed struct {
	A int32
	B [2]uint8
}

func encode(v any) {
	_, err := json.Marshal(v)
	fmt.Println(err)
}

func main() {
	_, err := json.Marshal(map[Point]int{{1, 2}: 3})
	fmt.Println(err)
	_, err = json.MarshalIndent(Grid{"g", map[Point]Count{{0, 0}: 1}}, "", " ")
	fmt.Println(err)
	n := &Node{V: 1}
	n.Next = &Node{V: 2, Next: n}
	_, err = json.Marshal(n)
	fmt.Println(err)
	var buf bytes.Buffer
	fmt.Println(json.NewEncoder(&buf).Encode([]*Node{n}))
	encode([]Grid{{"h", map[Point]Count{{1, 1}: 2}}})
	_, err = json.Marshal(struct{ C chan int }{})
	fmt.Println(err)
	_, err = json.Marshal(map[string]any{"c": Count(1), "f": func() {}})
	fmt.Println(err)
	fmt.Println(binary.Write(&buf, binary.LittleEndian, Header{"x", 1}))
	fmt.Println(binary.Write(&buf, binary.LittleEndian, &Header{"y", 2}))
	fmt.Println(binary.Write(&buf, binary.LittleEndian, Fixed{1, [2]uint8{2, 3}}), buf.Len())
	var h Header
	fmt.Println(binary.Read(bytes.NewReader(make([]byte, 8)), binary.LittleEndian, &h))
	var f Fixed
	fmt.Println(binary.Read(bytes.NewReader([]byte{1, 0, 0, 0, 5, 6}), binary.LittleEndian, &f), f)
}

// Output:
// json: unsupported type: map[main.Point]int
// json: unsupported type: map[main.Point]main.Count
// json: unsupported value: encountered a cycle via *main.Node
// json: unsupported value: encountered a cycle via *main.Node
// json: unsupported type: map[main.Point]main.Count
// json: unsupported type: chan int
// json: unsupported type: func()
// binary.Write: some values are not fixed-sized in type main.Header
// binary.Write: some values are not fixed-sized in type *main.Header
// <nil> 6
// binary.Read: invalid type *main.Header
// <nil> {1 [5 6]}
