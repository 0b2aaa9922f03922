package mcpserver

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/cellresult"
	"github.com/sbirtools/sbir-kernel/dataset"
)

// exactCells are frames a cell builds whose values are hard to carry
// exactly; each is built the same way in this process for comparison.
var exactCells = map[string]string{
	"extremes": `award_data.NewFrame(
	award_data.Col("int", []any{int64(math.MinInt64), int64(math.MaxInt64), 0, nil, int64(1<<53 + 1), -7}),
	award_data.Col("float", []any{math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64, nil, 0.1 + 0.2}),
	award_data.Col("tiny", []float64{1e-300, -2.2250738585072014e-308, 1e21, 123456789.12345678, math.Copysign(0, -1), 148309}),
	award_data.Col("text", []any{strings.Repeat("long text é漢 ", 3000), "quote \" backslash \\ newline \n tab \t nul \x00", "\u2028\u2029<&>", nil, "", "plain"}),
	award_data.Col("date", []any{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Time{}, time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), nil}),
)`,
	"award rows": `award_data.Where("Award Amount", "not null", nil).Select("Company", "Agency", "Phase", "Award Year", "Award Amount", "Proposal Award Date", "Number Employees", "UEI", "Abstract").Head(40)`,
	"computed":   `award_data.GroupBy("Agency", "Phase").Agg("count() as N", "mean(Award Amount) as Mean", "sum(Award Amount) as Sum", "std(Award Amount) as Std").Compute("Ratio", "Sum", "/", "N")`,
	"shares":     `award_data.GroupBy("State").Share("Woman Owned", "==", "Y")`,
}

// inProcess builds the frames of exactCells with award_data in this
// process, over the same data file the sessions map.
func inProcess(t *testing.T) map[string]award_data.Frame {
	ds, err := dataset.OpenFile(testData.ArrowPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	if err := award_data.Use(ds); err != nil {
		t.Fatal(err)
	}
	text := []any{strings.Repeat("long text é漢 ", 3000), "quote \" backslash \\ newline \n tab \t nul \x00", "\u2028\u2029<&>", nil, "", "plain"}
	return map[string]award_data.Frame{
		"extremes": award_data.NewFrame(
			award_data.Col("int", []any{int64(math.MinInt64), int64(math.MaxInt64), 0, nil, int64(1<<53 + 1), -7}),
			award_data.Col("float", []any{math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64, nil, 0.1 + 0.2}),
			award_data.Col("tiny", []float64{1e-300, -2.2250738585072014e-308, 1e21, 123456789.12345678, math.Copysign(0, -1), 148309}),
			award_data.Col("text", text),
			award_data.Col("date", []any{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Time{}, time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), nil}),
		),
		"award rows": award_data.Where("Award Amount", "not null", nil).Select("Company", "Agency", "Phase", "Award Year", "Award Amount", "Proposal Award Date", "Number Employees", "UEI", "Abstract").Head(40),
		"computed":   award_data.GroupBy("Agency", "Phase").Agg("count() as N", "mean(Award Amount) as Mean", "sum(Award Amount) as Sum", "std(Award Amount) as Std").Compute("Ratio", "Sum", "/", "N"),
		"shares":     award_data.GroupBy("State").Share("Woman Owned", "==", "Y"),
	}
}

// TestRecordsExact: frame.records, as an MCP client receives them, hold
// the engine's values exactly, over every column type: integers to the
// last digit, floats to the bit (the infinities as "Infinity" and
// "-Infinity"), text whole, dates to the day, nulls as null. (Cells cannot
// put a NaN in a frame: NewFrame and Compute store it as null; the
// representation's "NaN" is tested in award_data.)
func TestRecordsExact(t *testing.T) {
	_, cs := connect(t, nil)
	want := inProcess(t)
	for name, code := range exactCells {
		t.Run(name, func(t *testing.T) {
			out := runGoExact(t, cs, map[string]any{"code": code, "max_rows": 1000})
			f := out.Frame
			w := want[name]
			if !out.Success || f == nil {
				t.Fatalf("%+v", out)
			}
			if strings.Join(f.Columns, "|") != strings.Join(w.Columns(), "|") || f.Rows != w.Len() || len(f.Records) != w.Len() || f.Truncated {
				t.Fatalf("columns %q, %d of %d rows; want %q, %d", f.Columns, len(f.Records), f.Rows, []string(w.Columns()), w.Len())
			}
			for k, rec := range w.Records() {
				for col, v := range rec {
					if !sameValue(f.Records[k][col], v) {
						t.Errorf("row %d %q: %#v, the engine has %#v", k, col, f.Records[k][col], v)
					}
				}
			}
		})
	}
}

// runGoExact calls run_go and decodes the result from the JSON text the
// server sent, numbers as their text: the SDK's decoded structured
// content has them as float64 already, an int64 past 2^53 changed.
func runGoExact(t *testing.T, cs *mcp.ClientSession, args map[string]any) *cellresult.Result {
	t.Helper()
	res := call(t, cs, "run_go", args, nil)
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	var out cellresult.Result
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("the result text: %v\n%.300s", err, text)
	}
	return &out
}

// sameValue compares a record's value as the client received it (numbers
// as their JSON text) with the engine's Go value.
func sameValue(got, want any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case string:
		return got == w
	case int64:
		n, ok := got.(json.Number)
		return ok && string(n) == strconv.FormatInt(w, 10)
	case float64:
		switch {
		case math.IsInf(w, 1):
			return got == "Infinity"
		case math.IsInf(w, -1):
			return got == "-Infinity"
		}
		n, ok := got.(json.Number)
		if !ok {
			return false
		}
		g, err := strconv.ParseFloat(string(n), 64)
		return err == nil && math.Float64bits(g) == math.Float64bits(w)
	case time.Time:
		return got == w.Format("2006-01-02")+"T00:00:00.000"
	}
	return false
}

