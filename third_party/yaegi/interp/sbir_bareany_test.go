package interp_test

import (
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// bareAnySrc gives values of defined types without methods, held in
// interfaces, to compiled code that reads them (sbir patch 204);
// bareAnyWant is what go run printed for it.
const bareAnySrc = `package main

import (
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"text/template"
)

type code int

type label string

type row struct {
	Name  string
	Value any
}

func main() {
	var out strings.Builder
	var x any = code(5)
	var l any = label("lab")
	tmpl := template.Must(template.New("t").Parse("{{.}}|{{range .}}{{.}};{{end}}\n"))
	tmpl.Execute(&out, []any{x, l, 3})
	tmpl2 := template.Must(template.New("t2").Parse("{{.a}} {{.b}} {{index .c 0}} {{.d.Value}}\n"))
	tmpl2.Execute(&out, map[string]any{"a": x, "b": l, "c": []any{code(7)}, "d": row{"r", code(8)}})
	b, err := json.Marshal(x)
	fmt.Println(string(b), err)
	b, err = json.Marshal([]any{x, l, row{"j", code(9)}})
	fmt.Println(string(b), err)
	log.SetOutput(&out)
	log.SetFlags(0)
	log.Println(x, l)
	log.Printf("%v %d", x, x)
	fmt.Println(strings.Repeat("-", 3), x, l)
	fmt.Print(out.String())
}
`

const bareAnyWant = `5 <nil>
[5,"lab",{"Name":"j","Value":9}] <nil>
--- 5 lab
[5 lab 3]|5;lab;3;
5 lab 7 8
5 lab
5 5
`

// TestSbirCompiledReadersSeeBareValues checks sbir patch 204: templates
// (at every depth of their data), encoding/json and log get a value of a
// defined type without methods that an interface holds as the value, as
// before patch 200 kept such values in valueInterfaces. The output is go
// run's.
func TestSbirCompiledReadersSeeBareValues(t *testing.T) {
	if got := runProgram(t, bareAnySrc); got != bareAnyWant {
		t.Errorf("output:\n%s\nwant (go run):\n%s", got, bareAnyWant)
	}
}

// TestSbirBareValues checks interp.BareValues (sbir patch 204), with
// which a host reads an evaluation's value by reflection.
func TestSbirBareValues(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("type code int\ntype celsius int\nfunc (c celsius) String() string { return \"C\" }"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want any
	}{
		{"any(code(1))", 1},
		{"[]any{code(1), 2}", []any{1, 2}},
		{"map[string]any{\"a\": code(3)}", map[string]any{"a": 3}},
		{"[1]any{code(4)}", [1]any{4}},
	} {
		v, err := i.Eval(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		got := interp.BareValues(v)
		if !got.IsValid() || !got.CanInterface() || !reflect.DeepEqual(got.Interface(), c.want) {
			t.Errorf("BareValues(%s) = %#v, want %#v", c.src, got, c.want)
		}
	}
	// A value of a type with methods keeps its wrapper: compiled code
	// that shows it finds its methods through the host's MapTypes.
	v, err := i.Eval("[]any{celsius(1)}")
	if err != nil {
		t.Fatal(err)
	}
	if got := interp.BareValues(v); got.Index(0).Elem().Kind() != reflect.Struct {
		t.Errorf("BareValues([]any{celsius(1)}) unwrapped the celsius: %#v", got)
	}
}
