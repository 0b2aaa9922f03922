package award_data

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// groupTruth groups fixture rows by the key columns (joined with a
// separator) after a filter.
func groupTruth(rows []fixtureRow, keep func(fixtureRow) bool, keys ...string) (map[string][]fixtureRow, []string) {
	groups := map[string][]fixtureRow{}
	for _, r := range rows {
		if keep != nil && !keep(r) {
			continue
		}
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = r[k]
		}
		key := strings.Join(parts, "|")
		groups[key] = append(groups[key], r)
	}
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	return groups, names
}

// resultMap reads a result frame into key → value text of one column.
func resultMap(t *testing.T, f Frame, keys []string, value string) map[string]string {
	t.Helper()
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	keyVals := make([][]string, len(keys))
	for i, k := range keys {
		keyVals[i] = f.Strings(k)
	}
	vals := f.Strings(value)
	for r := 0; r < f.Len(); r++ {
		parts := make([]string, len(keys))
		for i := range keys {
			parts[i] = keyVals[i][r]
		}
		key := strings.Join(parts, "|")
		if _, dup := out[key]; dup {
			t.Fatalf("group %q appears twice", key)
		}
		out[key] = vals[r]
	}
	return out
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

func numbersOf(rs []fixtureRow, col string) []float64 {
	var out []float64
	for _, r := range rs {
		if v, ok := num(r[col]); ok {
			out = append(out, v)
		}
	}
	return out
}

// numpyQuantile is the linear quantile, written independently of the
// package's version.
func numpyQuantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	h := (float64(len(s)) - 1) * q
	lo := math.Floor(h)
	return s[int(lo)] + (h-lo)*(s[int(math.Min(lo+1, float64(len(s)-1)))]-s[int(lo)])
}

