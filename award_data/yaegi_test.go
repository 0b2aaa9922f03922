package award_data_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/display"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// cellRunner runs cells in a sandbox session over the fixture, the way
// the kernel runs them: yaegi in the worker with the generated symbol
// table, so variadic and interface-typed calls go through reflect as
// they do in notebooks.
type cellRunner struct {
	t testing.TB
	s *sandbox.Session
}

func newCellRunner(t testing.TB) *cellRunner {
	t.Helper()
	s, err := sandbox.NewSession(context.Background(), sandbox.Options{DataPath: award_data.FixtureArrow()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &cellRunner{t: t, s: s}
}

// run runs code and returns its standard output, or the cell's error.
func (r *cellRunner) run(code string, h *sandbox.Handlers) (string, error) {
	r.t.Helper()
	res, err := r.s.Run(context.Background(), code, h)
	if err != nil {
		r.t.Fatalf("%s: %v", code, err)
	}
	if !res.Success {
		return res.Stdout, fmt.Errorf("%s: %s", res.ErrorName, res.ErrorMessage)
	}
	return res.Stdout, nil
}

// TestThroughYaegi runs the API as cells do and compares with the same
// calls made from compiled code.
func TestThroughYaegi(t *testing.T) {
	r := newCellRunner(t)
	tests := []struct {
		code string
		want any
	}{
		{`award_data.Count()`, award_data.Count()},
		{`len(award_data.Columns())`, len(award_data.Columns())},
		{`award_data.Strings("Company")[3]`, award_data.Strings("Company")[3]},
		{`award_data.Head(3).String()`, award_data.Head(3).String()},
		{`award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()`, award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()},
		{`award_data.Where("Agency", "in", []string{"Department of Energy", "National Science Foundation"}).Count()`, award_data.Where("Agency", "in", []string{"Department of Energy", "National Science Foundation"}).Count()},
		{`award_data.Where("Award Year", "between", []int{2010, 2015}).Len()`, award_data.Where("Award Year", "between", []int{2010, 2015}).Len()},
		{`award_data.Where("Proposal Award Date", ">=", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)).Count()`, award_data.Where("Proposal Award Date", ">=", "2020-01-01").Count()},
		{`award_data.Where("Abstract", "contains", "LiDAR").Count()`, award_data.Where("Abstract", "contains", "lidar").Count()},
		{`award_data.GroupBy("Agency").Sum("Award Amount").String()`, award_data.GroupBy("Agency").Sum("Award Amount").String()},
		{`award_data.Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20).String()`,
			award_data.Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20).String()},
		{`award_data.GroupBy("Award Year", "Phase").Count().Len()`, award_data.GroupBy("Award Year", "Phase").Count().Len()},
		{`award_data.Filter(func(r award_data.Row) bool { return r.Float("Award Amount") > 1e6 }).Count()`, award_data.Where("Award Amount", ">", 1e6).Count()},
		{`award_data.Filter(func(r award_data.Row) bool { return strings.HasPrefix(r.String("Company"), "A") }).Count()`, award_data.Where("Company", "prefix", "A").Where("Company", "matches", "^A").Count()},
		{`award_data.Median("Award Amount")`, award_data.Median("Award Amount")},
		{`award_data.GroupBy("State").Share("Woman Owned", "==", "Y").Len()`, award_data.GroupBy("State").Share("Woman Owned", "==", "Y").Len()},
		{`award_data.ValueCounts("Agency").Bar("Agency", "Count").Title("x").String()`, award_data.ValueCounts("Agency").Bar("Agency", "Count").Title("x").String()},
		{`award_data.Where("Agncy", "==", 1).Err().Error()`, `award_data: Where: unknown column "Agncy" (did you mean "Agency"?)`},
		{`fmt.Sprint(award_data.Where("Agncy", "==", 1))`, `award_data: Where: unknown column "Agncy" (did you mean "Agency"?)`},
		{`len(award_data.Head(2).MIMEBundle())`, 3},
		{`award_data.Tail(2).Drop("Abstract").Sample(1, 3).String()`, award_data.Tail(2).Drop("Abstract").Sample(1, 3).String()},
		{`award_data.Describe().Len()`, 42},
		{`award_data.Unique("Phase").Strings("Phase")`, award_data.Unique("Phase").Strings("Phase")},
		{`award_data.Head(5).Times("Proposal Award Date")`, award_data.Head(5).Times("Proposal Award Date")},
		{`award_data.Head(5).Ints("Award Year")`, award_data.Head(5).Ints("Award Year")},
		{`award_data.Head(5).Floats("Award Amount")`, award_data.Head(5).Floats("Award Amount")},
		{`award_data.Head(5).Nulls("UEI")`, award_data.Head(5).Nulls("UEI")},
		{`award_data.Quantile("Award Amount", 0.9) + award_data.Min("Award Amount") + award_data.Max("Award Amount") + award_data.Sum("Award Amount") + award_data.Mean("Award Amount")`,
			award_data.Quantile("Award Amount", 0.9) + award_data.Min("Award Amount") + award_data.Max("Award Amount") + award_data.Sum("Award Amount") + award_data.Mean("Award Amount")},
		{`award_data.CountDistinct("Company")`, award_data.CountDistinct("Company")},
		{`award_data.All().Row(5).Time("Proposal Award Date").IsZero()`, award_data.All().Row(5).Time("Proposal Award Date").IsZero()},
		{`award_data.GroupBy("Agency").Mean("Award Amount").String() + award_data.GroupBy("Agency").Quantile("Award Amount", 0.1).String() + award_data.GroupBy("Agency").Min("Award Amount").String() + award_data.GroupBy("Agency").Max("Award Year").String()`,
			award_data.GroupBy("Agency").Mean("Award Amount").String() + award_data.GroupBy("Agency").Quantile("Award Amount", 0.1).String() + award_data.GroupBy("Agency").Min("Award Amount").String() + award_data.GroupBy("Agency").Max("Award Year").String()},
		{`award_data.GroupBy("Agency").Len()`, award_data.GroupBy("Agency").Len()},
		{`award_data.GroupBy("Agency").String()`, award_data.GroupBy("Agency").String()},
		{`award_data.Histogram("Award Amount", 5).Spec()`, award_data.Histogram("Award Amount", 5).Spec()},
		{`award_data.Scatter("Award Year", "Award Amount").Size(300, 200).Spec()`, award_data.Scatter("Award Year", "Award Amount").Size(300, 200).Spec()},
		{`award_data.ValueCounts("Agency").Line("Agency", "Count").MIMEBundle()["text/plain"]`, award_data.ValueCounts("Agency").Line("Agency", "Count").MIMEBundle()["text/plain"]},
		{`award_data.Where("Agncy", "==", 1).Bar("a", "b").Err() != nil`, true},
		{`func() string { type firm struct{ Name string; N int }; return award_data.FromRecords([]firm{{"a", 1}, {"b", 2}}).String() }()`,
			award_data.NewFrame(award_data.Col("Name", []string{"a", "b"}), award_data.Col("N", []int{1, 2})).String()},
		{`award_data.Where("x", "==", 1).Err().(*award_data.Error).Op`, "Where"},
		{`award_data.All().Select("Company").HTML() != ""`, true},
		{`award_data.VegaLiteMIME`, award_data.VegaLiteMIME},
		// Variadic and interface-typed parameters, called through reflect
		// by yaegi: these were reflect panics before.
		{`award_data.Sort("Award Amount", false).Head(3).String()`, award_data.Sort("-Award Amount").Head(3).String()},
		{`award_data.Sort("Award Amount", award_data.Descending, "Company").Head(3).String()`, award_data.Sort("-Award Amount", "Company").Head(3).String()},
		{`award_data.GroupBy("Agency").Sum("Award Amount", "Number Employees").Columns()`, award_data.Names{"Agency", "Award Amount", "Number Employees"}},
		{`award_data.GroupBy("Agency").Sum().Err()`, award_data.GroupBy("Agency").Sum().Err()},
		{`award_data.GroupBy("Agency").Agg("count()", "median(Award Amount) as Mid").String()`, award_data.GroupBy("Agency").Agg("count()", "median(Award Amount) as Mid").String()},
		{`award_data.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Phase", Values: "Award Amount", Margins: true}).String()`,
			award_data.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Phase", Values: "Award Amount", Margins: true}).String()},
		{`award_data.Head(4).Apply("Len", func(r award_data.Row) int { return len(r.String("Company")) }).Ints("Len")`,
			award_data.Head(4).Apply("Len", func(r award_data.Row) int { return len(r.String("Company")) }).Ints("Len")},
		{`award_data.Head(4).Compute("k", "Award Amount", "/", 1000).Floats("k")`, award_data.Head(4).Compute("k", "Award Amount", "/", 1000).Floats("k")},
		{`award_data.ValueCounts("Phase").ToCSV()`, award_data.ValueCounts("Phase").ToCSV()},
		{`award_data.Where("Agency", "==", "NASA").String()`, award_data.Where("Agency", "==", "NASA").String()},
		{`award_data.Columns()[:2]`, `["Company", "Award Title"]`},
		{`award_data.Head(2).Join(award_data.ValueCounts("Agency"), "left", "Agency").Columns()[42]`, "Count"},
		{`len(award_data.Histogram("Award Amount", 10).MIMEBundle())`, 3},
	}
	for _, tt := range tests {
		got, err := r.run("fmt.Print("+tt.code+")", nil)
		if err != nil {
			t.Errorf("%s: %v", tt.code, err)
			continue
		}
		if got != fmt.Sprint(tt.want) {
			t.Errorf("%s = %v, want %v", tt.code, got, tt.want)
		}
	}
}

// TestPanicsAreCellErrors checks that award_data's panics (bad columns,
// wrong types, errors inside a Filter function) become ordinary errors of
// the cell and the session keeps working.
func TestPanicsAreCellErrors(t *testing.T) {
	r := newCellRunner(t)
	for _, tt := range []struct{ code, want string }{
		{`award_data.Sum("Agency")`, `award_data: Sum: column "Agency" is category, not int or float`},
		{`award_data.Where("Agncy", "==", "x").Count()`, `award_data: Where: unknown column "Agncy"`},
		{`award_data.Filter(func(r award_data.Row) bool { return r.Int("Nope") > 0 }).Count()`, `award_data: Row.Int: unknown column "Nope"`},
		{`award_data.Strings("Compny")`, `did you mean "Company"?`},
		{`display.PNG([]byte("not a png"))`, "display: PNG: the data is not a PNG image"},
		{`award_data.Head(3).ToCSV("out.csv")`, "cells cannot write files"},
		{`award_data.GroupBy("Agency").Sum().Count()`, "Sum: name at least one column"},
	} {
		_, err := r.run(tt.code, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.code, err, tt.want)
		}
		if out, err := r.run(`fmt.Print(award_data.Count())`, nil); err != nil || out != fmt.Sprint(award_data.Count()) {
			t.Fatalf("session unusable after %s: %q %v", tt.code, out, err)
		}
	}
}

// TestDisplayThroughYaegi checks that display calls in a cell reach the
// session's handlers with the MIME bundles, ids and updates.
func TestDisplayThroughYaegi(t *testing.T) {
	r := newCellRunner(t)
	var msgs []sandbox.Display
	clears := 0
	h := &sandbox.Handlers{
		Display: func(d sandbox.Display) { msgs = append(msgs, d) },
		Clear:   func(wait bool) { clears++ },
	}
	code := `
display.Markdown("# hi")
display.Show(award_data.Head(2))
h := display.NewHandle("progress")
h.HTML("<b>1</b>")
h.HTML("<b>2</b>")
display.Show(award_data.ValueCounts("Phase").Bar("Phase", "Count"))
display.Clear(true)
`
	if _, err := r.run(code, h); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 5 || clears != 1 {
		t.Fatalf("%d messages and %d clears, want 5 and 1: %+v", len(msgs), clears, msgs)
	}
	if msgs[0].Data["text/markdown"] != "# hi" {
		t.Errorf("markdown: %+v", msgs[0])
	}
	if msgs[1].Data["text/html"] != award_data.Head(2).HTML() {
		t.Errorf("frame: %+v", msgs[1].Data)
	}
	if msgs[2].DisplayID != "progress" || msgs[2].Update || msgs[3].DisplayID != "progress" || !msgs[3].Update || msgs[3].Data["text/plain"] != "2" {
		t.Errorf("handle: %+v %+v", msgs[2], msgs[3])
	}
	if _, ok := msgs[4].Data[display.VegaLiteMIME]; !ok {
		t.Errorf("chart: %+v", msgs[4].Data)
	}
}
