package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirStructInInterfacePrintsDeclaredNames checks sbir patch 83: a
// value of a declared struct type without methods, held in an interface,
// prints with its field and type names under %+v, %#v and %T, as gc
// prints it (the output below is go run's), not with the reflect type's
// renamed fields (Xx) and no name.
func TestSbirStructInInterfacePrintsDeclaredNames(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `package main

import "fmt"

type point struct{ x, y int }

type labeled struct {
	Name string
	At   any
	tags []string
}

func show(v any) { fmt.Printf("%v|%+v|%#v|%T\n", v, v, v, v) }

func main() {
	show(point{1, 2})
	show(&point{3, 4})
	show([]point{{5, 6}})
	show(map[string]point{"k": {7, 8}})
	show(labeled{"n", point{9, 10}, []string{"t"}})
	xs := []any{point{1, 1}, 2}
	fmt.Printf("%+v\n", xs)
	fmt.Println(fmt.Sprintf("%+v", map[point]any{{1, 2}: point{3, 4}}))
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := `{1 2}|{x:1 y:2}|main.point{x:1, y:2}|main.point
&{3 4}|&{x:3 y:4}|&main.point{x:3, y:4}|*main.point
[{5 6}]|[{x:5 y:6}]|[]main.point{main.point{x:5, y:6}}|[]main.point
map[k:{7 8}]|map[k:{x:7 y:8}]|map[string]main.point{"k":main.point{x:7, y:8}}|map[string]main.point
{n {9 10} [t]}|{Name:n At:{x:9 y:10} tags:[t]}|main.labeled{Name:"n", At:main.point{x:9, y:10}, tags:[]string{"t"}}|main.labeled
[{x:1 y:1} 2]
map[{x:1 y:2}:{x:3 y:4}]
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
