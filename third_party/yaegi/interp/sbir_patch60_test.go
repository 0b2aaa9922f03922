package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirRefuseIndistinctTypes checks sbir patch 60: with
// Options.RefuseIndistinctTypes, a type assertion or type switch case from
// an empty or compiled interface to a defined non-struct type, or to the
// underlying type of one the program declares, is a compile error naming
// the construct and the rewrite; the assertions the interpreter answers
// exactly (or that are left to run, see docs/fidelity.md) still run. Each cell list is evaluated in a fresh interpreter;
// refuse is the error the last cell gives ("" for none), out what it prints.
func TestSbirRefuseIndistinctTypes(t *testing.T) {
	tests := []struct {
		name   string
		cells  []string
		refuse string
		out    string
	}{
		{"case of a defined rune", []string{`type Code rune`, `func kind(e any) string {
	switch e.(type) {
	case Code:
		return "Code"
	}
	return "other"
}`}, "type switch case Code: a value of type Code (underlying int32) cannot be told apart", ""},
		{"assignment switch", []string{`type Level int`, `func f(e any) { switch x := e.(type) { case int: _ = x; case Level: } }`}, "type switch case Level: a value of type Level (underlying int)", ""},
		{"assertion to the defined type", []string{`type IDs []int`, `var v any = IDs{1}`, `_, ok := v.(IDs)`}, "type assertion to IDs", ""},
		{"from a compiled interface", []string{`type Errno uint8
func (e Errno) Error() string { return "errno" }
type Status uint8
func (s Status) Error() string { return "status" }`, `func f(err error) bool { _, ok := err.(Errno); return ok }`}, "type assertion to Errno", ""},
		{"local type", []string{`func f(v any) bool { type K string; _, ok := v.(K); return ok }`}, "type assertion to K", ""},
		{"from an interpreted interface", []string{`type Namer interface{ Name() string }`, `type Planet string
func (p Planet) Name() string { return string(p) }`, `var n Namer = Planet("Earth")`, `p, ok := n.(Planet)`, `fmt.Println(p, ok)`}, "", "Earth true\n"},
		{"no defined type shares it", []string{`type Pair struct{ a, b int }`, `func kind(v any) string {
	switch v.(type) {
	case int:
		return "int"
	case string:
		return "string"
	case Pair:
		return "Pair"
	}
	return "other"
}`, `p := Pair{}`, `fmt.Println(kind(1), kind("s"), kind(p), kind(2.5))`}, "", "int string Pair other\n"},
		{"one error type from error", []string{`type Errno uint8
func (e Errno) Error() string { return "errno" }`, `func f(err error) bool { _, ok := err.(Errno); return ok }`, `fmt.Println(f(Errno(2)))`}, "", "true\n"},
		{"underlying type of a key type without methods", []string{`type ctxKey string`, `var v any = "ada"`, `s, _ := v.(string)`, `fmt.Println(s)`}, "", "ada\n"},
		{"switch on the underlying type of a type with methods", []string{`type Celsius float64
func (c Celsius) String() string { return "C" }`, `func f(v any) string { switch v.(type) { case float64: return "float64" }; return "other" }`, `fmt.Println(f(2.5), f(1))`}, "", "float64 other\n"},
		{"a value kept with its type", []string{`type Planet string
func (p Planet) Name() string { return string(p) }`, `func isStr(v any) bool { _, ok := v.(string); return ok }
func isPlanet(v any) bool { _, ok := v.(Planet); return ok }`, `var a any = Planet("V")`, `fmt.Println(isStr(Planet("V")), isStr(a), isPlanet(a), isStr("x"))`}, "", "false false true true\n"},
		{"other underlying types", []string{`type Celsius float64`, `var v any = 3`, `_, ok := v.(int)
fmt.Println(ok)`}, "", "true\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, RefuseIndistinctTypes: true})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(`import "fmt"`); err != nil {
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
				t.Fatalf("ran, want an error containing %q", tc.refuse)
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