func TestGroupAggregates(t *testing.T) {
	rows := loadFixture(t)
	phase2 := func(r fixtureRow) bool { return r["Phase"] == "Phase II" }
	type agg struct {
		name   string
		frame  Frame
		keep   func(fixtureRow) bool
		keys   []string
		column string // result column
		want   func(rs []fixtureRow) float64
	}
	sum := func(col string) func([]fixtureRow) float64 {
		return func(rs []fixtureRow) float64 {
			s := 0.0
			for _, v := range numbersOf(rs, col) {
				s += v
			}
			return s
		}
	}
	mean := func(col string) func([]fixtureRow) float64 {
		return func(rs []fixtureRow) float64 {
			v := numbersOf(rs, col)
			if len(v) == 0 {
				return math.NaN()
			}
			return sum(col)(rs) / float64(len(v))
		}
	}
	quant := func(col string, q float64) func([]fixtureRow) float64 {
		return func(rs []fixtureRow) float64 { return numpyQuantile(numbersOf(rs, col), q) }
	}
	count := func(rs []fixtureRow) float64 { return float64(len(rs)) }
	extreme := func(col string, sign float64) func([]fixtureRow) float64 {
		return func(rs []fixtureRow) float64 {
			v := numbersOf(rs, col)
			if len(v) == 0 {
				return math.NaN()
			}
			if sign < 0 {
				return slices.Min(v)
			}
			return slices.Max(v)
		}
	}
	distinct := func(col string) func([]fixtureRow) float64 {
		return func(rs []fixtureRow) float64 {
			seen := map[string]bool{}
			for _, r := range rs {
				if r[col] != "" {
					seen[r[col]] = true
				}
			}
			return float64(len(seen))
		}
	}
	share := func(col, val string) func([]fixtureRow) float64 {
		return func(rs []fixtureRow) float64 {
			n := 0
			for _, r := range rs {
				if r[col] == val {
					n++
				}
			}
			return float64(n) / float64(len(rs))
		}
	}
	tests := []agg{
		{"sum by category", GroupBy("Agency").Sum("Award Amount"), nil, []string{"Agency"}, "Award Amount", sum("Award Amount")},
		{"sum by category with nulls", GroupBy("Branch").Sum("Award Amount"), nil, []string{"Branch"}, "Award Amount", sum("Award Amount")},
		{"sum of int", GroupBy("Phase").Sum("Number Employees"), nil, []string{"Phase"}, "Number Employees", sum("Number Employees")},
		{"sum by text after filter", Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount"), phase2, []string{"Company"}, "Award Amount", sum("Award Amount")},
		{"count by int", GroupBy("Award Year").Count(), nil, []string{"Award Year"}, "Count", count},
		{"count by two keys", GroupBy("Award Year", "Phase").Count(), nil, []string{"Award Year", "Phase"}, "Count", count},
		{"count by three keys", GroupBy("State", "Program", "Woman Owned").Count(), nil, []string{"State", "Program", "Woman Owned"}, "Count", count},
		{"count by date", GroupBy("Proposal Award Date").Count(), nil, []string{"Proposal Award Date"}, "Count", count},
		{"mean", GroupBy("Phase").Mean("Award Amount"), nil, []string{"Phase"}, "Award Amount", mean("Award Amount")},
		{"mean of a column with null groups", GroupBy("Company").Mean("Number Employees"), nil, []string{"Company"}, "Number Employees", mean("Number Employees")},
		{"median", Where("Phase", "==", "Phase I").GroupBy("Award Year").Median("Award Amount"), func(r fixtureRow) bool { return r["Phase"] == "Phase I" }, []string{"Award Year"}, "Award Amount", quant("Award Amount", 0.5)},
		{"quantile", GroupBy("Agency").Quantile("Award Amount", 0.9), nil, []string{"Agency"}, "Award Amount", quant("Award Amount", 0.9)},
		{"min", GroupBy("Agency").Min("Award Amount"), nil, []string{"Agency"}, "Award Amount", extreme("Award Amount", -1)},
		{"max int", GroupBy("State").Max("Number Employees"), nil, []string{"State"}, "Number Employees", extreme("Number Employees", 1)},
		{"count distinct", GroupBy("Company").CountDistinct("Topic Code"), nil, []string{"Company"}, "Distinct Topic Code", distinct("Topic Code")},
		{"count distinct by two keys", GroupBy("Company", "Topic Code").CountDistinct("Phase"), nil, []string{"Company", "Topic Code"}, "Distinct Phase", distinct("Phase")},
		{"share", GroupBy("State").Share("Woman Owned", "==", "Y"), nil, []string{"State"}, "Share", share("Woman Owned", "Y")},
		{"share count", GroupBy("State").Share("Woman Owned", "==", "Y"), nil, []string{"State"}, "Count", count},
		{"value counts", ValueCounts("Branch"), nil, []string{"Branch"}, "Count", count},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			groups, names := groupTruth(rows, tt.keep, tt.keys...)
			got := resultMap(t, tt.frame, tt.keys, tt.column)
			if len(got) != len(names) {
				t.Errorf("%d groups, want %d", len(got), len(names))
			}
			for _, name := range names {
				want := tt.want(groups[name])
				s, ok := got[name]
				if !ok {
					t.Errorf("group %q missing", name)
					continue
				}
				g := math.NaN()
				if s != "" {
					var err error
					if g, err = strconv.ParseFloat(s, 64); err != nil {
						t.Fatal(err)
					}
				}
				if !near(g, want) {
					t.Errorf("group %q: got %v, want %v", name, g, want)
				}
			}
		})
	}
}

func TestGroupOrderAndTypes(t *testing.T) {
	loadFixture(t)
	// Keys sorted, nulls last.
	f := GroupBy("Branch").Count()
	branches := f.Strings("Branch")
	if branches[len(branches)-1] != "" {
		t.Errorf("null group not last: %q", branches)
	}
	if !slices.IsSorted(branches[:len(branches)-1]) {
		t.Errorf("groups not sorted: %q", branches)
	}
	// Value counts: most frequent first.
	counts := ValueCounts("Agency").Ints("Count")
	if !slices.IsSortedFunc(counts, func(a, b int64) int { return int(b - a) }) {
		t.Errorf("ValueCounts not descending: %v", counts)
	}
	// Two keys: sorted by first then second.
	g := GroupBy("Award Year", "Phase").Count()
	years, phases := g.Ints("Award Year"), g.Strings("Phase")
	for i := 1; i < len(years); i++ {
		if years[i] < years[i-1] || (years[i] == years[i-1] && phases[i] <= phases[i-1]) {
			t.Fatalf("row %d out of order: %d %s after %d %s", i, years[i], phases[i], years[i-1], phases[i-1])
		}
	}
	// Sum of an int column stays int; key columns keep their types.
	s := GroupBy("Award Year").Sum("Number Employees")
	if s.Ints("Number Employees") == nil || s.Ints("Award Year") == nil {
		t.Error("int columns lost their type")
	}
	// Min/Max keep the column type (dates, text).
	d := GroupBy("Agency").Min("Proposal Award Date")
	if len(d.Times("Proposal Award Date")) != d.Len() {
		t.Error("Min of a date is not a date column")
	}
	// A result named like a key is renamed.
	m := GroupBy("Award Year").Max("Award Year")
	if got := m.Columns(); !slices.Equal(got, []string{"Award Year", "Award Year (max)"}) {
		t.Errorf("columns %q", got)
	}
	// Unique.
	if got := Unique("Phase").Strings("Phase"); !slices.Equal(got, []string{"Phase I", "Phase II"}) {
		t.Errorf("Unique(Phase) = %q", got)
	}
	// Empty input gives an empty result with the right columns.
	e := Where("Phase", "==", "none").GroupBy("Agency").Sum("Award Amount")
	if e.Len() != 0 || !slices.Equal(e.Columns(), []string{"Agency", "Award Amount"}) {
		t.Errorf("empty group: %d rows, columns %q", e.Len(), e.Columns())
	}
	if n := GroupBy("Company").Len(); n != CountDistinct("Company") {
		t.Errorf("GroupBy(Company).Len() = %d, CountDistinct = %d", n, CountDistinct("Company"))
	}
}

