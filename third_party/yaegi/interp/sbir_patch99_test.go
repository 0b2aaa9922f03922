package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirTypeParamNamedLikeType checks sbir patch 99: a generic
// function's type parameter named like a type the program declares (T, K)
// is that type parameter in the function's signature only; elsewhere the
// name is the declared type (the want text is go run's). Without the
// patch the type parameter took the package-level name's place: T{1}
// failed with "undefined type". Also split into evaluations as notebook
// cells are: the type first, then the generics, then the calls.
func TestSbirTypeParamNamedLikeType(t *testing.T) {
	src := `package main

import "fmt"

type T struct{ n int }

type K string

func Identity[T any](x T) T { return x }

func Keys[K comparable, V any](m map[K]V) int { return len(m) }

type Pair[T any] struct{ a, b T }

func (p Pair[T]) Swap() Pair[T] { return Pair[T]{p.b, p.a} }

func Last[T any](xs ...T) T { return xs[len(xs)-1] }

func main() {
	fmt.Println(Identity(3), Identity(T{1}), Identity[T](T{2}))
	fmt.Println(Keys(map[K]int{"a": 1}), Keys(map[int]T{1: {}}))
	fmt.Println(Pair[T]{T{3}, T{4}}.Swap(), Pair[int]{1, 2}.Swap())
	fmt.Println(Last(T{5}, T{6}), Last("x", "y"))
	var k K = "key"
	t := T{7}
	fmt.Printf("%v %T %v %T\n", k, k, t, t)
}
`
	want := `3 {1} {2}
1 1
{{4} {3}} {2 1}
{6} y
key main.K {7} main.T
`
	cells := []string{
		"import \"fmt\"\n\ntype T struct{ n int }\n\ntype K string\n",
		src[strings.Index(src, "func Identity"):strings.Index(src, "func main")],
		src[strings.Index(src, "func main"):], // declaring main runs it
	}
	for _, form := range [][]string{{src}, cells} {
		var out bytes.Buffer
		i := interp.New(interp.Options{Stdout: &out})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		for k, c := range form {
			if _, err := i.Eval(c); err != nil {
				t.Fatalf("evaluation %d of %d: %v", k+1, len(form), err)
			}
		}
		if got := out.String(); got != want {
			t.Errorf("%d evaluations: output:\n%s\nwant:\n%s", len(form), got, want)
		}
	}
}
