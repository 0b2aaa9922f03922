package award_data

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests of the analysis toolkit (Agg, Pivot, Join, Compute, exports,
// frames from Go values, ...) compare with answers computed here from
// the fixture as encoding/csv reads it, independently of the engine.

func parseNum(t *testing.T, s string) float64 {
	t.Helper()
	if s == "" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

// sampleStd is the sample standard deviation (n-1); NaN for fewer than two
// values.
func sampleStd(v []float64) float64 {
	vr, ok := refVariance(v)
	if !ok {
		return math.NaN()
	}
	return math.Sqrt(vr)
}

func nearTol(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b))
}

func TestAgg(t *testing.T) {
	rows := loadFixture(t)
	sum := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s
	}
	distinct := func(rs []fixtureRow, col string) float64 {
		m := map[string]bool{}
		for _, r := range rs {
			if r[col] != "" {
				m[r[col]] = true
			}
		}
		return float64(len(m))
	}
	firstLast := func(rs []fixtureRow, col string, last bool) float64 {
		v := numbersOf(rs, col)
		if len(v) == 0 {
			return math.NaN()
		}
		if last {
			return v[len(v)-1]
		}
		return v[0]
	}
	stats := []struct {
		spec, column string
		want         func(rs []fixtureRow) float64
	}{
		{"count()", "Count", func(rs []fixtureRow) float64 { return float64(len(rs)) }},
		{"count(Number Employees) as Reported", "Reported", func(rs []fixtureRow) float64 { return float64(len(numbersOf(rs, "Number Employees"))) }},
		{"sum(Award Amount)", "Award Amount (sum)", func(rs []fixtureRow) float64 { return sum(numbersOf(rs, "Award Amount")) }},
		{"mean(Number Employees)", "Number Employees (mean)", func(rs []fixtureRow) float64 {
			v := numbersOf(rs, "Number Employees")
			if len(v) == 0 {
				return math.NaN()
			}
			return sum(v) / float64(len(v))
		}},
		{"median(Award Amount)", "Award Amount (median)", func(rs []fixtureRow) float64 { return numpyQuantile(numbersOf(rs, "Award Amount"), 0.5) }},
		{"quantile(Award Amount, 0.9) as P90", "P90", func(rs []fixtureRow) float64 { return numpyQuantile(numbersOf(rs, "Award Amount"), 0.9) }},
		{"min(Award Amount)", "Award Amount (min)", func(rs []fixtureRow) float64 {
			v := numbersOf(rs, "Award Amount")
			if len(v) == 0 {
				return math.NaN()
			}
			return slices.Min(v)
		}},
		{"max(Award Year)", "Award Year (max)", func(rs []fixtureRow) float64 { return slices.Max(numbersOf(rs, "Award Year")) }},
		{"std(Award Amount)", "Award Amount (std)", func(rs []fixtureRow) float64 { return sampleStd(numbersOf(rs, "Award Amount")) }},
		{"var(Award Amount)", "Award Amount (var)", func(rs []fixtureRow) float64 { s := sampleStd(numbersOf(rs, "Award Amount")); return s * s }},
		{"nunique(Company) as Firms", "Firms", func(rs []fixtureRow) float64 { return distinct(rs, "Company") }},
		{"first(Number Employees)", "Number Employees (first)", func(rs []fixtureRow) float64 { return firstLast(rs, "Number Employees", false) }},
		{"last(Number Employees)", "Number Employees (last)", func(rs []fixtureRow) float64 { return firstLast(rs, "Number Employees", true) }},
	}
	specs := make([]string, len(stats))
	for i, s := range stats {
		specs[i] = s.spec
	}
	for _, tc := range []struct {
		name  string
		frame Frame
		keep  func(fixtureRow) bool
		keys  []string
	}{
		{"by agency", GroupBy("Agency").Agg(specs...), nil, []string{"Agency"}},
		{"by year and phase (bitmap rows)", Where("Program", "==", "SBIR").GroupBy("Award Year", "Phase").Agg(specs...), func(r fixtureRow) bool { return r["Program"] == "SBIR" }, []string{"Award Year", "Phase"}},
		{"by state, nulls as a group", GroupBy("State").Agg(specs...), nil, []string{"State"}},
		{"whole frame", Agg(specs...), nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			groups, names := groupTruth(rows, tc.keep, tc.keys...)
			if tc.frame.Err() != nil {
				t.Fatal(tc.frame.Err())
			}
			if tc.frame.Len() != len(names) {
				t.Fatalf("%d groups, want %d", tc.frame.Len(), len(names))
			}
			for _, s := range stats {
				got := resultMap(t, tc.frame, tc.keys, s.column)
				for _, key := range names {
					want := s.want(groups[key])
					if g := parseNum(t, got[key]); !nearTol(g, want) {
						t.Errorf("%s for %q = %v, want %v", s.spec, key, g, want)
					}
				}
			}
		})
	}
	// An empty frame aggregates to one row of nulls (and a count of 0).
	empty := Where("Award Year", "<", 0).Agg("count()", "sum(Award Amount)", "mean(Award Amount)")
	if empty.Len() != 1 || empty.Ints("Count")[0] != 0 || empty.Floats("Award Amount (sum)")[0] != 0 || !empty.Nulls("Award Amount (mean)")[0] {
		t.Errorf("Agg over no rows:\n%v", empty)
	}
}

