package interp_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirTopLevelDefinitions checks sbir patch 51: definitions at the top
// level of an evaluation (the REPL's statements) and package-level var
// declarations take the type cfg gives their value, whatever expression
// it is; rune literals stay runes; and a script's variable named like a
// predeclared type does not hide that type from the interpreter. Each
// case is one interpreter; its sources are evaluated in order, and the
// output is what gc prints for the same statements in a func main.
func TestSbirTopLevelDefinitions(t *testing.T) {
	tests := []struct {
		name string
		srcs []string
		want string
	}{
		{"index of a call", []string{`x := strings.Split("a,b,c", ",")[1]` + "\nfmt.Println(x)"}, "b\n"},
		{"index of a variable", []string{"parts := strings.Split(\"a,b,c\", \",\")\nx := parts[0]\nfmt.Println(x, len(parts))"}, "a 3\n"},
		{"arithmetic on a compiled function's slice", []string{"xs := dat.Floats()\nv := xs[0] * 2\nfmt.Println(v)"}, "3\n"},
		{"index of a map of slices and of a string", []string{"m := map[string][]int{\"a\": {1, 2}}\nv := m[\"a\"][1] * 3\ns := \"hello\"[1]\nfmt.Printf(\"%T %v %T %v\\n\", v, v, s, s)"}, "int 6 uint8 101\n"},
		{"index through a pointer to an array", []string{"arr := [3]int{1, 2, 3}\np := &arr\ne := p[2]\nfmt.Println(e)"}, "3\n"},
		{"later evaluations and closures", []string{"z := strings.Split(\"a,b\", \",\")[1]\nf := func() string { return z + \"!\" }", "z = \"q\"\nfmt.Println(f())", "z := 5\nfmt.Println(z+1, f())"}, "q!\n6 q!\n"},
		{"rune literal", []string{"r := 'A'\nfmt.Printf(\"%T %v\\n\", r, r)"}, "int32 65\n"},
		{"rune literal, another evaluation", []string{"r := 'A'", "fmt.Printf(\"%T\\n\", r)"}, "int32\n"},
		{"package-level var from an index", []string{`var parts = strings.Split("a,b,c", ",")`, "var first = parts[0]", `var second = strings.Split("a,b,c", ",")[1]`, `var ch = "hello"[1]`, "fmt.Println(first, second, ch)"}, "a b 101\n"},
		{"variables named int and len", []string{"x := \"g\"\nfor i := 0; i < 2; i++ {\n\tx := fmt.Sprint(x, i)\n\tfmt.Println(x)\n}\nint := 5\nfmt.Println(int * 2)\nlen := func(s string) string { return \"len:\" + s }\nfmt.Println(len(\"shadowed\"))"}, "g0\ng1\n10\nlen:shadowed\n"},
		{"variables named string and byte", []string{"string := 3\nfmt.Println(string, []byte(\"ab\"))", "byte := 1\ns := \"hé\"\nfor i, r := range s {\n\tfmt.Println(i, r, byte)\n}\nb := s[1]\nfmt.Printf(\"%T\\n\", b)"}, "3 [97 98]\n0 104 1\n1 233 1\nuint8\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := newPatch51Interp(t, &out)
			for _, src := range tc.srcs {
				if _, err := i.Eval(src); err != nil {
					t.Fatalf("Eval(%q): %v", src, err)
				}
			}
			if got := out.String(); got != tc.want {
				t.Errorf("output %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSbirTopLevelUndefined checks that patch 51 leaves undefined names
// reported as such at the top level, and the type errors global analysis
// finds (untyped nil, a builtin's arguments) reported, not compiled on
// with a placeholder type (a := nil panicked in cfg).
func TestSbirTopLevelUndefined(t *testing.T) {
	for src, want := range map[string]string{
		"y := undefinedThing[0]":      "undefined: undefinedThing",
		"z := undefinedFn()[1] + 2":   "undefined: undefinedFn",
		`w := fmt.Nope("x")[0]`:       "has no symbol Nope",
		"q := 1\nq := 2":              "no new variables",
		"var v = missing[0]":          "undefined: missing",
		"k := strings.Split(1, 2)[0]": "cannot convert 1 to string",
		"a := nil":                    "use of untyped nil",
		`m := complex("test", 2)`:     "invalid types string and int",
	} {
		i := newPatch51Interp(t, new(bytes.Buffer))
		_, err := i.Eval(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Eval(%q): %v, want an error containing %q", src, err, want)
		}
	}
}

func newPatch51Interp(t *testing.T, out *bytes.Buffer) *interp.Interpreter {
	t.Helper()
	i := interp.New(interp.Options{Stdout: out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	dat := interp.Exports{"dat/dat": {"Floats": reflect.ValueOf(func() []float64 { return []float64{1.5} })}}
	if err := i.Use(dat); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`import "fmt"`, `import "strings"`, `import "dat"`} {
		if _, err := i.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	return i
}
