package sandbox

import (
	"strings"
	"testing"
)

// TestErrorPositions checks through a real worker that an error points
// at what is wrong: an award_data error at the offending argument, an
// undefined method at its name (with the method meant, pandas' names
// included), not at the start of the chain.
func TestErrorPositions(t *testing.T) {
	s := newTestSession(t, nil)
	if r := run(t, s, `f := award_data.All()`); !r.Success {
		t.Fatalf("setup: %+v", r)
	}
	tests := []struct {
		code string
		want string // in the message or the traceback
	}{
		{`award_data.Where("Agncy", "==", "x").Count()`, `at line 1, column 18, in the cell: "Agncy"`},
		{`award_data.Where("Agncy", "==", "x")`, `at line 1, column 18, in the cell: "Agncy"`},
		{"x := 1\n_ = x\naward_data.GroupBy(\"Agency\", \"Phse\").Count()", `at line 3, column 30, in the cell: "Phse"`},
		{`award_data.Sort("Award Amount", "desc")`, `at line 1, column 33, in the cell: "desc"`},
		{`award_data.Where("Agency", "=>", "x")`, `at line 1, column 28, in the cell: "=>"`},
		{`award_data.GroupBy("Agency").Sum("Award Amount").Merge(1)`, "line 1, column 50: undefined method: Merge; did you mean Join?"},
		{"y := 2\n_ = y\naward_data.GroupBy(\"Agency\").Count().pct_change(\"Count\")", "line 3, column 38: undefined method: pct_change; did you mean PctChange?"},
		{`f.Merge(f, "left", "Agency")`, "line 1, column 3: undefined method: Merge; did you mean Join"},
		{`award_data.Head(3).fillna("UEI", "none")`, "did you mean FillNull?"},
	}
	for _, tt := range tests {
		r := run(t, s, tt.code)
		if r.Success {
			t.Errorf("%s: succeeded", tt.code)
			continue
		}
		got := r.ErrorMessage + "\n" + strings.Join(r.Traceback, "\n")
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s:\n%s\nwant %q", tt.code, got, tt.want)
		}
	}
}

// TestTextValues checks that ToCSV and ToJSON as a cell's value show as
// their text, not as a quoted Go string.
func TestTextValues(t *testing.T) {
	s := newTestSession(t, nil)
	for code, want := range map[string]string{
		`award_data.ValueCounts("Phase").ToJSON()`:        `[{"Phase":"Phase I","Count":`,
		`award_data.ValueCounts("Phase").Head(1).ToCSV()`: "Phase,Count\nPhase I,",
		`"a,b"`: `"a,b"`,
		`strings.ToUpper(award_data.Head(1).ToCSV())[:7]`: `"COMPANY"`,
	} {
		r := run(t, s, code)
		if got := value(r); !strings.HasPrefix(got, want) || strings.HasSuffix(got, "\n") {
			t.Errorf("%s shows %q, want it to start with %q", code, got, want)
		}
	}
}
