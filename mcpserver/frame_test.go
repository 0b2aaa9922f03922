package mcpserver

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/dataset"
)

// TestParseFrameAgainstRecords renders frames with award_data in this
// process and checks that parseFrame reads back what Frame.Records holds:
// the elided rows and columns left out, text exact (up to the table's
// 100-character cut), numbers within the display's rounding.
func TestParseFrameAgainstRecords(t *testing.T) {
	ds, err := dataset.OpenFile(testData.ArrowPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if err := award_data.Use(ds); err != nil {
		t.Fatal(err)
	}
	frames := map[string]award_data.Frame{
		"all columns":  award_data.Head(3),
		"gap rows":     award_data.Head(50).Select("Company", "Award Amount", "Award Year", "Proposal Award Date", "UEI"),
		"value counts": award_data.ValueCounts("Agency"),
		"share":        award_data.GroupBy("Phase").Share("Agency", "==", "Department of Defense"),
		"mean":         award_data.GroupBy("State").Mean("Award Amount"),
		"empty":        award_data.Where("Award Year", "<", 0),
	}
	for name, fr := range frames {
		t.Run(name, func(t *testing.T) {
			h, _ := fr.MIMEBundle()["text/html"].(string)
			got := parseFrame(h, 1000)
			if got == nil {
				t.Fatalf("not parsed:\n%s", h)
			}
			cols := []string(fr.Columns())
			if got.Rows != fr.Len() || got.TotalColumns != len(cols) {
				t.Fatalf("size %d x %d, want %d x %d", got.Rows, got.TotalColumns, fr.Len(), len(cols))
			}
			wantCols := cols
			if len(cols) > 20 {
				wantCols = append(append([]string{}, cols[:10]...), cols[len(cols)-10:]...)
			}
			if strings.Join(got.Columns, "|") != strings.Join(wantCols, "|") {
				t.Fatalf("columns %q, want %q", got.Columns, wantCols)
			}
			var wantIndex []int
			for k := 0; k < fr.Len(); k++ {
				if fr.Len() <= 20 || k < 10 || k >= fr.Len()-10 {
					wantIndex = append(wantIndex, k)
				}
			}
			if fmt.Sprint(got.Index) != fmt.Sprint(wantIndex) && !(len(got.Index) == 0 && len(wantIndex) == 0) {
				t.Fatalf("index %v, want %v", got.Index, wantIndex)
			}
			if got.Truncated != (fr.Len() > 20 || len(cols) > 20) {
				t.Errorf("truncated %v", got.Truncated)
			}
			recs := fr.Records()
			for r, idx := range got.Index {
				for _, c := range got.Columns {
					checkCell(t, fmt.Sprintf("row %d %q", idx, c), got.Records[r][c], recs[idx][c])
				}
			}
		})
	}
}

func checkCell(t *testing.T, where string, got, want any) {
	t.Helper()
	if want == nil {
		if got != nil {
			t.Errorf("%s: %v, want null", where, got)
		}
		return
	}
	switch w := want.(type) {
	case string:
		g, _ := got.(string)
		if g != w && !(strings.HasSuffix(g, "…") && strings.HasPrefix(w, strings.TrimSuffix(g, "…"))) {
			t.Errorf("%s: %q, want %q", where, g, w)
		}
	case float64, int64, int:
		n, ok := got.(json.Number)
		if !ok {
			t.Errorf("%s: %#v, want the number %v", where, got, w)
			return
		}
		g, _ := n.Float64()
		wf := toFloat(w)
		if math.Abs(g-wf) > 0.5+1e-3*math.Abs(wf) && math.Abs(g-wf) > 0.0005 {
			t.Errorf("%s: %v, want %v", where, g, wf)
		}
	default:
		if fmt.Sprint(got) != fmt.Sprint(w) && !strings.HasPrefix(fmt.Sprint(w), fmt.Sprint(got)) {
			t.Errorf("%s: %v (%T), want %v (%T)", where, got, got, w, w)
		}
	}
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case int:
		return float64(x)
	}
	return math.NaN()
}
