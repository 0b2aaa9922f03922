package award_data

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/sbirtools/sbir-kernel/dataset"
)

// This file checks grouping by one text key through its dictionary codes
// (columnar.TextGroups: no per-row id vector; the key column read from
// the packed distinct values) against a reference computed here from the
// frame's own values, extracted row by row with Strings, Nulls and
// Floats: every aggregation, over every form of selection, on keys whose
// dictionary is stored in the Arrow file (Company, City, Topic Code) or
// built on demand (Award Title, PI Name), packed or too distinct to pack,
// with nulls, without nulls and all null; and one Grouped used from many
// goroutines at once.

// textGroupsCSV is generated data whose text keys have nulls (Company,
// City, Award Title, PI Name: about one row in five), whose Topic Code
// is null everywhere, and whose Phase takes both values.
func textGroupsCSV(t *testing.T, rows int, seed uint64) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := dataset.Generate(&b, dataset.GenerateOptions{Rows: rows, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 77))
	for _, rec := range recs[1:] {
		for i, h := range recs[0] {
			switch h {
			case "Company", "City", "Award Title", "PI Name":
				if r.IntN(5) == 0 {
					rec[i] = ""
				}
			case "Topic Code":
				rec[i] = ""
			}
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// refCell is one expected value of a result column.
type refCell struct {
	s    string
	f    float64
	num  bool // compare f (within closeEnough) rather than s
	null bool
}

// frameRef holds a frame's values by position, as the extraction
// functions give them.
type frameRef struct {
	n    int
	str  map[string][]string
	null map[string][]bool
	num  map[string][]float64
}

func newFrameRef(f Frame, text, nums []string) *frameRef {
	fr := &frameRef{n: f.Len(), str: map[string][]string{}, null: map[string][]bool{}, num: map[string][]float64{}}
	for _, c := range text {
		fr.str[c], fr.null[c] = f.Strings(c), f.Nulls(c)
	}
	for _, c := range nums {
		fr.num[c], fr.null[c] = f.Floats(c), f.Nulls(c)
	}
	return fr
}

// groups returns the positions of each group of key, groups in key order
// (bytewise, as the dictionary ranks values), the null group last.
func (fr *frameRef) groups(key string) (names []string, nullGroup bool, members [][]int) {
	byKey := map[string][]int{}
	var nulls []int
	for k := range fr.n {
		if fr.null[key][k] {
			nulls = append(nulls, k)
			continue
		}
		byKey[fr.str[key][k]] = append(byKey[fr.str[key][k]], k)
	}
	for v := range byKey {
		names = append(names, v)
	}
	slices.Sort(names)
	for _, v := range names {
		members = append(members, byKey[v])
	}
	if nulls != nil {
		members = append(members, nulls)
	}
	return names, nulls != nil, members
}

// values returns the non-null numbers of column c at positions rows.
func (fr *frameRef) values(c string, rows []int) []float64 {
	var out []float64
	for _, k := range rows {
		if !fr.null[c][k] && !math.IsNaN(fr.num[c][k]) {
			out = append(out, fr.num[c][k])
		}
	}
	return out
}

// texts returns the non-null values of text column c at positions rows.
func (fr *frameRef) texts(c string, rows []int) []string {
	var out []string
	for _, k := range rows {
		if !fr.null[c][k] {
			out = append(out, fr.str[c][k])
		}
	}
	return out
}

func numCell(v float64, ok bool) refCell { return refCell{f: v, num: true, null: !ok} }

func textCell(vs []string, pick func([]string) string) refCell {
	if len(vs) == 0 {
		return refCell{null: true}
	}
	return refCell{s: pick(vs)}
}

// refVariance is the sample variance (n-1), two-pass.
func refVariance(vs []float64) (float64, bool) {
	if len(vs) < 2 {
		return 0, false
	}
	mean := 0.0
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	ss := 0.0
	for _, v := range vs {
		ss += (v - mean) * (v - mean)
	}
	return ss / float64(len(vs)-1), true
}

// textAggSpecs are the statistics of one Agg call, each with its
// reference over one group's positions.
var textAggSpecs = []struct {
	spec string
	ref  func(fr *frameRef, rows []int) refCell
}{
	{"count()", func(fr *frameRef, rows []int) refCell { return numCell(float64(len(rows)), true) }},
	{"count(Award Amount) as n amount", func(fr *frameRef, rows []int) refCell {
		return numCell(float64(len(fr.values("Award Amount", rows))), true)
	}},
	{"sum(Award Amount) as dollars", func(fr *frameRef, rows []int) refCell {
		return numCell(refStat("Sum", 0, fr.values("Award Amount", rows)))
	}},
	{"sum(Award Year) as years", func(fr *frameRef, rows []int) refCell {
		return numCell(refStat("Sum", 0, fr.values("Award Year", rows)))
	}},
	{"mean(Award Amount)", func(fr *frameRef, rows []int) refCell {
		return numCell(refStat("Mean", 0, fr.values("Award Amount", rows)))
	}},
	{"median(Award Amount)", func(fr *frameRef, rows []int) refCell {
		return numCell(refStat("Median", 0.5, fr.values("Award Amount", rows)))
	}},
	{"quantile(Award Amount, 0.9)", func(fr *frameRef, rows []int) refCell {
		return numCell(refStat("Quantile", 0.9, fr.values("Award Amount", rows)))
	}},
	{"var(Award Amount)", func(fr *frameRef, rows []int) refCell {
		return numCell(refVariance(fr.values("Award Amount", rows)))
	}},
	{"std(Number Employees)", func(fr *frameRef, rows []int) refCell {
		v, ok := refVariance(fr.values("Number Employees", rows))
		return numCell(math.Sqrt(v), ok)
	}},
	{"min(Award Title)", func(fr *frameRef, rows []int) refCell {
		return textCell(fr.texts("Award Title", rows), func(vs []string) string { return slices.Min(vs) })
	}},
	{"max(PI Name)", func(fr *frameRef, rows []int) refCell {
		return textCell(fr.texts("PI Name", rows), func(vs []string) string { return slices.Max(vs) })
	}},
	{"first(City)", func(fr *frameRef, rows []int) refCell {
		return textCell(fr.texts("City", rows), func(vs []string) string { return vs[0] })
	}},
	{"last(Company)", func(fr *frameRef, rows []int) refCell {
		return textCell(fr.texts("Company", rows), func(vs []string) string { return vs[len(vs)-1] })
	}},
	{"nunique(City)", func(fr *frameRef, rows []int) refCell {
		vs := fr.texts("City", rows)
		slices.Sort(vs)
		return numCell(float64(len(slices.Compact(vs))), true)
	}},
	{"min(Proposal Award Date) as first date", func(fr *frameRef, rows []int) refCell {
		return textCell(fr.texts("Proposal Award Date", rows), func(vs []string) string { return slices.Min(vs) })
	}},
}

// checkTextKey compares f.GroupBy(key)'s aggregations with the reference
// over f's own values; it returns a description of the first difference.
func checkTextKey(t *testing.T, f Frame, key string) string {
	t.Helper()
	text := []string{"Company", "City", "Award Title", "PI Name", "Topic Code", "Proposal Award Date", "Phase"}
	if !slices.Contains(text, key) {
		text = append(text, key)
	}
	fr := newFrameRef(f, text, []string{"Award Amount", "Award Year", "Number Employees"})
	names, _, members := fr.groups(key)
	keyCol := make([]refCell, len(members))
	for i := range members {
		if i < len(names) {
			keyCol[i] = refCell{s: names[i]}
		} else {
			keyCol[i] = refCell{null: true}
		}
	}
	g := f.GroupBy(key)
	if g.Len() != len(members) {
		return fmt.Sprintf("Len %d, want %d", g.Len(), len(members))
	}
	type check struct {
		desc string
		res  Frame
		cols map[string][]refCell
	}
	var checks []check

	// One Agg with every statistic: each rebuilds what it needs from the
	// code-to-group mapping.
	specs := make([]string, len(textAggSpecs))
	aggCols := map[string][]refCell{key: keyCol}
	for j, s := range textAggSpecs {
		specs[j] = s.spec
		a, err := parseAggSpec(s.spec)
		if err != nil {
			t.Fatal(err)
		}
		col := make([]refCell, len(members))
		for i, rows := range members {
			col[i] = s.ref(fr, rows)
		}
		aggCols[a.name] = col
	}
	checks = append(checks, check{"Agg", g.Agg(specs...), aggCols})

	counts := make([]refCell, len(members))
	sums := make([]refCell, len(members))
	years := make([]refCell, len(members))
	shares := make([]refCell, len(members))
	distinct := make([]refCell, len(members))
	for i, rows := range members {
		counts[i] = numCell(float64(len(rows)), true)
		sums[i] = numCell(refStat("Sum", 0, fr.values("Award Amount", rows)))
		years[i] = numCell(refStat("Sum", 0, fr.values("Award Year", rows)))
		yes := 0
		for _, k := range rows {
			if !fr.null["Phase"][k] && fr.str["Phase"][k] == "Phase II" {
				yes++
			}
		}
		shares[i] = numCell(float64(yes)/float64(len(rows)), true)
		vs := fr.texts("Company", rows)
		slices.Sort(vs)
		distinct[i] = numCell(float64(len(slices.Compact(vs))), true)
	}
	checks = append(checks,
		check{"Count", g.Count(), map[string][]refCell{key: keyCol, "Count": counts}},
		check{"Sum", g.Sum("Award Amount", "Award Year"), map[string][]refCell{key: keyCol, "Award Amount": sums, "Award Year": years}},
		check{"Share", g.Share("Phase", "==", "Phase II"), map[string][]refCell{key: keyCol, "Count": counts, "Share": shares}},
		check{"CountDistinct", g.CountDistinct("Company"), map[string][]refCell{key: keyCol, "Distinct Company": distinct}},
	)
	for _, c := range checks {
		if err := c.res.Err(); err != nil {
			return c.desc + ": " + err.Error()
		}
		if c.res.Len() != len(members) {
			return fmt.Sprintf("%s: %d rows, want %d", c.desc, c.res.Len(), len(members))
		}
		for name, want := range c.cols {
			if !slices.Contains(c.res.Columns(), name) {
				return fmt.Sprintf("%s: no column %q in %q", c.desc, name, c.res.Columns())
			}
			strs, nulls, nums := c.res.Strings(name), c.res.Nulls(name), []float64(nil)
			if slices.ContainsFunc(want, func(w refCell) bool { return w.num }) {
				nums = c.res.Floats(name)
			}
			for i, w := range want {
				ok := nulls[i] == w.null
				if ok && !w.null {
					if w.num {
						ok = closeEnough(nums[i], w.f) || math.Abs(nums[i]-w.f) < 1e-6
					} else {
						ok = strs[i] == w.s
					}
				}
				if !ok {
					return fmt.Sprintf("%s: %s of group %d (%q, null %v): %q (%v, null %v), want %q (%v, null %v)",
						c.desc, name, i, keyCol[i].s, keyCol[i].null, strs[i], valueAt(nums, i), nulls[i], w.s, w.f, w.null)
				}
			}
		}
	}
	return ""
}

func valueAt(v []float64, i int) float64 {
	if v == nil {
		return 0
	}
	return v[i]
}

// textGroupForms are the selections a text key is grouped over.
func textGroupForms() []struct {
	name string
	f    func() Frame
} {
	return []struct {
		name string
		f    func() Frame
	}{
		{"Head(1)", func() Frame { return Head(1) }},
		{"Head(0)", func() Frame { return Head(0) }},
		{"Tail(40)", func() Frame { return Tail(40) }},
		{"Where empty", func() Frame { return Where("Award Amount", ">", 1e15) }},
		{"All", All},
		{"Where bitmap", func() Frame { return Where("Phase", "==", "Phase I") }},
		{"Where sorted", func() Frame { return Where("Phase", "==", "Phase I").Sort("-Award Amount") }},
		{"Sort then Where", func() Frame { return Sort("Company").Where("Phase", "==", "Phase II") }},
		{"Sort desc Head", func() Frame { return Sort("-Award Title").Head(700) }},
		{"Sample", func() Frame { return Sample(500, 3) }},
		{"Slice", func() Frame { return Slice(100, 2500) }},
		{"Filter", func() Frame { return Filter(func(r Row) bool { return r.Index()%3 != 1 }) }},
		{"Company null", func() Frame { return Where("Company", "is null", nil) }},
		{"Company not null", func() Frame { return Where("Company", "not null", nil) }},
		{"Concat", func() Frame { return Concat(Where("Phase", "==", "Phase II"), Head(300)) }},
		{"Join", func() Frame {
			return Where("Phase", "==", "Phase I").Join(GroupBy("Company").Agg("count() as Awards"), "left", "Company")
		}},
	}
}

// TestTextKeyGroupsAgainstReference groups by text keys over every form
// of selection, twice (first while only the stored dictionaries exist,
// then with the ones grouping built), and compares every aggregation with
// the reference, checking that the code-to-group path and both ways of
// building the key column (packed values, gather) were taken.
func TestTextKeyGroupsAgainstReference(t *testing.T) {
	loadFixture(t)
	t.Cleanup(func() { useFixtureAgain(t) })
	rows := 3000
	useCSV(t, textGroupsCSV(t, rows, 21))
	keys := []string{"Company", "City", "Topic Code", "Award Title", "PI Name"}
	var textPath, packed, gathered int
	for pass := range 2 {
		for _, form := range textGroupForms() {
			for _, key := range keys {
				f := form.f()
				if err := f.Err(); err != nil {
					t.Fatal(err)
				}
				if g := f.GroupBy(key); g.textGroup != nil {
					textPath++
					c, _ := f.lookup("", key)
					if c.CachedTextDictionary().Packed() {
						packed++
					} else {
						gathered++
					}
				}
				if d := checkTextKey(t, f, key); d != "" {
					t.Fatalf("pass %d, %s, GroupBy(%q): %s", pass, form.name, key, d)
				}
			}
		}
	}
	// The key column came from the packed values (City, Topic Code) and
	// from a gather (Award Title, PI Name: too distinct to pack).
	if textPath == 0 || packed == 0 || gathered == 0 {
		t.Fatalf("text groups %d times (key column packed %d, gathered %d): a path went untested", textPath, packed, gathered)
	}
	all := All()
	for key, want := range map[string]bool{"City": true, "Topic Code": true, "Award Title": false} {
		c, _ := all.lookup("", key)
		if got := c.CachedTextDictionary() != nil && c.CachedTextDictionary().Packed(); got != want {
			t.Errorf("%s: packed %v, want %v", key, got, want)
		}
	}
}

// useFixtureAgain hands the fixture back to Use after a test used other data.
func useFixtureAgain(t *testing.T) {
	d, err := dataset.OpenFile(filepath.Join(fixtureDir, "awards.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Use(d); err != nil {
		t.Fatal(err)
	}
}

// TestTextKeyChainedGroups groups a group result by its text key (a
// column with no stored dictionary, built from the packed values), and
// groups the one-column result of Unique, ValueCounts and Pivot again.
func TestTextKeyChainedGroups(t *testing.T) {
	loadFixture(t)
	t.Cleanup(func() { useFixtureAgain(t) })
	useCSV(t, textGroupsCSV(t, 2500, 5))
	for _, key := range []string{"Company", "City", "Award Title"} {
		byPhase := GroupBy(key, "Phase").Agg("count()", "sum(Award Amount) as Dollars")
		if d := checkChained(byPhase, key); d != "" {
			t.Fatalf("GroupBy(%q, Phase) then GroupBy(%q): %s", key, key, d)
		}
		for name, f := range map[string]Frame{
			"Unique":      Unique(key),
			"ValueCounts": ValueCounts(key),
			"Pivot":       Pivot(PivotOptions{Rows: key, Columns: "Phase", Margins: true}),
			"Count":       Where("Phase", "==", "Phase I").GroupBy(key).Count(),
		} {
			want, nullGroup, _ := newFrameRef(f, []string{key}, nil).groups(key)
			u := f.GroupBy(key).Count()
			got, nulls := u.Strings(key), u.Nulls(key)
			if len(got) != len(want)+b2i(nullGroup) {
				t.Fatalf("%s(%q).GroupBy: %d groups, want %d", name, key, len(got), len(want)+b2i(nullGroup))
			}
			for i, w := range want {
				if got[i] != w || nulls[i] {
					t.Fatalf("%s(%q).GroupBy: group %d is %q (null %v), want %q", name, key, i, got[i], nulls[i], w)
				}
			}
			if nullGroup && !nulls[len(nulls)-1] {
				t.Fatalf("%s(%q).GroupBy: the null group is not last", name, key)
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkChained regroups f (key, Phase, Count, Dollars) by key and
// compares with sums over f's rows.
func checkChained(f Frame, key string) string {
	fr := newFrameRef(f, []string{key, "Phase"}, []string{"Count", "Dollars"})
	names, _, members := fr.groups(key)
	res := f.GroupBy(key).Agg("count() as Phases", "sum(Count) as Awards", "sum(Dollars) as Dollars", "max(Phase) as Last")
	if err := res.Err(); err != nil {
		return err.Error()
	}
	if res.Len() != len(members) {
		return fmt.Sprintf("%d groups, want %d", res.Len(), len(members))
	}
	keys, keyNulls := res.Strings(key), res.Nulls(key)
	phases, awards, dollars, last := res.Ints("Phases"), res.Ints("Awards"), res.Floats("Dollars"), res.Strings("Last")
	for i, rows := range members {
		wantKey, wantNull := "", i >= len(names)
		if !wantNull {
			wantKey = names[i]
		}
		n, _ := refStat("Sum", 0, fr.values("Count", rows))
		d, _ := refStat("Sum", 0, fr.values("Dollars", rows))
		l := slices.Max(fr.texts("Phase", rows))
		if keys[i] != wantKey || keyNulls[i] != wantNull || phases[i] != int64(len(rows)) || awards[i] != int64(n) ||
			!closeEnough(dollars[i], d) || last[i] != l {
			return fmt.Sprintf("group %d: %q (null %v) %d %d %v %q, want %q (null %v) %d %v %v %q",
				i, keys[i], keyNulls[i], phases[i], awards[i], dollars[i], last[i], wantKey, wantNull, len(rows), n, d, l)
		}
	}
	return ""
}

// TestTextKeyGroupedConcurrent runs every aggregation of one Grouped
// (text key, code-to-group mapping) from several goroutines at once and
// compares each with the same aggregation run alone (run with -race).
func TestTextKeyGroupedConcurrent(t *testing.T) {
	loadFixture(t)
	t.Cleanup(func() { useFixtureAgain(t) })
	useCSV(t, textGroupsCSV(t, 3000, 9))
	for _, key := range []string{"Company", "Award Title"} {
		// Award Title's dictionary is built by the first GroupBy, from
		// all goroutines at once.
		f := Where("Phase", "==", "Phase I")
		g := f.GroupBy(key)
		if g.textGroup == nil {
			t.Fatalf("GroupBy(%q) did not group through the dictionary", key)
		}
		aggs := []func() Frame{
			g.Count,
			func() Frame { return g.Sum("Award Amount", "Award Year") },
			func() Frame { return g.Mean("Award Amount") },
			func() Frame { return g.Median("Award Amount") },
			func() Frame { return g.Quantile("Award Amount", 0.25) },
			func() Frame { return g.Min("Award Title") },
			func() Frame { return g.Max("Company") },
			func() Frame { return g.CountDistinct("City") },
			func() Frame { return g.Share("Phase", "==", "Phase I") },
			func() Frame { return g.Agg("count()", "first(PI Name)", "std(Award Amount)") },
			func() Frame { return f.Pivot(PivotOptions{Rows: key, Columns: "Agency", Margins: true}) },
		}
		want := make([]string, len(aggs))
		for i, a := range aggs {
			want[i] = a().ToCSV()
		}
		var wg sync.WaitGroup
		errs := make(chan string, 4*len(aggs))
		for rep := range 4 {
			for i, a := range aggs {
				wg.Go(func() {
					if got := a().ToCSV(); got != want[i] {
						errs <- fmt.Sprintf("%s, aggregation %d (round %d) differs from its run alone", key, i, rep)
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}

// TestTextKeyNullGroupLast checks on hand-made frames that a text key's
// null group comes last, after every value (empty-looking and
// high-sorting ones included), in the key column and in each aggregation
// that keeps the groups' order, over all rows and over selections.
func TestTextKeyNullGroupLast(t *testing.T) {
	n := 4200 // more than minPackedGather
	names := make([]any, n)
	amounts := make([]float64, n)
	vals := []any{"~tilde", " space", "Zed", "alpha", "ÿ", nil, "0", "Alpha"}
	for i := range names {
		names[i] = vals[i%len(vals)]
		amounts[i] = float64(i % 97)
	}
	f := NewFrame(Col("Name", names), Col("Amount", amounts))
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{" space", "0", "Alpha", "Zed", "alpha", "~tilde", "ÿ", ""}
	for _, form := range []struct {
		name string
		f    Frame
	}{
		{"all", f},
		{"sorted", f.Sort("-Amount")},
		{"where", f.Where("Amount", ">", 5.0)},
		{"head", f.Head(700)},
	} {
		g := form.f.GroupBy("Name")
		if g.textGroup == nil {
			t.Fatalf("%s: GroupBy did not group through the dictionary", form.name)
		}
		for _, res := range []Frame{g.Count(), g.Sum("Amount"), g.Agg("count()", "max(Name) as M"), form.f.Unique("Name")} {
			got, nulls := res.Strings("Name"), res.Nulls("Name")
			if !slices.Equal(got, want) {
				t.Fatalf("%s: groups %q, want %q", form.name, got, want)
			}
			for i, null := range nulls {
				if null != (i == len(want)-1) {
					t.Fatalf("%s: group %d (%q) null %v", form.name, i, got[i], null)
				}
			}
		}
		counts := g.Count().Ints("Count")
		fr := newFrameRef(form.f, []string{"Name"}, nil)
		_, _, members := fr.groups("Name")
		for i, m := range members {
			if counts[i] != int64(len(m)) {
				t.Fatalf("%s: group %q counts %d, want %d", form.name, want[i], counts[i], len(m))
			}
		}
	}
	// A text key that is null in every row: one group, null.
	nulls := make([]any, 100)
	g := NewFrame(Col("Name", nulls), Col("Amount", amounts[:100])).GroupBy("Name")
	res := g.Agg("count()", "sum(Amount)")
	if g.textGroup == nil || !g.keys[0].CachedTextDictionary().Packed() {
		t.Fatal("all-null key: not grouped through a packed dictionary")
	}
	if res.Len() != 1 || !res.Nulls("Name")[0] || res.Ints("Count")[0] != 100 || res.Floats("Amount (sum)")[0] != sumFloats(amounts[:100]) {
		t.Fatalf("all-null key: %s", res.ToCSV())
	}
}

func sumFloats(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}
