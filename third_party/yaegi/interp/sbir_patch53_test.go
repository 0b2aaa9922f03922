package interp_test

import "testing"

// TestSbirRedefinedTypes checks sbir patch 53: a type declared again in a
// later evaluation is a new type (it was taken for the old one, so a
// literal of the new one failed with "too many values"); values, functions
// and methods of the old type keep it; code compiled for the old type
// refuses a value of the new one, saying why; and methods declared before
// the new type in its evaluation are the new type's.
func TestSbirRedefinedTypes(t *testing.T) {
	runRedefCases(t, []redefCase{
		{name: "a field more", srcs: []string{
			"type kv struct{ k string; n int }", `a := kv{"a", 1}`,
			"type kv struct{ k string; n int; p float64 }", `b := kv{"b", 2, 2.5}`, "fmt.Println(a, b, b.p)"},
			want: "{a 1} {b 2 2.5} 2.5\n"},
		{name: "old values keep their methods", srcs: []string{
			"type kv struct{ k string; n int }", `func (x kv) String() string { return x.k + "=" + fmt.Sprint(x.n) }`,
			`a := kv{"a", 1}`,
			`func (x kv) String() string { return "<" + x.k + ">" }` + "\ntype kv struct{ k string; n int; p float64 }",
			`b := kv{"b", 2, 2.5}`, "fmt.Println(a, b)"},
			want: "a=1 <b>\n"},
		{name: "same layout", srcs: []string{
			"type P struct{ X, Y int }", "func sum(p P) int { return p.X + p.Y }",
			"type P struct{ X, Y int }", "fmt.Println(sum(P{1, 2}))"},
			want: "3\n"},
		{name: "code compiled for the old type", srcs: []string{
			"type kv struct{ k string; n int }", "func show(x kv) string { return x.k }",
			"type kv struct{ k string; n int; p float64 }", `fmt.Println(show(kv{"b", 2, 2.5}))`},
			wantErr: "cannot use this main.kv as the main.kv declared before it was declared again"},
		{name: "mutually recursive types declared once", srcs: []string{`package main

import "fmt"

type S struct{ ts map[string][]*T }

type T struct{ s *S }

func main() {
	s := &S{ts: map[string][]*T{}}
	s.ts["a"] = append(s.ts["a"], &T{s: s})
	fmt.Println(len(s.ts["a"]))
}`},
			want: "1\n"},
	})
}
