package interp_test

import "testing"

// TestSbirInterfaceCallRedeclaredReceiver checks sbir patch S18 (amended): a call
// through an interface runs the method declared again in a later
// evaluation with the other receiver (T to *T, *T to T) when the
// interface holds a pointer, whose method set has both, as it did before
// S18 cached the first declaration at the site; an interface holding a
// value, whose type lost the method, still fails saying why.
func TestSbirInterfaceCallRedeclaredReceiver(t *testing.T) {
	decls := []string{
		"type I interface{ M() int }", "type T struct{ x int }",
		"func (t T) M() int { return t.x + 1 }",
		"func call(i I) int { return i.M() }",
		"type S interface{ Name() string }",
		`func (t T) Name() string { return fmt.Sprint("v", t.x) }`,
		"func name(s S) string { return s.Name() }",
	}
	runRedefCases(t, []redefCase{
		{name: "value to pointer receiver, pointer held", srcs: append(decls,
			"p := &T{10}", "fmt.Println(call(p), name(p))",
			"func (t *T) M() int { t.x++; return t.x * 100 }",
			`func (t *T) Name() string { t.x++; return fmt.Sprint("p", t.x) }`,
			"fmt.Println(call(p), name(p))", "fmt.Println(p.x)",
			"func (t T) M() int { return t.x + 1000 }",
			`func (t T) Name() string { return fmt.Sprint("w", t.x) }`,
			"fmt.Println(call(p), call(T{2}), name(p), name(T{3}))"),
			want: "11 v10\n1100 p12\n12\n1012 1002 w12 w3\n"},
		{name: "value to pointer receiver, value held", srcs: append(decls,
			"fmt.Println(call(T{1}))",
			"func (t *T) M() int { t.x++; return t.x * 100 }",
			"fmt.Println(call(T{1}))"),
			want:    "2\n",
			wantErr: "T.M was declared again with another signature (func (*main.T) M() int, was func (main.T) M() int)"},
		{name: "another result, pointer held", srcs: append(decls,
			"p := &T{1}", "fmt.Println(call(p))",
			`func (t *T) M() string { return "s" }`,
			"fmt.Println(call(p))"),
			want:    "2\n",
			wantErr: "T.M was declared again with another signature (func (*main.T) M() string, was func (main.T) M() int)"},
	})
}
