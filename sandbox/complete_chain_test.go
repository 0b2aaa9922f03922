package sandbox

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestCompleteChain checks completion through method chains, method
// expressions, cell-local and session variables, and inside Where's value
// string, through a real worker.
func TestCompleteChain(t *testing.T) {
	s := newTestSession(t, nil)
	r := run(t, s, `df := award_data.Where("Agency", "==", "Department of Energy")
g := award_data.GroupBy("Agency")
type pt struct{ X, Y int }
func (p pt) Norm() int { return p.X*p.X + p.Y*p.Y }
func (p pt) Twice() pt { return pt{2 * p.X, 2 * p.Y} }
type other struct{}
func (other) Other() {}
p := pt{1, 2}
ps := []pt{{1, 2}}
frames := map[string]award_data.Frame{"all": award_data.Head(3)}
var b strings.Builder`)
	if !r.Success {
		t.Fatalf("setup: %+v", r)
	}
	tests := []struct {
		name   string
		code   string
		want   []string // each must be among the matches
		absent []string
		exact  []string // when set, the matches exactly
		start  int      // rune offset of the replaced text, -1: not checked
	}{
		{name: "grouped", code: `award_data.GroupBy("Agency").`, want: []string{"Sum", "Count", "Mean", "Agg", "Share"}, absent: []string{"award_data", "Where", "len"}},
		{name: "grouped prefix", code: `award_data.GroupBy("Agency").Me`, exact: []string{"Mean", "Median"}, start: 29},
		{name: "pandas names", code: `award_data.GroupBy("Agency").Sum("Award Amount").Pct`, exact: []string{"PctChange"}},
		{name: "grouped window", code: `award_data.GroupBy("Agency").Ro`, exact: []string{"Rolling"}},
		{name: "package bins", code: `award_data.QC`, exact: []string{"QCut"}},
		{name: "frame chain", code: `award_data.Where("Agency", "==", "NASA").Sort("Award Amount", award_data.Descending).`, want: []string{"Head", "Where", "GroupBy", "Count"}, absent: []string{"award_data"}},
		{name: "frame chain prefix", code: `award_data.Where("Agency", "==", "NASA").So`, exact: []string{"Sort"}},
		{name: "dots in strings", code: `award_data.Where("Abstract", "contains", "a.b(c").GroupBy("Agency").Cou`, exact: []string{"Count", "CountDistinct"}},
		{name: "multi-line chain", code: "award_data.Where(\"Agency\", \"==\", \"x\").\n\tGroupBy(\"State\").\n\tSu", exact: []string{"Sum"}},
		{name: "method expression", code: `award_data.Frame.Wh`, exact: []string{"Where"}},
		{name: "session variable", code: `df.GroupBy("State").`, want: []string{"Sum", "Quantile"}, absent: []string{"Where"}},
		{name: "session grouped", code: `g.Su`, exact: []string{"Sum"}},
		{name: "cell variable", code: "x := award_data.Where(\"Phase\", \"==\", \"Phase I\")\nx.GroupB", exact: []string{"GroupBy"}},
		{name: "cell variable chain", code: "x := award_data.Head(5).GroupBy(\"Agency\")\ny := x.Sum(\"Award Amount\")\ny.Hea", exact: []string{"Head"}},
		{name: "slice element", code: `ps[0].`, want: []string{"X", "Y"}},
		{name: "interpreted method result", code: `p.Twice().`, exact: []string{"X", "Y"}},
		{name: "interpreted methods", code: `p.`, exact: []string{"Norm", "Twice", "X", "Y"}},
		{name: "map element", code: `frames["all"].Tai`, exact: []string{"Tail"}},
		{name: "stdlib result", code: `strings.NewReplacer("a", "b").Rep`, exact: []string{"Replace"}},
		{name: "pointer method", code: `b.WriteStr`, exact: []string{"WriteString"}},
		{name: "row", code: `award_data.Head(2).Row(0).I`, exact: []string{"Index", "Int", "IntOK", "IsNull"}},
		{name: "any has no members", code: `award_data.Head(2).Records()[0]["Agency"].`, exact: []string{}},
		{name: "unknown call", code: `nothing(1).`, exact: []string{}},
		{name: "package still", code: `strings.ToUp`, exact: []string{"ToUpper", "ToUpperSpecial"}},
		{name: "values", code: `award_data.Where("Agency", "==", "National Sc`, exact: []string{`National Science Foundation"`}, start: 34},
		{name: "values any case", code: `award_data.Where("Agency", "==", "department of en`, exact: []string{`Department of Energy"`}},
		{name: "values initials", code: `df.Where("Agency", "==", "NASA`, want: []string{`National Aeronautics and Space Administration"`}},
		{name: "values contains", code: `award_data.Where("Agency", "!=", "Energy`, want: []string{`Department of Energy"`}},
		{name: "values in list", code: `award_data.Where("Phase", "in", []string{"Phase I", "Phase I`, want: []string{`Phase I"`, `Phase II"`}},
		{name: "values chained", code: `award_data.Head(10).Where("State", "==", "C`, want: []string{`California"`, `Colorado"`}, absent: []string{`Massachusetts"`}},
		{name: "values not a category", code: `award_data.Where("Company", "==", "Ac`, exact: []string{}},
		{name: "column still", code: `award_data.Where("Agen`, exact: []string{"Agency", "Agency Tracking Number"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur := len([]rune(tc.code))
			c, err := s.Complete(context.Background(), tc.code, cur)
			if err != nil {
				t.Fatal(err)
			}
			if tc.exact != nil && !slices.Equal(c.Matches, tc.exact) {
				t.Errorf("Complete(%q) = %q, want %q", tc.code, c.Matches, tc.exact)
			}
			checkMatches(t, tc.code, c.Matches, tc.want, tc.absent)
			if c.End != cur || tc.start > 0 && c.Start != tc.start {
				t.Errorf("Complete(%q) range %d..%d, want %d..%d", tc.code, c.Start, c.End, tc.start, cur)
			}
		})
	}
}

