package cellprep_test

import (
	"go/parser"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
)

func TestHelpQuery(t *testing.T) {
	tests := []struct {
		code   string
		expr   string
		detail int
		ok     bool
	}{
		{"award_data.Where?", "award_data.Where", 0, true},
		{"award_data.Where??", "award_data.Where", 1, true},
		{"  award_data.GroupBy(\"Agency\").Sum?\n", `award_data.GroupBy("Agency").Sum`, 0, true},
		{"?strings.Split", "strings.Split", 0, true},
		{"??df", "df", 1, true},
		{"df ?", "df", 0, true},
		{"frames[\"a\"].Head?", `frames["a"].Head`, 0, true},
		{"award_data.\n\tWhere(\"A\", \"==\", \"x\").\n\tCount?", "award_data.\n\tWhere(\"A\", \"==\", \"x\").\n\tCount", 0, true},
		{"x := 1", "", 0, false},
		{"?", "", 0, false},
		{"??", "", 0, false},
		{"df???", "", 0, false},
		{"1 + 2?", "", 0, false},
		{`"text"?`, "", 0, false},
		{"fmt.Println(\"why?\")", "", 0, false},
		{"x := 1\ndf?", "", 0, false},
		{"?df?", "", 0, false},
		{strings.Repeat("a", 5000) + "?", "", 0, false},
	}
	for _, tc := range tests {
		expr, detail, ok := cellprep.HelpQuery(tc.code)
		if expr != tc.expr || detail != tc.detail || ok != tc.ok {
			t.Errorf("HelpQuery(%q) = %q %d %v, want %q %d %v", tc.code, expr, detail, ok, tc.expr, tc.detail, tc.ok)
		}
	}
	if status, _ := cellprep.IsComplete("award_data.Where?"); status != "complete" {
		t.Errorf("IsComplete of a help query = %q", status)
	}
}

// FuzzHelpQuery checks that a help query is never a cell that would run:
// what HelpQuery takes does not prepare as Go, and its expression parses.
func FuzzHelpQuery(f *testing.F) {
	for _, s := range []string{"award_data.Where?", "?df", "x??", "f(1)?", "a[1]?", "x := 1", "fmt.Println(\"?\")"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		expr, detail, ok := cellprep.HelpQuery(code)
		if !ok {
			return
		}
		if detail != 0 && detail != 1 {
			t.Fatalf("detail %d", detail)
		}
		if _, err := parser.ParseExpr(expr); err != nil {
			t.Fatalf("HelpQuery(%q) = %q, which does not parse: %v", code, expr, err)
		}
		if _, err := cellprep.Prepare(code, cellprep.NewState()); err == nil {
			t.Fatalf("HelpQuery takes %q, which is a valid cell", code)
		}
	})
}
