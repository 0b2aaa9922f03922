package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The corpus in testdata/corpus holds tiny cells, yaegi-style: a file's
// code is followed by "// Output:" (stdout, then the value of the last
// expression) or "// Error:" (a line contained in "Name: message").
// "// -- cell --" lines split a file into cells run in one session; the
// expectation applies to the last cell and earlier ones must succeed.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.cell")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	s := newTestSession(t, nil)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".cell"), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cells, kind, want := parseCorpus(string(b))
			if kind == "" {
				t.Fatalf("%s: no // Output: or // Error: block", f)
			}
			for i, cell := range cells[:len(cells)-1] {
				if r := run(t, s, cell); !r.Success {
					t.Fatalf("setup cell %d failed: %s: %s", i+1, r.ErrorName, r.ErrorMessage)
				}
			}
			r := run(t, s, cells[len(cells)-1])
			switch kind {
			case "Output":
				if !r.Success {
					t.Fatalf("failed: %s: %s", r.ErrorName, r.ErrorMessage)
				}
				got := r.Stdout
				if v := value(r); v != "" {
					got += v + "\n"
				}
				if strings.TrimSpace(got) != strings.TrimSpace(want) {
					t.Errorf("output:\n%s\nwant:\n%s", got, want)
				}
			case "Error":
				if r.Success {
					t.Fatalf("succeeded with output %q, want error %q", r.Stdout, want)
				}
				if got := r.ErrorName + ": " + r.ErrorMessage; !strings.Contains(got, strings.TrimSpace(want)) {
					t.Errorf("error:\n%s\nwant it to contain:\n%s", got, want)
				}
			}
		})
	}
}

// parseCorpus splits a corpus file into its cells and its expectation.
func parseCorpus(src string) (cells []string, kind, want string) {
	lines := strings.Split(src, "\n")
	var code []string
	var exp []string
	for _, line := range lines {
		switch {
		case kind == "" && (line == "// Output:" || line == "// Error:"):
			kind = strings.TrimSuffix(strings.TrimPrefix(line, "// "), ":")
		case kind != "":
			exp = append(exp, strings.TrimPrefix(strings.TrimPrefix(line, "//"), " "))
		case line == "// -- cell --":
			cells = append(cells, strings.Join(code, "\n"))
			code = nil
		default:
			code = append(code, line)
		}
	}
	cells = append(cells, strings.Join(code, "\n"))
	return cells, kind, strings.Join(exp, "\n")
}