func TestAggErrors(t *testing.T) {
	loadFixture(t)
	for _, tc := range []struct {
		f    Frame
		want string
	}{
		{GroupBy("Agency").Agg(), `Agg: name at least one statistic`},
		{GroupBy("Agency").Agg("sum"), `write the column in parentheses`},
		{GroupBy("Agency").Agg("summ(Award Amount)"), `unknown statistic "summ" (did you mean "sum"?)`},
		{GroupBy("Agency").Agg("sum(Award Amont)"), `unknown column "Award Amont" (did you mean "Award Amount"?)`},
		{GroupBy("Agency").Agg("sum(Agency)"), `column "Agency" is category, not int or float`},
		{GroupBy("Agency").Agg("quantile(Award Amount)"), `quantile needs a column and q`},
		{GroupBy("Agency").Agg("sum(Award Amount)", "sum(Award Amount)"), `two result columns are named "Award Amount (sum)"`},
		{GroupBy("Agency").Sum(), `Sum: name at least one column`},
		{GroupBy("Agency").Mean(), `Mean: name at least one column`},
		{GroupBy("Agency").Sum("Award Amount", "Agency"), `column "Agency" is category`},
	} {
		if err := tc.f.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want it to contain %q", err, tc.want)
		}
	}
	// Several columns at once give one result column each.
	f := GroupBy("Agency").Sum("Award Amount", "Number Employees")
	if got := f.Columns(); !slices.Equal(got, Names{"Agency", "Award Amount", "Number Employees"}) {
		t.Errorf("columns %v", got)
	}
}

