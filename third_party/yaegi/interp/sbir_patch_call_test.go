package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestDirectPrintCalls checks sbir patch 14: fmt's printing functions,
// called without reflect.Value.Call, give the results, errors and output
// they give through it, nil and interface operands included.
func TestDirectPrintCalls(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`import "fmt"`,
		`var e error`,
		`var a any = 2.5`,
		`n, err := fmt.Println("a", 1, nil, e, a)`,
		`fmt.Print(n, err == nil, "\n")`,
		`s := fmt.Sprintf("%d-%s-%v", 3, "x", a)`,
		`fmt.Printf("%s %q %v\n", s, fmt.Sprint("y", 4), fmt.Sprintln(nil) == "<nil>\n")`,
		`args := []any{"z", 5}`,
		`fmt.Println(args...)`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("Eval(%q): %v", src, err)
		}
	}
	want := "a 1 <nil> <nil> 2.5\n20 true\n3-x-2.5 \"y4\" true\nz 5\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestSwitchInitThenTag checks sbir patch 15: in "switch init; tag {" the
// tag is evaluated after the init, whatever its form.
func TestSwitchInitThenTag(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`import "fmt"`,
		"func f() (r []int) {\n\tswitch s := []string{\"x\"}; len(s) {\n\tcase 1:\n\t\tr = append(r, 1)\n\t}\n\tswitch x := 1; x + 1 {\n\tcase 2:\n\t\tr = append(r, 2)\n\t}\n\tswitch x := 3; x {\n\tcase 3:\n\t\tr = append(r, 3)\n\t}\n\treturn r\n}",
		`fmt.Println(f())`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("Eval(%q): %v", src, err)
		}
	}
	if got := out.String(); got != "[1 2 3]\n" {
		t.Errorf("output %q, want %q", got, "[1 2 3]\n")
	}
}
