package interp_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// Patch 42: fmt.Print, Sprint and Fprint space operands of a defined
// string type as gc does (no space next to a string).
func TestSbirPrintSpacingOfDefinedStrings(t *testing.T) {
	i, out, _ := newTestInterp(t)
	// As the sandbox does: fmt's printing functions see interpreted
	// String and Format methods.
	mt := map[reflect.Value][]reflect.Type{}
	for _, f := range []any{fmt.Print, fmt.Sprint, fmt.Fprint, fmt.Println} {
		mt[reflect.ValueOf(f)] = []reflect.Type{reflect.TypeOf((*fmt.Formatter)(nil)).Elem(), reflect.TypeOf((*fmt.Stringer)(nil)).Elem()}
	}
	if err := i.Use(interp.Exports{".": {"MapTypes": reflect.ValueOf(mt)}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`import ("fmt"; "strings")`,
		`type Name string`,
		`type Named string`,
		`func (n Named) String() string { return "<" + string(n) + ">" }`,
		`func run() {
	fmt.Print(Name("a"), 1, Name("b"), "\n")
	fmt.Println(fmt.Sprint(Name("x"), 2, 3, Named("y"), 4))
	var b strings.Builder
	fmt.Fprint(&b, 5, Name("z"), 6)
	fmt.Println(b.String())
	var a any = Name("q")
	fmt.Print(7, a, 8, "\n")
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	// What gc prints.
	if got, want := out.String(), "a1b\nx2 3<y>4\n5z6\n7q8\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
