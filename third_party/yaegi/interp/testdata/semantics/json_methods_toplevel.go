package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Level has its UnmarshalJSON on the pointer.
type Level int

func (l Level) MarshalJSON() ([]byte, error) {
	if l > 9 {
		return nil, fmt.Errorf("level %d too high", int(l))
	}
	return []byte(strconv.Quote(fmt.Sprint("L", int(l)))), nil
}

func (l *Level) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil || len(s) < 2 || s[0] != 'L' {
		return fmt.Errorf("not a level: %s", b)
	}
	n, err := strconv.Atoi(s[1:])
	*l = Level(n)
	return err
}

// Code decodes only from text.
type Code uint16

func (c *Code) UnmarshalText(b []byte) error {
	n, err := strconv.ParseUint(string(b), 16, 16)
	*c = Code(n)
	return err
}

func main() {
	var l Level
	fmt.Println(json.Unmarshal([]byte(`"L4"`), &l), l)
	err := json.Unmarshal([]byte(`[1]`), &l)
	fmt.Printf("%v %T\n", err, err)
	b, err := json.Marshal(Level(12))
	fmt.Printf("%q %v %T\n", b, err, err)
	var me *json.MarshalerError
	fmt.Println(errors.As(err, &me), errors.Unwrap(err))
	b, err = json.Marshal([]Level{1, 2})
	fmt.Println(string(b), err)

	var c Code
	err = json.Unmarshal([]byte(`"ff"`), &c)
	fmt.Println(c, err)
	err = json.Unmarshal([]byte(`12`), &c)
	fmt.Printf("%v %T\n", err, err)
	var cs []Code
	err = json.Unmarshal([]byte(`["a", 3]`), &cs)
	fmt.Println(cs, err)
	err = json.Unmarshal([]byte(`{"a": 1`), &cs)
	fmt.Printf("%v %T\n", err, err)
	var ute *json.UnmarshalTypeError
	err = json.Unmarshal([]byte(`  {"x": [true]}`), &struct{ X []Code }{})
	fmt.Println(errors.As(err, &ute), err)
	if ute != nil {
		fmt.Println(ute.Offset, ute.Field, ute.Value)
	}
}

// Output:
// <nil> 4
// not a level: [1] *errors.errorString
// "" json: error calling MarshalJSON for type main.Level: level 12 too high *json.MarshalerError
// true level 12 too high
// ["L1","L2"] <nil>
// 255 <nil>
// json: cannot unmarshal number into Go value of type *main.Code *json.UnmarshalTypeError
// [10 0] json: cannot unmarshal number into Go value of type main.Code
// unexpected end of JSON input *json.SyntaxError
// true json: cannot unmarshal bool into Go struct field .X of type main.Code
// 13 X bool
