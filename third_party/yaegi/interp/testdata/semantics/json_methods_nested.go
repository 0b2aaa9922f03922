package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

type Grade int

func (g Grade) MarshalJSON() ([]byte, error) {
	if g < 0 {
		return nil, errors.New("negative grade")
	}
	return json.Marshal(strings.Repeat("*", int(g)))
}

func (g *Grade) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*g = -1
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	*g = Grade(len(s))
	return nil
}

// Stamp has a MarshalJSON on the pointer only: gc calls it for
// addressable values alone.
type Stamp struct{ Day, Month int }

func (s *Stamp) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"%02d/%02d"`, s.Day, s.Month)), nil
}

type Review struct {
	Title  string           `json:"title"`
	Grade  Grade            `json:"grade"`
	Extra  *Grade           `json:"extra,omitempty"`
	When   Stamp            `json:"when"`
	Scores []Grade          `json:"scores"`
	Pair   [2]Grade         `json:"pair"`
	ByUser map[string]Grade `json:"by_user"`
	Notes  any              `json:"notes,omitempty"`
}

type Shelf struct {
	Review
	Owner string
}

func main() {
	two := Grade(2)
	r := Review{Title: "Dune", Grade: 3, Extra: &two, When: Stamp{7, 3},
		Scores: []Grade{1, 2}, Pair: [2]Grade{0, 4}, ByUser: map[string]Grade{"ann": 5, "bo": 1}}
	b, err := json.Marshal(r)
	fmt.Println(string(b), err)
	b, err = json.Marshal(&r)
	fmt.Println(string(b), err)
	b, err = json.MarshalIndent(Shelf{Review: r, Owner: "lee"}, "", "  ")
	fmt.Println(string(b), err)

	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetIndent(">", "\t")
	fmt.Println(enc.Encode([]Review{{Title: "<a&b>", Grade: 1}}))
	enc = json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	fmt.Println(enc.Encode(map[string]any{"r": &Review{Title: "<x>", Notes: []int{1}}}))
	fmt.Print(sb.String())

	bad := Review{Scores: []Grade{1, -2}}
	b, err = json.Marshal(bad)
	fmt.Printf("%q %v\n", b, err)
	var me *json.MarshalerError
	fmt.Println(errors.As(err, &me))

	var back Review
	err = json.Unmarshal([]byte(`{"title":"X","grade":"**","extra":"****","scores":["*","***",null],"pair":["**"],"by_user":{"z":"*****"},"when":{"Day":9}}`), &back)
	fmt.Println(back.Title, back.Grade, *back.Extra, back.Scores, back.Pair, back.ByUser, back.When, err)
	err = json.Unmarshal([]byte(`{"grade":null,"extra":null}`), &back)
	fmt.Println(back.Grade, back.Extra, err)
	err = json.Unmarshal([]byte(`{"title":"Y","grade":7}`), &back)
	fmt.Println(back.Title, back.Grade, err)
	err = json.Unmarshal([]byte(`{"title":5,"grade":"*"}`), &back)
	fmt.Println(back.Title, back.Grade, err)

	var sh Shelf
	dec := json.NewDecoder(strings.NewReader(`{"Owner":"kim","grade":"***","scores":["**"]} {"Owner":"x","bogus":1}`))
	dec.DisallowUnknownFields()
	fmt.Println(dec.Decode(&sh), sh.Owner, sh.Grade, sh.Scores)
	fmt.Println(dec.Decode(&sh), sh.Owner)
}

// Output:
// {"title":"Dune","grade":"***","extra":"**","when":{"Day":7,"Month":3},"scores":["*","**"],"pair":["","****"],"by_user":{"ann":"*****","bo":"*"}} <nil>
// {"title":"Dune","grade":"***","extra":"**","when":"07/03","scores":["*","**"],"pair":["","****"],"by_user":{"ann":"*****","bo":"*"}} <nil>
// {
//   "title": "Dune",
//   "grade": "***",
//   "extra": "**",
//   "when": {
//     "Day": 7,
//     "Month": 3
//   },
//   "scores": [
//     "*",
//     "**"
//   ],
//   "pair": [
//     "",
//     "****"
//   ],
//   "by_user": {
//     "ann": "*****",
//     "bo": "*"
//   },
//   "Owner": "lee"
// } <nil>
// <nil>
// <nil>
// [
// >	{
// >		"title": "\u003ca\u0026b\u003e",
// >		"grade": "*",
// >		"when": "00/00",
// >		"scores": null,
// >		"pair": [
// >			"",
// >			""
// >		],
// >		"by_user": null
// >	}
// >]
// {"r":{"title":"<x>","grade":"","when":"00/00","scores":null,"pair":["",""],"by_user":null,"notes":[1]}}
// "" json: error calling MarshalJSON for type main.Grade: negative grade
// true
// X 2 4 [1 3 -1] [2 0] map[z:5] {9 0} <nil>
// -1 <nil> <nil>
// Y -1 grade: json: cannot unmarshal number into Go value of type string
// Y 1 json: cannot unmarshal number into Go struct field Review.title of type string
// <nil> kim 3 [2]
// json: unknown field "bogus" x
