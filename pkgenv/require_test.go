package pkgenv

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestParseRequirements(t *testing.T) {
	tests := []struct {
		name string
		code string
		want []string // "path@version:line"
	}{
		{"none", "fmt.Println(1)", nil},
		{"one", "//sbir:require github.com/montanaflynn/stats v0.7.1\nimport \"github.com/montanaflynn/stats\"\n", []string{"github.com/montanaflynn/stats@v0.7.1:1"}},
		{"at form", "\n  //sbir:require example.com/m@v1.2.3\n", []string{"example.com/m@v1.2.3:2"}},
		{"several and duplicates", "//sbir:require a.example/x v1.0.0\n//sbir:require b.example/y v0.1.0-20240101000000-abcdefabcdef\n//sbir:require a.example/x v1.0.0\n",
			[]string{"a.example/x@v1.0.0:1", "b.example/y@v0.1.0-20240101000000-abcdefabcdef:2"}},
		{"incompatible", "//sbir:require example.com/old v3.0.0+incompatible", []string{"example.com/old@v3.0.0+incompatible:1"}},
		{"major suffix", "//sbir:require example.com/m/v2 v2.1.0", []string{"example.com/m/v2@v2.1.0:1"}},
		{"trailing comment is not a directive", "x := 1 //sbir:require example.com/m v1.0.0\n", nil},
		{"block comment is not a directive", "/*\n//sbir:require example.com/m v1.0.0\n*/", nil},
		{"string is not a directive", "s := `\n//sbir:require example.com/m v1.0.0\n`", nil},
		{"ordinary comments", "// sbir is great\n// TODO: require more\n//go:build ignore\n", nil},
		{"unparseable code", "func (\n//sbir:require example.com/m v1.0.0\n", []string{"example.com/m@v1.0.0:2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reqs, errs := ParseRequirements(tc.code)
			if len(errs) != 0 {
				t.Fatalf("errors: %v", errs)
			}
			var got []string
			for _, r := range reqs {
				got = append(got, fmt.Sprintf("%s:%d", r, r.Line))
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("ParseRequirements = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestParseRequirementsErrors checks the messages for malformed
// directives against testdata/directive_errors.golden.
func TestParseRequirementsErrors(t *testing.T) {
	cells := []string{
		"//sbir:requires github.com/montanaflynn/stats v0.7.1",
		"// sbir:require github.com/montanaflynn/stats v0.7.1",
		"//sbir-require github.com/montanaflynn/stats v0.7.1",
		"//sbir:reqiure github.com/montanaflynn/stats v0.7.1",
		"//sbir:require",
		"//sbir:require github.com/montanaflynn/stats",
		"//sbir:require github.com/montanaflynn/stats latest",
		"//sbir:require github.com/montanaflynn/stats v0.7",
		"//sbir:require github.com/montanaflynn/stats 0.7.1",
		"//sbir:require github.com/montanaflynn/stats V0.7.1",
		"//sbir:require github.com/montanaflynn/stats v0.7.1 v0.7.2",
		"//sbir:require github.com/x/y v2.0.0",
		"//sbir:require Not A Path",
		"//sbir:require example.com/bad!path v1.0.0",
		"//sbir:require example.com/m v1.0.0\n//sbir:require example.com/m v1.1.0",
	}
	var b strings.Builder
	for _, c := range cells {
		_, errs := ParseRequirements(c)
		fmt.Fprintf(&b, "cell:\n%s\nerrors:\n", c)
		if len(errs) == 0 {
			t.Errorf("cell %q: no error", c)
		}
		for _, err := range errs {
			fmt.Fprintf(&b, "%v\n", err)
		}
		b.WriteString("\n")
	}
	golden := filepath.Join("testdata", "directive_errors.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestParseRequirementsErrors -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("messages differ from %s (rerun with -update if the change is intended):\n%s", golden, b.String())
	}
}

func TestDirectiveErrorFields(t *testing.T) {
	_, errs := ParseRequirements("x := 1\n\t//sbir:requires example.com/m v1.0.0\n")
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want 1", errs)
	}
	de, ok := errs[0].(*DirectiveError)
	if !ok {
		t.Fatalf("error is %T, want *DirectiveError", errs[0])
	}
	if de.Line != 2 || de.Column != 2 || de.Fix != "//sbir:require example.com/m v1.0.0" {
		t.Errorf("DirectiveError = %+v, want line 2, column 2 and a fix", de)
	}
}

func FuzzParseRequirements(f *testing.F) {
	f.Add("//sbir:require github.com/montanaflynn/stats v0.7.1\n")
	f.Add("// sbir:require x@v1\n/* //sbir:require y v1.0.0 */")
	f.Add("//sbir:requires a b c\n`\n//sbir:require`")
	f.Fuzz(func(t *testing.T, code string) {
		reqs, errs := ParseRequirements(code)
		lines := strings.Count(code, "\n") + 1
		for _, r := range reqs {
			if r.Line < 1 || r.Line > lines {
				t.Errorf("requirement %v on line %d of %d", r, r.Line, lines)
			}
			if _, err := normalize([]Requirement{r}); err != nil {
				t.Errorf("ParseRequirements accepted %v, which Ensure refuses: %v", r, err)
			}
		}
		for _, err := range errs {
			if _, ok := err.(*DirectiveError); !ok {
				t.Errorf("error %v is %T, want *DirectiveError", err, err)
			}
		}
	})
}