func TestPivot(t *testing.T) {
	rows := loadFixture(t)
	for _, agg := range []string{"sum", "count", "mean", "max"} {
		t.Run(agg, func(t *testing.T) {
			p := Pivot(PivotOptions{Rows: "Agency", Columns: "Phase", Values: "Award Amount", Agg: agg, Margins: true})
			if p.Err() != nil {
				t.Fatal(p.Err())
			}
			cell := map[[2]string][]float64{}
			var agencies []string
			for _, r := range rows {
				v, ok := num(r["Award Amount"])
				if !ok {
					continue
				}
				for _, a := range []string{r["Agency"], "All"} {
					for _, ph := range []string{r["Phase"], "All"} {
						cell[[2]string{a, ph}] = append(cell[[2]string{a, ph}], v)
					}
				}
				if !slices.Contains(agencies, r["Agency"]) {
					agencies = append(agencies, r["Agency"])
				}
			}
			sort.Strings(agencies)
			stat := func(v []float64) float64 {
				if len(v) == 0 {
					return math.NaN()
				}
				switch agg {
				case "count":
					return float64(len(v))
				case "max":
					return slices.Max(v)
				}
				s := 0.0
				for _, x := range v {
					s += x
				}
				if agg == "mean" {
					return s / float64(len(v))
				}
				return s
			}
			if got := p.Strings("Agency"); !slices.Equal(got, append(agencies, "All")) {
				t.Fatalf("rows %q, want %q", got, append(agencies, "All"))
			}
			for _, ph := range []string{"Phase I", "Phase II", "All"} {
				vals := p.Strings(ph)
				for i, a := range append(agencies, "All") {
					if g, w := parseNum(t, vals[i]), stat(cell[[2]string{a, ph}]); !nearTol(g, w) {
						t.Errorf("%s %s: %v, want %v", a, ph, g, w)
					}
				}
			}
		})
	}
	// A pair without rows is null; empty input gives an empty table.
	p := Where("Agency", "==", "Department of Energy").Pivot(PivotOptions{Rows: "Award Year", Columns: "Phase", Values: "Award Amount"})
	nulls := 0
	for _, n := range p.Nulls("Phase II") {
		if n {
			nulls++
		}
	}
	if nulls == 0 {
		t.Error("expected empty cells (years without Phase II awards at DOE) to be null")
	}
	if e := Where("Award Year", "<", 0).Pivot(PivotOptions{Rows: "Agency", Columns: "Phase"}); e.Err() != nil || e.Len() != 0 {
		t.Errorf("empty pivot: %v", e)
	}
	for _, tc := range []struct {
		o    PivotOptions
		want string
	}{
		{PivotOptions{Rows: "Agency"}, "set Rows and Columns"},
		{PivotOptions{Rows: "Agency", Columns: "Agency", Values: "Award Amount"}, "pick two columns"},
		{PivotOptions{Rows: "Agency", Columns: "Phase", Values: "Award Amount", Agg: "grand"}, `unknown statistic "grand"`},
		{PivotOptions{Rows: "Agency", Columns: "Abstract", Values: "Award Amount"}, "a pivot takes at most"},
	} {
		if err := Pivot(tc.o).Err(); tc.want == "a pivot takes at most" {
			// The fixture's abstracts are few enough to pivot on.
			continue
		} else if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.o, err, tc.want)
		}
	}
}

