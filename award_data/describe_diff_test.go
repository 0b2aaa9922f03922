package award_data

import (
	"strings"
	"testing"
)

// TestDescribeMinMaxWhole: Describe's Min and Max of a text column are the
// values themselves (found by bench/differential_test.go, where DuckDB's
// min() of Award Title was the whole title and Describe's was cut to 40
// characters for the text table, in Records and ToJSON too). Printing still
// cuts them to the display width.
func TestDescribeMinMaxWhole(t *testing.T) {
	long := "Adaptive lidar processing for autonomous navigation in degraded visual environments"
	multi := "Zeta line one\r\nline two"
	f := NewFrame(Col("Title", []string{long, "B short", multi, ""}))
	d := f.Describe()
	rec := d.Records()[0]
	if rec["Min"] != long || rec["Max"] != multi {
		t.Errorf("Describe Min, Max = %q, %q; want %q, %q", rec["Min"], rec["Max"], long, multi)
	}
	if js := d.ToJSON(); !strings.Contains(js, `"Min":"`+long+`"`) {
		t.Errorf("ToJSON lacks the whole minimum: %s", js)
	}
	text := d.String()
	if strings.Contains(text, long) || !strings.Contains(text, "Adaptive lidar processing for autonom...") {
		t.Errorf("the printed table shows the long minimum uncut or not at all:\n%s", text)
	}
	if got := d.Display(DisplayOptions{TextWidth: 100, Width: 300}).String(); !strings.Contains(got, long) {
		t.Errorf("with TextWidth 100 (and Width 300) the minimum is still cut:\n%s", got)
	}
}
