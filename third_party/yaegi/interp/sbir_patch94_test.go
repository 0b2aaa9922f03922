package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirRefuseAssertionToUnderlying checks sbir patch 94: with
// Options.RefuseIndistinctTypes, an assertion (or type switch case) from
// an empty interface to a type that also represents a defined type
// without methods is refused when the program stores values of that
// defined type in empty interfaces: `v.(string)` on `var v any =
// Code("x")` was true where gc's is false. Each store below is one way a
// value reaches an empty interface; each case without an error runs and
// prints what go run prints. Without the patch every refused case runs.
func TestSbirRefuseAssertionToUnderlying(t *testing.T) {
	const code = "type Code string\n"
	isStr := "func isStr(v any) bool { _, ok := v.(string); return ok }\n"
	tests := []struct {
		name   string
		cells  []string
		refuse string
		out    string
	}{
		{"var of type any", []string{code, `var v any = Code("x")`, `s, ok := v.(string)`}, "type assertion to string from an empty interface: this program stores values of type main.Code", ""},
		{"assignment", []string{code, `func f() any { var v any; v = Code("x"); return v }`, isStr}, "type assertion to string", ""},
		{"slice literal", []string{code, `xs := []any{Code("a"), "b"}`, `for _, x := range xs { switch x.(type) { case string: fmt.Println("string") } }`}, "type assertion to string", ""},
		{"map value", []string{code + isStr, `m := map[string]any{"k": Code("q")}; fmt.Println(isStr(m["k"]))`}, "cannot tell the two apart", ""},
		{"struct field", []string{code + "type Box struct{ V any }\n" + isStr, `fmt.Println(isStr(Box{V: Code("b")}.V))`}, "cannot tell the two apart", ""},
		{"argument", []string{code + isStr, `fmt.Println(isStr(Code("a")))`}, "cannot tell the two apart", ""},
		{"variadic argument", []string{code + "func count(xs ...any) int { n := 0; for _, x := range xs { if _, ok := x.(string); ok { n++ } }; return n }\n", `fmt.Println(count(Code("a"), "b"))`}, "cannot tell the two apart", ""},
		{"return value", []string{code + isStr + "func get() any { return Code(\"r\") }\n"}, "type assertion to string", ""},
		{"append", []string{code + isStr, `xs := []any{}
xs = append(xs, Code("a"))
fmt.Println(isStr(xs[0]))`}, "cannot tell the two apart", ""},
		{"channel", []string{code + isStr, `ch := make(chan any, 1)
ch <- Code("c")
fmt.Println(isStr(<-ch))`}, "cannot tell the two apart", ""},
		{"conversion", []string{code + isStr, `fmt.Println(isStr(any(Code("c"))))`}, "cannot tell the two apart", ""},
		{"compiled container", []string{code + isStr, `l := list.New()
l.PushBack(Code("c"))
fmt.Println(isStr(l.Front().Value))`}, "cannot tell the two apart", ""},
		{"slice type", []string{"type IDs []int\n", `var v any = IDs{1}`, `_, ok := v.([]int)`}, "type assertion to []int", ""},
		{"assertion in an earlier cell", []string{code + isStr, `var v any = Code("x")`}, "a value of type main.Code (underlying string) stored in an empty interface: an earlier cell asserts string", ""},
		{"printed only", []string{code + isStr, `c := Code("x")
fmt.Println(c, isStr("y"))
fmt.Printf("%v %s\n", c, c)`}, "", "x true\nx x\n"},
		{"with a method", []string{code + "func (c Code) Len() int { return len(c) }\n" + isStr, `v := any(Code("x"))
fmt.Println(isStr(v), isStr("y"))`}, "", "false true\n"},
		{"other underlying type", []string{code + "func isInt(v any) bool { _, ok := v.(int); return ok }\n", `v := any(Code("x"))
fmt.Println(isInt(v), isInt(3))`}, "", "false true\n"},
		{"converted before storing", []string{code + isStr, `v := any(string(Code("x")))
fmt.Println(isStr(v))`}, "", "true\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, RefuseIndistinctTypes: true})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval("import (\n\t\"container/list\"\n\t\"fmt\"\n)\nvar _ = list.New\n"); err != nil {
				t.Fatal(err)
			}
			var err error
			for k, src := range tc.cells {
				if _, err = i.Eval(src); err != nil && k < len(tc.cells)-1 {
					t.Fatalf("cell %d: %v", k+1, err)
				}
			}
			switch {
			case tc.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refuse != "" && err == nil:
				t.Fatalf("ran (output %q), want an error containing %q", out.String(), tc.refuse)
			case tc.refuse != "" && !strings.Contains(err.Error(), tc.refuse):
				t.Fatalf("error %q, want it to contain %q", err, tc.refuse)
			case tc.refuse != "" && !strings.Contains(err.Error(), "struct type"):
				t.Fatalf("error %q names no rewrite", err)
			}
			if out.String() != tc.out {
				t.Errorf("output %q, want %q", out.String(), tc.out)
			}
		})
	}
}