// TestCompleteValueClosedQuote checks that a value completion replaces the
// quote an editor closed already.
func TestCompleteValueClosedQuote(t *testing.T) {
	s := newTestSession(t, nil)
	code := `award_data.Where("Agency", "==", "National Sc")`
	c, err := s.Complete(context.Background(), code, 45)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Matches, []string{`National Science Foundation"`}) || c.Start != 34 || c.End != 46 {
		t.Fatalf("%+v", c)
	}
	// At most maxValueMatches values, even for an empty prefix.
	c, _ = s.Complete(context.Background(), `award_data.Where("State", "==", "`, 33)
	if len(c.Matches) == 0 || len(c.Matches) > 50 {
		t.Fatalf("%d matches", len(c.Matches))
	}
}

// TestInspectChain checks inspection of methods reached through chains,
// method expressions and variables.
func TestInspectChain(t *testing.T) {
	s := newTestSession(t, nil)
	r := run(t, s, "df := award_data.Where(\"Agency\", \"==\", \"Department of Energy\")\ntype pt struct{ X, Y int }\n// Norm is the square of the length.\nfunc (p pt) Norm() int { return p.X*p.X + p.Y*p.Y }\nfunc (p pt) Twice() pt { return pt{2 * p.X, 2 * p.Y} }\np := pt{1, 2}")
	if !r.Success {
		t.Fatalf("setup: %+v", r)
	}
	tests := []struct {
		code   string
		cursor int // rune offset; -1: the end
		want   []string
	}{
		{`award_data.Frame.Where`, -1, []string{"func (f Frame) Where(column, op string, value any) Frame", "Operators:"}},
		{`award_data.GroupBy("Agency").Sum`, -1, []string{"func (g Grouped) Sum(columns ...string) Frame"}},
		{`award_data.GroupBy("Agency").Sum(`, -1, []string{"func (g Grouped) Sum(columns ...string) Frame"}},
		{"df.Where(\"Agency\", \"==\", \"x\").\n\tNLargest(", -1, []string{"func (f Frame) NLargest("}},
		{`award_data.GroupBy("Agency").Sum("Award Amount")`, 31, []string{"func (g Grouped) Sum("}},
		{`award_data.Where("Agency", "==", "NASA").Sort("Award Amount").Head(3)`, 43, []string{"func (f Frame) Sort("}},
		{`df.GroupBy("State").Mean`, -1, []string{"func (g Grouped) Mean("}},
		{"x := award_data.Head(3)\nx.NLargest", -1, []string{"func (f Frame) NLargest("}},
		{`award_data.GroupBy("Agency")`, -1, []string{`award_data.GroupBy("Agency") has type award_data.Grouped`, "type Grouped"}},
		{`p.X`, -1, []string{"p.X: int"}},
		{`p.Norm`, -1, []string{"func (p pt) Norm() int", "Norm is the square of the length."}},
		{`p.Twice().Y`, -1, []string{"p.Twice().Y: int"}},
		{`strings.NewReplacer("a", "b").Replace`, -1, []string{"func (r *Replacer) Replace(s string) string"}},
		{`award_data.Where`, -1, []string{"func Where(column, op string, value any) Frame"}},
		{`award_data.GroupBy("Award Year").Sum("Award Amount").PctChange`, -1, []string{"func (f Frame) PctChange(column string, periods ...int) Frame", "pct_change()"}},
		{`award_data.GroupBy("Agency").IdxMax`, -1, []string{"func (g Grouped) IdxMax(column string) Frame", "idxmax()"}},
		{`award_data.Cut`, -1, []string{"func Cut(column string, edges []float64, labels ...string) Frame"}},
	}
	for _, tc := range tests {
		cur := tc.cursor
		if cur < 0 {
			cur = len([]rune(tc.code))
		}
		in, err := s.Inspect(context.Background(), tc.code, cur, 0)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := in.Data["text/plain"].(string)
		for _, w := range tc.want {
			if !in.Found || !strings.Contains(text, w) {
				t.Errorf("Inspect(%q, %d) = %v %q, want %q", tc.code, cur, in.Found, text, w)
			}
		}
	}
}