func TestJoin(t *testing.T) {
	rows := loadFixture(t)
	// Left: Phase II awards (company, amount); right: companies with
	// their number of awards over 2010 onwards.
	left := Where("Phase", "==", "Phase II").Select("Company", "Award Amount")
	right := Where("Award Year", ">=", 2010).GroupBy("Company").Agg("count() as Awards")
	counts := map[string]int{}
	for _, r := range rows {
		if y, _ := num(r["Award Year"]); y >= 2010 && r["Company"] != "" {
			counts[r["Company"]]++
		}
	}
	var lefts []fixtureRow
	for _, r := range rows {
		if r["Phase"] == "Phase II" {
			lefts = append(lefts, r)
		}
	}
	for _, how := range []string{"inner", "left", "right", "outer"} {
		t.Run(how, func(t *testing.T) {
			j := left.Join(right, how, "Company")
			if j.Err() != nil {
				t.Fatal(j.Err())
			}
			var want []string
			matched := map[string]bool{}
			for _, r := range lefts {
				n, ok := counts[r["Company"]]
				if ok && r["Company"] != "" {
					want = append(want, fmt.Sprintf("%s|%s|%d", r["Company"], r["Award Amount"], n))
					matched[r["Company"]] = true
				} else if how == "left" || how == "outer" {
					want = append(want, fmt.Sprintf("%s|%s|", r["Company"], r["Award Amount"]))
				}
			}
			if how == "right" || how == "outer" {
				for _, c := range right.Strings("Company") {
					if !matched[c] && c != "" {
						want = append(want, fmt.Sprintf("%s||%d", c, counts[c]))
					}
				}
			}
			comp, amt, aw := j.Strings("Company"), j.Floats("Award Amount"), j.Strings("Awards")
			var got []string
			for i := range comp {
				a := ""
				if !math.IsNaN(amt[i]) {
					a = strconv.FormatFloat(amt[i], 'f', -1, 64)
					a = strings.TrimSuffix(a, ".0")
				}
				got = append(got, comp[i]+"|"+a+"|"+aw[i])
			}
			norm := func(xs []string) []string {
				out := make([]string, len(xs))
				for i, x := range xs {
					p := strings.Split(x, "|")
					if p[1] != "" {
						p[1] = strconv.FormatFloat(parseNum(t, p[1]), 'f', -1, 64)
					}
					out[i] = strings.Join(p, "|")
				}
				return out
			}
			if g, w := norm(got), norm(want); !slices.Equal(g, w) {
				t.Errorf("%d rows, want %d; first differences: %v", len(g), len(w), firstDiff(g, w))
			}
		})
	}
	// Column clashes get " (right)"; errors name the fix.
	j := Head(3).Select("Company", "Agency").Join(Head(3).Select("Company", "Agency"), "inner", "Company")
	if got := j.Columns(); !slices.Equal(got, Names{"Company", "Agency", "Agency (right)"}) {
		t.Errorf("columns %v", got)
	}
	for _, tc := range []struct {
		f    Frame
		want string
	}{
		{left.Join(right, "sideways", "Company"), `use "inner", "left", "right" or "outer"`},
		{left.Join(right, "inner"), "name the key columns"},
		{left.Join(right, "inner", "Awards"), `unknown column "Awards"`},
		{left.Join(right.Rename("Company", "Award Amount"), "inner", "Award Amount"), "keys must both be"},
	} {
		if err := tc.f.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

func firstDiff(a, b []string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("row %d: %q vs %q", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d vs %d", len(a), len(b))
}

func TestExports(t *testing.T) {
	rows := loadFixture(t)
	cols := []string{"Company", "Agency", "Award Year", "Award Amount", "Proposal Award Date", "Abstract"}
	f := Select(cols...)
	recs, err := csv.NewReader(strings.NewReader(f.ToCSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], cols) || len(recs) != len(rows)+1 {
		t.Fatalf("header %q and %d records, want %q and %d", recs[0], len(recs)-1, cols, len(rows))
	}
	for i, r := range rows {
		for j, c := range cols {
			got, want := recs[i+1][j], r[c]
			if c == "Award Amount" && want != "" {
				if parseNum(t, got) != parseNum(t, want) {
					t.Fatalf("row %d %s: %q, want %q", i, c, got, want)
				}
				continue
			}
			if c == "Abstract" || c == "Company" {
				// The converter keeps text as it is, whitespace included.
				want = r[c]
			}
			if got != want {
				t.Fatalf("row %d %s: %q, want %q", i, c, got, want)
			}
		}
	}
	var sb strings.Builder
	if err := f.Head(2).WriteCSV(&sb); err != nil || sb.String() != f.Head(2).ToCSV() {
		t.Errorf("WriteCSV: %v %q", err, sb.String())
	}
	// JSON and records hold the same values, typed.
	var objs []map[string]any
	if err := json.Unmarshal([]byte(f.ToJSON()), &objs); err != nil {
		t.Fatal(err)
	}
	records := f.Records()
	if len(objs) != len(rows) || len(records) != len(rows) {
		t.Fatalf("%d objects and %d records, want %d", len(objs), len(records), len(rows))
	}
	for i, r := range rows {
		if y, ok := num(r["Award Year"]); ok && (objs[i]["Award Year"] != y || records[i]["Award Year"] != int64(y)) {
			t.Fatalf("row %d Award Year: %v / %v, want %v", i, objs[i]["Award Year"], records[i]["Award Year"], y)
		}
		if r["Proposal Award Date"] == "" {
			if objs[i]["Proposal Award Date"] != nil || records[i]["Proposal Award Date"] != nil {
				t.Fatalf("row %d: a null date is %v / %v", i, objs[i]["Proposal Award Date"], records[i]["Proposal Award Date"])
			}
		} else if objs[i]["Proposal Award Date"] != r["Proposal Award Date"] || records[i]["Proposal Award Date"].(time.Time).Format(time.DateOnly) != r["Proposal Award Date"] {
			t.Fatalf("row %d date: %v", i, objs[i]["Proposal Award Date"])
		}
		if objs[i]["Company"] != nilIfEmpty(r["Company"]) {
			t.Fatalf("row %d Company: %v, want %q", i, objs[i]["Company"], r["Company"])
		}
	}
	if got := Where("Award Year", "<", 0).Select("Company").ToCSV(); got != "Company\n" {
		t.Errorf("empty CSV %q", got)
	}
	if got := Where("Award Year", "<", 0).ToJSON(); got != "[]" {
		t.Errorf("empty JSON %q", got)
	}
	// Files: a clear error, never a write.
	for name, fn := range map[string]func(){
		"ToCSV":  func() { f.ToCSV("out.csv") },
		"ToJSON": func() { f.ToJSON("/tmp/out.json") },
	} {
		err := catch(fn)
		if err == nil || !strings.Contains(err.Error(), "cells cannot write files") || !strings.Contains(err.Error(), "Download") {
			t.Errorf("%s with a path: %v", name, err)
		}
	}
	d := ValueCounts("Phase").Download("phases.csv")
	html, _ := d.MIMEBundle()["text/html"].(string)
	if d.Err() != nil || !strings.Contains(html, `download="phases.csv"`) || !strings.Contains(html, "data:text/csv;base64,") {
		t.Errorf("download: %v %s", d.Err(), html)
	}
	if err := Head(1).Download("x.xlsx").Err(); err == nil || !strings.Contains(err.Error(), ".csv or .json") {
		t.Errorf("download of an unknown format: %v", err)
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// catch runs fn and returns what it panicked with, as an error.
func catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	fn()
	return nil
}

func TestComputeApply(t *testing.T) {
	rows := loadFixture(t)
	f := Compute("Per Employee", "Award Amount", "/", "Number Employees").
		Compute("Years Later", "Award Year", "-", 2000).
		Apply("Title Words", func(r Row) int { return len(strings.Fields(r.String("Award Title"))) })
	per, later, words := f.Floats("Per Employee"), f.Ints("Years Later"), f.Ints("Title Words")
	perNull := f.Nulls("Per Employee")
	for i, r := range rows {
		a, okA := num(r["Award Amount"])
		e, okE := num(r["Number Employees"])
		if !okA || !okE || e == 0 {
			if !perNull[i] {
				t.Fatalf("row %d: Per Employee %v, want null", i, per[i])
			}
		} else if !nearTol(per[i], a/e) {
			t.Fatalf("row %d: Per Employee %v, want %v", i, per[i], a/e)
		}
		if y, ok := num(r["Award Year"]); ok && later[i] != int64(y)-2000 {
			t.Fatalf("row %d: Years Later %d", i, later[i])
		}
		if words[i] != int64(len(strings.Fields(r["Award Title"]))) {
			t.Fatalf("row %d: Title Words %d", i, words[i])
		}
	}
	// On a selection the new column follows the selected rows, and the
	// frame can be filtered on it.
	big := Where("Phase", "==", "Phase II").Compute("k$", "Award Amount", "/", 1000).Where("k$", ">", 900)
	want := 0
	for _, r := range rows {
		if a, ok := num(r["Award Amount"]); ok && r["Phase"] == "Phase II" && a/1000 > 900 {
			want++
		}
	}
	if big.Err() != nil || big.Len() != want {
		t.Errorf("filter on a computed column: %d rows (%v), want %d", big.Len(), big.Err(), want)
	}
	for _, tc := range []struct {
		f    Frame
		want string
	}{
		{Compute("x", "Agency", "+", 1), `column "Agency" is category`},
		{Compute("x", "Award Amount", "^", 2), `op is "^"`},
		{Compute("x", "Award Amount", "+", "Nope"), `unknown column "Nope"`},
		{Compute("x", "Award Amount", "+", true), "give a column name or a number"},
		{Apply("x", func(r Row) []int { return nil }), "pass a func(award_data.Row)"},
		{Apply("x", nil), "the function is nil"},
	} {
		if err := tc.f.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

func TestFramesFromGoValues(t *testing.T) {
	loadFixture(t)
	f := NewFrame(Col("Name", []string{"a", "", "c"}), Col("N", []int{3, 1, 2}), Col("X", []any{1.5, nil, 2}),
		Col("When", []time.Time{time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC), {}, time.Date(2021, 3, 4, 0, 0, 0, 0, time.UTC)}))
	if f.Err() != nil {
		t.Fatal(f.Err())
	}
	if got := f.Sort("N").Strings("Name"); !slices.Equal(got, []string{"", "c", "a"}) {
		t.Errorf("sorted names %q", got)
	}
	if got := f.Nulls("X"); !slices.Equal(got, []bool{false, true, false}) {
		t.Errorf("X nulls %v", got)
	}
	if got := f.Strings("When"); !slices.Equal(got, []string{"2020-01-02", "", "2021-03-04"}) {
		t.Errorf("dates %q", got)
	}
	type firm struct {
		Name   string
		Awards int
		Amount float64 `award:"Award Amount"`
		hidden int
	}
	r := FromRecords([]firm{{"Acme", 3, 1e6, 0}, {"Globex", 5, 2.5e6, 0}})
	if got := r.Columns(); !slices.Equal(got, Names{"Name", "Awards", "Award Amount"}) {
		t.Errorf("struct columns %v", got)
	}
	if r.Sum("Award Amount") != 3.5e6 {
		t.Errorf("sum %v", r.Sum("Award Amount"))
	}
	m := FromRecords([]map[string]any{{"b": 1, "a": "x"}, {"a": "y"}})
	if got := m.Columns(); !slices.Equal(got, Names{"a", "b"}) || !m.Nulls("b")[1] {
		t.Errorf("map columns %v, b nulls %v", got, m.Nulls("b"))
	}
	for _, tc := range []struct {
		f    Frame
		want string
	}{
		{NewFrame(), "give at least one column"},
		{NewFrame(Col("a", []int{1}), Col("b", []int{1, 2})), "columns must be equally long"},
		{NewFrame(Col("a", 5)), "values must be a slice"},
		{NewFrame(Col("a", []any{1, "x"})), "use one type per column"},
		{NewFrame(Col("a", []int{1}), Col("a", []int{2})), `two columns are named "a"`},
		{FromRecords(42), "records must be a slice"},
		{FromRecords([]int{1}), "slice of structs or maps"},
	} {
		if err := tc.f.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	// Concat: columns in order of appearance, missing ones null; int
	// meets float as float.
	c := Concat(NewFrame(Col("a", []int{1, 2})), NewFrame(Col("b", []string{"x"}), Col("a", []float64{2.5})))
	if c.Err() != nil || !slices.Equal(c.Columns(), Names{"a", "b"}) || !slices.Equal(c.Strings("a"), []string{"1", "2", "2.5"}) || !slices.Equal(c.Nulls("b"), []bool{true, true, false}) {
		t.Errorf("concat:\n%v", c)
	}
	top := Concat(NLargest(3, "Award Amount"), NSmallest(3, "Award Amount"))
	if top.Len() != 6 {
		t.Errorf("concat of award rows: %d rows", top.Len())
	}
	if err := Concat(NewFrame(Col("a", []int{1})), NewFrame(Col("a", []string{"x"}))).Err(); err == nil || !strings.Contains(err.Error(), `column "a" is text in frame 2 but int`) {
		t.Errorf("concat type clash: %v", err)
	}
	if c := Concat(); c.Err() != nil || c.Len() != 0 {
		t.Errorf("empty concat: %v", c)
	}
}

func TestRenameSliceNExtremes(t *testing.T) {
	rows := loadFixture(t)
	r := GroupBy("Agency").Sum("Award Amount").Rename("Award Amount", "Dollars", "Agency", "Funder")
	if got := r.Columns(); !slices.Equal(got, Names{"Funder", "Dollars"}) {
		t.Errorf("renamed columns %v", got)
	}
	if err := r.Rename("Dollars").Err(); err == nil || !strings.Contains(err.Error(), "pairs of old and new names") {
		t.Errorf("odd Rename: %v", err)
	}
	if err := r.Rename("Dollars", "Funder").Err(); err == nil || !strings.Contains(err.Error(), "already a column") {
		t.Errorf("Rename onto a column: %v", err)
	}
	all := All()
	for _, tc := range []struct{ from, to, wantFrom, wantTo int }{
		{0, 3, 0, 3}, {5, 2, 5, 5}, {-3, len(rows), len(rows) - 3, len(rows)}, {-1000, 2, 0, 2}, {len(rows) - 1, len(rows) + 10, len(rows) - 1, len(rows)},
	} {
		got := frameRows(all.Slice(tc.from, tc.to))
		var want []int32
		for i := tc.wantFrom; i < tc.wantTo; i++ {
			want = append(want, int32(i))
		}
		if !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("Slice(%d, %d) = %v, want %v", tc.from, tc.to, head(got), head(want))
		}
	}
	amounts := []float64{}
	for _, r := range rows {
		if v, ok := num(r["Award Amount"]); ok {
			amounts = append(amounts, v)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(amounts)))
	if got := NLargest(5, "Award Amount").Floats("Award Amount"); !slices.Equal(got, amounts[:5]) {
		t.Errorf("NLargest %v, want %v", got, amounts[:5])
	}
	slices.Reverse(amounts)
	if got := NSmallest(5, "Award Amount").Floats("Award Amount"); !slices.Equal(got, amounts[:5]) {
		t.Errorf("NSmallest %v, want %v", got, amounts[:5])
	}
	if got := NLargest(3, "Number Employees").Nulls("Number Employees"); slices.Contains(got, true) {
		t.Error("NLargest returned a null")
	}
	if n := Where("Award Year", "<", 0).NLargest(3, "Award Amount").Len(); n != 0 {
		t.Errorf("NLargest of nothing: %d rows", n)
	}
}

func TestSortArguments(t *testing.T) {
	loadFixture(t)
	desc := frameRows(Sort("-Award Amount", "Company"))
	for _, args := range [][]any{
		{"Award Amount", false, "Company"},
		{"Award Amount", Descending, "Company", Ascending},
		{"Award Amount", Descending, "Company", true},
		{[]string{"-Award Amount", "Company"}},
	} {
		if got := frameRows(Sort(args...)); !slices.Equal(got, desc) {
			t.Errorf("Sort%v differs from Sort(\"-Award Amount\", \"Company\")", args)
		}
	}
	for _, tc := range []struct {
		args []any
		want string
	}{
		{nil, "name at least one column"},
		{[]any{false}, "must follow a column name"},
		{[]any{"Award Amount", 3}, "argument 2 is int 3"},
	} {
		if err := Sort(tc.args...).Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Sort%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestMissingValueNotes(t *testing.T) {
	loadFixture(t)
	for _, tc := range []struct {
		f    Frame
		want string // "" for no note
	}{
		{Where("Agency", "==", "NASA"), `note: no row has Agency == "NASA"; did you mean "National Aeronautics and Space Administration"?`},
		{Where("Agency", "==", "department of energy"), `did you mean "Department of Energy"?`},
		{Where("Phase", "in", []string{"Phase I", "Phase 3"}), `no row has Phase == "Phase 3"`},
		{Where("Agency", "==", "Department of Energy"), ""},
		{Where("Award Year", ">=", 2015).Where("Agency", "==", "DOE"), `no row has Agency == "DOE"`},
	} {
		if tc.f.note != tc.want && !(tc.want != "" && strings.Contains(tc.f.note, tc.want)) {
			t.Errorf("note %q, want %q", tc.f.note, tc.want)
		}
		if tc.want != "" && (!strings.Contains(tc.f.String(), tc.want) || !strings.Contains(tc.f.HTML(), "no row has")) {
			t.Errorf("the note is not shown with the frame:\n%s", tc.f)
		}
	}
	if n := Where("Agency", "==", "NASA").Len(); n != 0 {
		t.Errorf("%d rows for a missing value", n)
	}
}

func TestDisplaySettings(t *testing.T) {
	loadFixture(t)
	defer SetDisplay(DisplayOptions{})
	long := Select("Company", "Abstract")
	if n := strings.Count(long.String(), "\n"); n != 22 { // header, 20 rows, "...", size
		t.Errorf("default: %d lines", n)
	}
	SetDisplay(DisplayOptions{Rows: 6, TextWidth: 10})
	s := long.String()
	if n := strings.Count(s, "\n"); n != 8 {
		t.Errorf("Rows 6: %d lines:\n%s", n, s)
	}
	for _, line := range strings.Split(s, "\n")[1:7] {
		if strings.Contains(line, "...") && len([]rune(line)) > 60 {
			t.Errorf("TextWidth 10 not applied: %q", line)
		}
	}
	if n := strings.Count(long.Display(DisplayOptions{Rows: 2}).String(), "\n"); n != 4 {
		t.Errorf("a frame's own setting wins: %d lines", n)
	}
	if err := catch(func() { SetDisplay(DisplayOptions{Rows: -1}) }); err == nil || !strings.Contains(err.Error(), "Rows is -1") {
		t.Errorf("bad setting: %v", err)
	}
	SetDisplay(DisplayOptions{})
	// Unique shows values whole, so that they can be pasted back.
	u := Unique("Agency").String()
	if !strings.Contains(u, "National Aeronautics and Space Administration") {
		t.Errorf("Unique truncates:\n%s", u)
	}
	if got := fmt.Sprint(Select("Company", "Award Title").Columns()); got != `["Company", "Award Title"]` {
		t.Errorf("Columns prints %s", got)
	}
}

func TestHistogramOutliers(t *testing.T) {
	loadFixture(t)
	// One huge value among ordinary ones must not squeeze them into one bin.
	vals := make([]float64, 1385)
	for i := range vals {
		vals[i] = 50000 + float64(i*100)
	}
	vals[7] = 1e9
	h := NewFrame(Col("Amount", vals)).Histogram("Amount", 20)
	busiest := int64(0)
	for _, v := range h.values {
		busiest = max(busiest, v["Count"].(int64))
	}
	if busiest > 200 {
		t.Errorf("one bin holds %d of 1,385 values", busiest)
	}
	if !strings.Contains(h.String(), "1 of 1,385 values outside") {
		t.Errorf("no note about the left-out value:\n%s", h)
	}
	all := h.Range(0, 2e9)
	if !strings.Contains(all.String(), "Histogram") || strings.Contains(all.String(), "outside") {
		t.Errorf("Range covering everything still leaves values out:\n%s", all)
	}
	for _, tc := range []struct {
		c    Chart
		want string
	}{
		{h.Range(5, 1), "must be below"},
		{h.Bins(0), "use 1 to 1000"},
		{ValueCounts("Phase").Bar("Phase", "Count").Bins(3), "only a histogram has bins"},
		{ValueCounts("Phase").Bar("Phase", "Count").LogX(), "not numeric"},
		{Scatter("Award Year", "Award Amount").YRange(3, 3), "must be below"},
	} {
		if err := tc.c.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// FuzzAggSpec checks that any statistic text parses to a clear error or
// a statistic Agg can compute, never a panic.
func FuzzAggSpec(f *testing.F) {
	for _, s := range []string{"count()", "sum(Award Amount)", "quantile(Award Amount, 0.9) as P90", "mean(x) AS y", "sum", "(", "q(,)", "std(Award Amount) as "} {
		f.Add(s)
	}
	loadFixture(f)
	g := Head(30).GroupBy("Phase")
	f.Fuzz(func(t *testing.T, spec string) {
		a, err := parseAggSpec(spec)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "award_data: Agg: ") {
				t.Fatalf("%q: error %q lacks the method", spec, err)
			}
			return
		}
		if _, ok := statNames[a.stat]; !ok || a.name == "" {
			t.Fatalf("%q parsed to %+v", spec, a)
		}
		_ = g.Agg(spec).String()
	})
}
