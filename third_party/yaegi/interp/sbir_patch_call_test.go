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

// stringRecorder records whether it was written to with WriteString.
type stringRecorder struct {
	bytes.Buffer
	strings int
}

func (w *stringRecorder) WriteString(s string) (int, error) {
	w.strings++
	return w.Buffer.WriteString(s)
}

// TestPrintLoneString checks sbir patch 16: fmt.Print of one string
// writes it with WriteString, and everything else prints as fmt prints it
// (a named string type's String method included).
func TestPrintLoneString(t *testing.T) {
	for _, tt := range []struct {
		decl, src, want string
		direct          bool
	}{
		{"", `fmt.Print("héllo\n")`, "héllo\n", true},
		{"", `s := strings.Repeat("x", 100000); fmt.Print(s[:3])`, "xxx", true},
		{"", `fmt.Print("")`, "", true},
		{"", `fmt.Print("a", "b")`, "ab", false},
		{"", `fmt.Print(1, 2)`, "1 2", false},
		{"", `fmt.Print(42)`, "42", false},
		{"type Name string", `fmt.Print(Name("n"))`, "n", false},
		{"type Loud string\nfunc (l Loud) String() string { return strings.ToUpper(string(l)) }", `fmt.Print(Loud("quiet"))`, "QUIET", false},
		{"var v any = \"in any\"", `fmt.Print(v)`, "in any", true},
		{"", `n, err := fmt.Print("four"); fmt.Print(n, err)`, "four4 <nil>", true},
	} {
		var out stringRecorder
		i := interp.New(interp.Options{Stdout: &out})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if _, err := i.Eval("import (\n\t\"fmt\"\n\t\"strings\"\n)"); err != nil {
			t.Fatal(err)
		}
		if tt.decl != "" {
			if _, err := i.Eval(tt.decl); err != nil {
				t.Fatalf("Eval(%q): %v", tt.decl, err)
			}
		}
		if _, err := i.Eval(tt.src); err != nil {
			t.Fatalf("Eval(%q): %v", tt.src, err)
		}
		if got := out.String(); got != tt.want {
			t.Errorf("%q printed %q, want %q", tt.src, got, tt.want)
		}
		if direct := out.strings > 0; direct != tt.direct {
			t.Errorf("%q: written with WriteString %v, want %v", tt.src, direct, tt.direct)
		}
	}
}
