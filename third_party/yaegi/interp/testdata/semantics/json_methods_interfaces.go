package main

import (
	"encoding/json"
	"fmt"
)

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

type Circle struct{ R float64 }

func (c Circle) Area() float64                { return 3 * c.R * c.R }
func (c Circle) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`{"circle":%g}`, c.R)), nil }

type Drawing struct {
	Main  Shape
	Parts []Shape
	Named map[string]fmt.Stringer
}

func main() {
	anys()
	d := Drawing{Main: Sq{2}, Parts: []Shape{Circle{1}, Sq{3}, nil}}
	b, err := json.Marshal(d)
	fmt.Println(string(b), err)
	var s Shape = Circle{2}
	b, err = json.Marshal(s)
	fmt.Println(string(b), err)
	b, err = json.Marshal([]Shape{Sq{1}})
	fmt.Println(string(b), err)
}

type Level int

func (l Level) MarshalJSON() ([]byte, error) { return []byte(`"L"`), nil }

type Both int

func (b Both) MarshalJSON() ([]byte, error) { return []byte(`"B"`), nil }
func (b *Both) UnmarshalJSON([]byte) error  { *b = 7; return nil }

type S struct{ L Level }

func anys() {
	b, _ := json.Marshal([]any{Level(1), Both(2), S{}})
	fmt.Println(string(b))
	b, _ = json.Marshal(map[string]any{"l": Level(1), "b": Both(2)})
	fmt.Println(string(b))
	var x any = Both(3)
	b, _ = json.Marshal(x)
	fmt.Println(string(b))
	b, _ = json.Marshal(struct{ A any }{Both(1)})
	fmt.Println(string(b))
}

// Output:
// ["L","B",{"L":"L"}]
// {"b":"B","l":"L"}
// "B"
// {"A":"B"}
// {"Main":{"S":2},"Parts":[{"circle":1},{"S":3},null],"Named":null} <nil>
// {"circle":2} <nil>
// [{"S":1}] <nil>
