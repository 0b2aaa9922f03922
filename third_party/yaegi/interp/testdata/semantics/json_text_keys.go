package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Cell is a spreadsheet cell: column letter and row, "B7" as text.
type Cell struct {
	Col byte
	Row int
}

func (c Cell) MarshalText() ([]byte, error) {
	return []byte(string(rune(c.Col)) + strconv.Itoa(c.Row)), nil
}

func (c *Cell) UnmarshalText(b []byte) error {
	if len(b) < 2 {
		return fmt.Errorf("bad cell %q", b)
	}
	n, err := strconv.Atoi(string(b[1:]))
	if err != nil {
		return fmt.Errorf("bad row in %q", b)
	}
	c.Col, c.Row = b[0], n
	return nil
}

// Unit is an int key with a text form.
type Unit int

func (u Unit) MarshalText() ([]byte, error) { return []byte("u" + strconv.Itoa(int(u))), nil }

// Tag is a string key: gc uses the string itself, not MarshalText.
type Tag string

func (t Tag) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(t))), nil }

type Sheet struct {
	Values map[Cell]float64 `json:"values"`
	Focus  Cell             `json:"focus"`
	Marks  []Cell           `json:"marks"`
	Units  map[Unit]string  `json:"units"`
	Tags   map[Tag]int      `json:"tags"`
}

func main() {
	s := Sheet{
		Values: map[Cell]float64{{'A', 1}: 1.5, {'B', 10}: -2, {'B', 2}: 0},
		Focus:  Cell{'C', 3},
		Marks:  []Cell{{'A', 1}},
		Units:  map[Unit]string{2: "two", 10: "ten"},
		Tags:   map[Tag]int{"x": 1},
	}
	b, err := json.Marshal(s)
	fmt.Println(string(b), err)

	var t Sheet
	err = json.Unmarshal(b, &t)
	fmt.Println(t.Values[Cell{'B', 10}], t.Focus, t.Marks, t.Units, t.Tags, err)
	err = json.Unmarshal([]byte(`{"values":{"Z":1}}`), &t)
	fmt.Println(err)
	err = json.Unmarshal([]byte(`{"focus":12}`), &t)
	fmt.Println(err)
}

// Output:
// {"values":{"A1":1.5,"B10":-2,"B2":0},"focus":"C3","marks":["A1"],"units":{"u10":"ten","u2":"two"},"tags":{"x":1}} <nil>
// -2 {67 3} [{65 1}] map[] map[x:1] json: cannot unmarshal number u10 into Go struct field Sheet.units of type main.Unit
// bad cell "Z"
// json: cannot unmarshal number into Go struct field Sheet.focus of type main.Cell