// TestSpoofedTableThroughWorker runs issue 29's attack for real: a cell
// whose own type's MIMEBundle returns award_data's table markup with
// 1e-1000000% cells, and one that forges a table representation. The
// server reads no HTML and takes the forged table only within its bounds;
// the session goes on.
func TestSpoofedTableThroughWorker(t *testing.T) {
	_, cs := connect(t, nil)
	cell := `type T struct{}
func (T) MIMEBundle() map[string]any {
	var b strings.Builder
	b.WriteString("<div>\n<table class=\"dataframe\" border=\"1\">\n<thead>\n<tr style=\"text-align: right;\">\n<th></th>\n")
	for j := 0; j < 150; j++ { fmt.Fprintf(&b, "<th>c%d</th>\n", j) }
	b.WriteString("</tr>\n</thead>\n<tbody>\n")
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, "<tr>\n<th>%d</th>\n", i)
		for j := 0; j < 150; j++ { b.WriteString("<td>1e-1000000%</td>\n") }
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n<p>10 rows × 150 columns</p>\n</div>")
	return map[string]any{"text/plain": "T", "text/html": b.String()}
}
T{}`
	start := time.Now()
	out, _ := runGo(t, cs, map[string]any{"code": cell, "session": "s"})
	if !out.Success || out.Frame != nil || out.Value != "T" {
		t.Fatalf("%+v", out)
	}
	t.Logf("the attack's call took %v in all (the worker's rendering included)", time.Since(start))

	forged := `type F struct{}
func (F) MIMEBundle() map[string]any {
	var data []map[string]any
	for i := 0; i < 3000; i++ {
		data = append(data, map[string]any{"a": json.RawMessage("1e-1000000"), "b": json.RawMessage("1e1000000")})
	}
	return map[string]any{"text/plain": "F", "application/vnd.dataresource+json": map[string]any{
		"schema": map[string]any{"fields": []any{map[string]any{"name": "a", "type": "number"}}},
		"data": data,
	}}
}
F{}`
	out, _ = runGo(t, cs, map[string]any{"code": forged, "session": "s", "max_rows": 1000})
	if !out.Success || out.Frame != nil {
		t.Fatalf("a forged table with an extra key and an overflowing number was read: %+v", out.Frame)
	}
	out, _ = runGo(t, cs, map[string]any{"code": "1 + 1", "session": "s"})
	if out.Value != "2" {
		t.Fatalf("the session after the attack: %+v", out)
	}
}

// TestCheatSheetRuns runs every line of the cheat sheet in run_go's
// description: an agent copying one gets a result, not an error.
func TestCheatSheetRuns(t *testing.T) {
	_, cs := connect(t, nil)
	runGo(t, cs, map[string]any{"code": `f := award_data.All()
other := award_data.ValueCounts("Agency")
a, b := award_data.Head(2), award_data.Tail(2)`, "session": "sheet"})
	lines := strings.Split(cheatSheet, "\n")
	if len(lines) < 30 {
		t.Errorf("%d lines; the description promises the 30 most used calls", len(lines))
	}
	for _, line := range lines {
		code, _, _ := strings.Cut(line, "  //")
		code = strings.TrimSpace(code)
		out, _ := runGo(t, cs, map[string]any{"code": code, "session": "sheet"})
		if !out.Success {
			t.Errorf("%s: %+v", code, out.Error)
		}
	}
}

// TestSyntheticNotice: on the synthetic sample, describe_data and the
// first run_go of each session say so and how to serve the real data;
// later calls do not repeat it, and real data gets no notice.
func TestSyntheticNotice(t *testing.T) {
	s, cs := connect(t, nil)
	for _, session := range []string{"a", "b"} {
		first, _ := runGo(t, cs, map[string]any{"code": "1", "session": session})
		second, _ := runGo(t, cs, map[string]any{"code": "1", "session": session})
		if !strings.Contains(first.Notice, "synthetic") || !strings.Contains(first.Notice, "SBIR_CSV_PATH") || second.Notice != "" {
			t.Errorf("session %s: first notice %q, second %q", session, first.Notice, second.Notice)
		}
	}
	var d DataDescription
	call(t, cs, "describe_data", nil, &d)
	if !strings.Contains(d.Notice, "SBIR_CSV_PATH") || !strings.Contains(s.instructions(), "SBIR_CSV_PATH") {
		t.Errorf("describe_data notice %q; instructions %q", d.Notice, s.instructions())
	}
	real := *testData
	real.Synthetic, real.Kind = false, dataset.SourceCSVPath
	s2, cs2 := connect(t, func(o *Options) { o.Data = &real })
	out, _ := runGo(t, cs2, map[string]any{"code": "1"})
	var d2 DataDescription
	call(t, cs2, "describe_data", nil, &d2)
	if out.Notice != "" || d2.Notice != "" || strings.Contains(s2.instructions(), "synthetic") {
		t.Errorf("real data: notice %q, describe %q", out.Notice, d2.Notice)
	}
	if want := cellresult.SyntheticNotice(testData.Rows); !strings.Contains(want, fmt.Sprint(testData.Rows/1000)) {
		t.Errorf("the notice does not give the sample's size: %q", want)
	}
}
