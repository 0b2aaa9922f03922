package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirGenericMethodsOfLaterEvaluations checks sbir patch 90: methods
// declared (in a later evaluation, as a notebook's next cell) on a generic
// type that a declaration has instantiated already belong to that
// instance, pointer receivers included. The output is go run's for the
// same declarations and statements as one program.
func TestSbirGenericMethodsOfLaterEvaluations(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		out   string
	}{
		{"pointer and value receivers", []string{
			`import "fmt"`,
			`type Box[T any] struct{ v T }
type Holder struct{ B Box[int] }`,
			`func (b *Box[T]) Set(v T) { b.v = v }
func (b Box[T]) Get() T { return b.v }`,
			`var h Holder`,
			`h.B.Set(4)`,
			`fmt.Println(h.B.Get())`,
			`p := &Box[string]{}`,
			`p.Set("s")`,
			`fmt.Println(p.Get())`,
		}, "4\ns\n"},
		{"json.Unmarshal finds the method", []string{
			`import ("encoding/json"; "fmt")`,
			`type Set[T comparable] struct{ n int }
type Team struct{ Members Set[string] }`,
			`func (s *Set[T]) UnmarshalJSON(b []byte) error { var xs []T; err := json.Unmarshal(b, &xs); s.n = len(xs); return err }`,
			`var u Team`,
			`err := json.Unmarshal([]byte(` + "`" + `{"Members":["a","b"]}` + "`" + `), &u)`,
			`fmt.Println(u.Members.n, err)`,
		}, "2 <nil>\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.steps {
				if _, err := i.Eval(s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			if out.String() != tc.out {
				t.Errorf("output %q, want %q", out.String(), tc.out)
			}
		})
	}
}
