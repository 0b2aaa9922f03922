package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// promotedFieldsProgram selects fields promoted through embedded structs
// beside struct fields that are not embedded (sbir patch 210): s.v is
// s.Inner.v, not s.in.v; a.v is a.Other.v (depth 1), not a.Mid.Deep.v
// (depth 2, found first depth first); through an embedded pointer and a
// recursive embedded pointer; a method of an interface embedding two
// interfaces that both have it. The wanted output is go run's.
const promotedFieldsProgram = `package main

import "fmt"

type Deep struct{ v, w int }
type Mid struct{ Deep }
type Other struct{ v int }
type Inner struct {
	b bool
	v int64
}

type S struct {
	in Inner
	Inner
}

type A struct {
	Mid
	Other
	x int
}

type P struct {
	*Mid
	q int
}

type Node struct {
	*Node
	val int
}

type I interface{ M() int }
type J interface {
	M() int
	N()
}
type K interface {
	I
	J
}
type impl struct{}

func (impl) M() int { return 7 }
func (impl) N()     {}

func (s *S) bump() int64 { s.v++; return s.v*10 + s.in.v }

func main() {
	var s S
	s.v = 5
	s.b = true
	fmt.Printf("%+v %d\n", s, s.bump())
	var a A
	a.v = 3
	a.w = 4
	fmt.Printf("%+v %d %d\n", a, a.Deep.v, a.Mid.v)
	p := P{Mid: &Mid{}}
	p.v = 9
	p.w = 1
	fmt.Println(p.Deep, p.v)
	n := Node{Node: &Node{val: 2}, val: 1}
	fmt.Println(n.val, n.Node.val)
	var k K = impl{}
	fmt.Println(k.M())
}
`

const promotedFieldsWant = `{in:{b:false v:0} Inner:{b:true v:6}} 60
{Mid:{Deep:{v:0 w:4}} Other:{v:3} x:0} 0 0
{9 1} 9
1 2
7
`

func TestSbirPromotedFields(t *testing.T) {
	if got := runProgram(t, promotedFieldsProgram); got != promotedFieldsWant {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, promotedFieldsWant)
	}
}

// TestSbirPromotedFieldsRefused checks selectors gc refuses (sbir patch
// 210): a field of a field that is not embedded, and a field promoted
// from two embedded structs at the same depth, directly or through the
// same struct embedded twice. Each compiled, selecting one of the
// fields.
func TestSbirPromotedFieldsRefused(t *testing.T) {
	for _, tc := range []struct{ name, decls string }{
		{"not embedded", "type In struct{ v int }\ntype X struct{ in In }"},
		{"two at depth 1", "type A1 struct{ v int }\ntype A2 struct{ v int }\ntype X struct{ A1; A2 }"},
		{"one type twice at depth 1", "type D struct{ v int }\ntype A1 struct{ D }\ntype A2 struct{ D }\ntype X struct{ A1; A2 }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			_, err := i.Eval("package main\n\n" + tc.decls + "\n\nfunc main() {\n\tvar x X\n\tx.v = 1\n\tprintln(x.v)\n}\n")
			if err == nil || !strings.Contains(err.Error(), "undefined selector: v") {
				t.Errorf("error %v, want undefined selector: v (output %q)", err, out.String())
			}
		})
	}
}
