package main

import (
	"encoding/json"
	"fmt"
)

type Both int

func (b Both) MarshalJSON() ([]byte, error) { return []byte(`"B"`), nil }
func (b *Both) UnmarshalJSON([]byte) error  { *b = 7; return nil }

type Plain struct{ X Both }
type Twin struct{ X Both }

func wrap(v any) any { return v }

func main() {
	var xs []any
	xs = append(xs, Both(1))
	m := map[string]any{}
	m["a"] = Both(2)
	b, _ := json.Marshal(xs)
	fmt.Println(string(b))
	b, _ = json.Marshal(m)
	fmt.Println(string(b))
	b, _ = json.Marshal(wrap(Both(3)))
	fmt.Println(string(b))
	b, _ = json.Marshal([]any{wrap(Both(4)), wrap(Plain{5})})
	fmt.Println(string(b))
	b, _ = json.Marshal(wrap(Twin{6}))
	fmt.Println(string(b))
}

// Output:
// ["B"]
// {"a":"B"}
// "B"
// ["B",{"X":"B"}]
// {"X":"B"}