func TestGroupErrors(t *testing.T) {
	loadFixture(t)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"unknown key", GroupBy("Agncy").Err(), `award_data: GroupBy: unknown column "Agncy" (did you mean "Agency"?)`},
		{"no key", GroupBy().Err(), "award_data: GroupBy: name at least one column"},
		{"unknown value", GroupBy("Agency").Sum("Amount").Err(), `award_data: Sum: unknown column "Amount" (did you mean "Award Amount"?)`},
		{"sum of text", GroupBy("Agency").Sum("Company").Err(), `award_data: Sum: column "Company" is text, not int or float`},
		{"bad quantile", GroupBy("Agency").Quantile("Award Amount", 1.5).Err(), "award_data: Quantile: q is 1.5; it must be between 0 and 1"},
		{"share bad op", GroupBy("Agency").Share("Woman Owned", "~", "Y").Err(), `award_data: Share: unknown operator "~"`},
		{"error through chain", Where("x", "==", 1).GroupBy("Agency").Count().Err(), `award_data: Where: unknown column "x"`},
		{"value counts", ValueCounts("Agncy").Err(), `award_data: ValueCounts: unknown column "Agncy"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil || !strings.HasPrefix(tt.err.Error(), tt.want) {
				t.Errorf("error %v, want prefix %q", tt.err, tt.want)
			}
		})
	}
}

func TestScalars(t *testing.T) {
	rows := loadFixture(t)
	amounts := numbersOf(rows, "Award Amount")
	total := 0.0
	for _, v := range amounts {
		total += v
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"Sum", Sum("Award Amount"), total},
		{"Mean", Mean("Award Amount"), total / float64(len(amounts))},
		{"Median", Median("Award Amount"), numpyQuantile(amounts, 0.5)},
		{"Quantile", Quantile("Award Amount", 0.25), numpyQuantile(amounts, 0.25)},
		{"Min", Min("Award Amount"), slices.Min(amounts)},
		{"Max", Max("Number Employees"), slices.Max(numbersOf(rows, "Number Employees"))},
		{"Mean of nothing", Where("Phase", "==", "x").Mean("Award Amount"), math.NaN()},
		{"Sum of nothing", Where("Phase", "==", "x").Sum("Award Amount"), 0},
		{"Sum on a selection", Where("Phase", "==", "Phase I").Sum("Award Amount"), func() float64 {
			s := 0.0
			for _, r := range rows {
				if v, ok := num(r["Award Amount"]); ok && r["Phase"] == "Phase I" {
					s += v
				}
			}
			return s
		}()},
	}
	for _, c := range checks {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if got, want := CountDistinct("Topic Code"), 6; got != want {
		t.Errorf("CountDistinct(Topic Code) = %d, want %d", got, want)
	}
	for _, bad := range []func(){
		func() { Sum("Agency") },
		func() { Mean("Nope") },
		func() { Quantile("Award Amount", -1) },
		func() { All().Row(len(rows)) },
	} {
		func() {
			defer func() {
				if _, ok := recover().(*Error); !ok {
					t.Error("no *Error panic")
				}
			}()
			bad()
		}()
	}
}
