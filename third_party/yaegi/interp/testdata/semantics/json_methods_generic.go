package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Set is a set encoded as a sorted JSON array.
type Set[T comparable] struct {
	items map[T]bool
}

func NewSet[T comparable](xs []T) Set[T] {
	s := Set[T]{items: map[T]bool{}}
	for _, x := range xs {
		s.items[x] = true
	}
	return s
}

func (s Set[T]) MarshalJSON() ([]byte, error) {
	var parts []string
	for x := range s.items {
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		parts = append(parts, string(b))
	}
	sort.Strings(parts)
	return []byte("[" + strings.Join(parts, ",") + "]"), nil
}

func (s *Set[T]) UnmarshalJSON(b []byte) error {
	var xs []T
	if err := json.Unmarshal(b, &xs); err != nil {
		return err
	}
	*s = NewSet(xs)
	return nil
}

func (s Set[T]) Len() int { return len(s.items) }

type Pair[K comparable, V any] struct {
	Key  K `json:"k"`
	Vals V `json:"v"`
}

type Team struct {
	Name    string                   `json:"name"`
	Members Set[string]              `json:"members"`
	Codes   *Set[int]                `json:"codes,omitempty"`
	Groups  []Pair[string, Set[int]] `json:"groups"`
}

func main() {
	codes := NewSet([]int{3, 1, 2})
	t := Team{Name: "core", Members: NewSet([]string{"lin", "ada"}), Codes: &codes,
		Groups: []Pair[string, Set[int]]{{"odd", NewSet([]int{5, 3})}, {"none", NewSet([]int{})}}}
	b, err := json.Marshal(t)
	fmt.Println(string(b), err)

	var u Team
	err = json.Unmarshal(b, &u)
	fmt.Println(u.Name, u.Members.Len(), u.Codes.Len(), len(u.Groups), u.Groups[0].Vals.Len(), err)
	b2, _ := json.Marshal(u)
	fmt.Println(string(b2) == string(b))

	var ps []Pair[int, Set[string]]
	err = json.Unmarshal([]byte(`[{"k":1,"v":["b","a","b"]},{"k":2,"v":null}]`), &ps)
	fmt.Println(len(ps), ps[0].Key, ps[0].Vals.Len(), ps[1].Vals.Len(), err)
	b, err = json.Marshal(ps)
	fmt.Println(string(b), err)
}

// Output:
// {"name":"core","members":["ada","lin"],"codes":[1,2,3],"groups":[{"k":"odd","v":[3,5]},{"k":"none","v":[]}]} <nil>
// core 2 3 2 2 <nil>
// true
// 2 1 2 0 <nil>
// [{"k":1,"v":["a","b"]},{"k":2,"v":[]}] <nil>