// TestHelpCell checks that a cell such as "award_data.Where?" shows help
// as its value instead of failing to parse.
func TestHelpCell(t *testing.T) {
	s := newTestSession(t, nil)
	if r := run(t, s, "df := award_data.Head(3)\ntotal := 3"); !r.Success {
		t.Fatalf("setup: %+v", r)
	}
	tests := []struct {
		code     string
		want     []string // in text/plain
		markdown bool     // text/markdown too
	}{
		{"award_data.Where?", []string{"func Where(column, op string, value any) Frame", "Where returns the awards"}, true},
		{"award_data.Frame.Where??", []string{"func (f Frame) Where("}, true},
		{`award_data.GroupBy("Agency").Sum?`, []string{"func (g Grouped) Sum(columns ...string) Frame"}, true},
		{"?strings.Split", []string{"func Split(s, sep string) []string"}, true},
		{"df.NLargest?", []string{"func (f Frame) NLargest("}, true},
		{"total?", []string{"total int\n\n3"}, false},
		{"df?", []string{"df award_data.Frame"}, false},
		{"nothingHere?", []string{"No help for nothingHere"}, false},
	}
	for _, tc := range tests {
		r := run(t, s, tc.code)
		text, _ := r.Value["text/plain"].(string)
		if !r.Success {
			t.Errorf("%q: %+v", tc.code, r)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q: text/plain %q, want %q", tc.code, text, w)
			}
		}
		if _, ok := r.Value["text/markdown"]; ok != tc.markdown {
			t.Errorf("%q: text/markdown present %v, want %v", tc.code, ok, tc.markdown)
		}
	}
	// The session still runs cells, its variables intact.
	if r := run(t, s, "total + 1"); value(r) != "4" {
		t.Fatalf("%+v", r)
	}
}
