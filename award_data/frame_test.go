package award_data

import (
	"bytes"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestColumnsAndExtraction(t *testing.T) {
	rows := loadFixture(t)
	if got := Columns(); len(got) != 42 || got[0] != "Company" || got[17] != "Award Amount" {
		t.Fatalf("Columns() = %q", got)
	}
	for _, col := range []string{"Company", "Agency", "Abstract", "Award Year", "Award Amount", "Proposal Award Date", "Number Employees", "Branch"} {
		got := Strings(col)
		for i, r := range rows {
			want := r[col]
			if col == "Award Amount" && want != "" {
				v, _ := num(want)
				want = strconv.FormatFloat(v, 'g', -1, 64)
			}
			if got[i] != want {
				t.Fatalf("Strings(%q)[%d] = %q, want %q", col, i, got[i], want)
			}
		}
	}
	floats := Floats("Award Amount")
	ints := Ints("Number Employees")
	asFloat := Floats("Number Employees")
	times := Times("Proposal Award Date")
	nulls := Nulls("UEI")
	for i, r := range rows {
		if v, ok := num(r["Award Amount"]); (ok && floats[i] != v) || (!ok && !math.IsNaN(floats[i])) {
			t.Fatalf("Floats[%d] = %v, want %q", i, floats[i], r["Award Amount"])
		}
		if v, ok := num(r["Number Employees"]); (ok && (ints[i] != int64(v) || asFloat[i] != v)) || (!ok && (ints[i] != 0 || !math.IsNaN(asFloat[i]))) {
			t.Fatalf("Ints/Floats[%d] = %v/%v, want %q", i, ints[i], asFloat[i], r["Number Employees"])
		}
		want := time.Time{}
		if s := r["Proposal Award Date"]; s != "" {
			want, _ = time.Parse(time.DateOnly, s)
		}
		if !times[i].Equal(want) || times[i].Location() != time.UTC {
			t.Fatalf("Times[%d] = %v, want %v", i, times[i], want)
		}
		if nulls[i] != (r["UEI"] == "") {
			t.Fatalf("Nulls[%d] = %v", i, nulls[i])
		}
	}
	r := All().Row(3)
	if r.Index() != 3 || r.String("Company") != rows[3]["Company"] || r.IsNull("Company") {
		t.Errorf("Row(3) = %d %q", r.Index(), r.String("Company"))
	}
	if y, _ := num(rows[3]["Award Year"]); r.Int("Award Year") != int64(y) || r.Float("Award Year") != y {
		t.Errorf("Row(3) year %d", r.Int("Award Year"))
	}
}

func TestExtractionErrors(t *testing.T) {
	loadFixture(t)
	tests := []struct {
		call func()
		want string
	}{
		{func() { Floats("Agency") }, `award_data: Floats: column "Agency" is category, not int or float; use Strings or Times`},
		{func() { Ints("Award Amount") }, `award_data: Ints: column "Award Amount" is float, not int; use Floats for float columns`},
		{func() { Times("Award Year") }, `award_data: Times: column "Award Year" is int, not date`},
		{func() { Strings("Compny") }, `award_data: Strings: unknown column "Compny" (did you mean "Company"?)`},
		{func() { All().Row(-1) }, "award_data: Row: row -1 is out of range"},
		{func() { All().Row(0).Int("Award Amount") }, `award_data: Row.Int: column "Award Amount" is float, not int`},
		{func() { All().Row(0).Time("Nope") }, `award_data: Row.Time: unknown column "Nope"`},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				e, ok := recover().(*Error)
				if !ok || !strings.HasPrefix(e.Error(), tt.want) {
					t.Errorf("panic %v, want prefix %q", e, tt.want)
				}
			}()
			tt.call()
		}()
	}
}

func TestHeadTailSampleSelect(t *testing.T) {
	rows := loadFixture(t)
	n := len(rows)
	if got := frameRows(Head(3)); !slices.Equal(got, []int32{0, 1, 2}) {
		t.Errorf("Head(3) = %v", got)
	}
	if got := frameRows(Tail(2)); !slices.Equal(got, []int32{int32(n - 2), int32(n - 1)}) {
		t.Errorf("Tail(2) = %v", got)
	}
	if Head(0).Len() != 0 || Head(n+5).Len() != n || Tail(n+5).Len() != n {
		t.Error("Head/Tail bounds")
	}
	if Head(-1).Err() == nil || Tail(-1).Err() == nil || Sample(-1, 1).Err() == nil {
		t.Error("negative n accepted")
	}
	phase2 := Where("Phase", "==", "Phase II")
	want := frameRows(phase2)
	if got := frameRows(phase2.Tail(3)); !slices.Equal(got, want[len(want)-3:]) {
		t.Errorf("Tail on a selection = %v", got)
	}
	s1, s2 := Sample(10, 7), Sample(10, 7)
	if !slices.Equal(frameRows(s1), frameRows(s2)) || s1.Len() != 10 {
		t.Errorf("Sample not reproducible: %v %v", frameRows(s1), frameRows(s2))
	}
	if slices.Equal(frameRows(s1), frameRows(Sample(10, 8))) {
		t.Error("different seeds gave the same sample")
	}
	sr := frameRows(phase2.Sample(5, 1))
	if !slices.IsSorted(sr) {
		t.Errorf("sample not in frame order: %v", sr)
	}
	for _, r := range sr {
		if rows[r]["Phase"] != "Phase II" {
			t.Errorf("sampled row %d outside the selection", r)
		}
	}
	sel := Select("Award Amount", "company")
	if got := sel.Columns(); !slices.Equal(got, []string{"Award Amount", "Company"}) {
		t.Errorf("Select columns %q", got)
	}
	if err := sel.Where("Agency", "==", "x").Err(); err == nil || !strings.Contains(err.Error(), `unknown column "Agency"`) {
		t.Errorf("a dropped column is still usable: %v", err)
	}
	if got := Drop("Abstract").Columns(); len(got) != 41 || slices.Contains(got, "Abstract") {
		t.Errorf("Drop: %q", got)
	}
	var zero Frame
	if zero.Len() != 0 || len(zero.Columns()) != 0 || zero.String() != "[0 rows x 0 columns]" {
		t.Errorf("zero Frame: %d %q %q", zero.Len(), zero.Columns(), zero.String())
	}
}

func TestSort(t *testing.T) {
	rows := loadFixture(t)
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	// Ground truth: Agency ascending, then Award Amount descending with
	// nulls last, stable.
	sort.SliceStable(idx, func(a, b int) bool {
		ra, rb := rows[idx[a]], rows[idx[b]]
		if ra["Agency"] != rb["Agency"] {
			return ra["Agency"] < rb["Agency"]
		}
		va, oka := num(ra["Award Amount"])
		vb, okb := num(rb["Award Amount"])
		if oka != okb {
			return oka
		}
		return va > vb
	})
	got := frameRows(Sort("Agency", "-Award Amount"))
	for i := range idx {
		if int(got[i]) != idx[i] {
			t.Fatalf("position %d: row %d, want %d", i, got[i], idx[i])
		}
	}
	// Text with nulls last ascending, and dates.
	st := Sort("State").Strings("State")
	firstNull := slices.Index(st, "")
	if firstNull < 0 || !slices.IsSorted(st[:firstNull]) || strings.Join(st[firstNull:], "") != "" {
		t.Errorf("Sort(State) wrong: nulls at %d", firstNull)
	}
	dates := Where("Proposal Award Date", "not null", nil).Sort("-Proposal Award Date").Times("Proposal Award Date")
	if !slices.IsSortedFunc(dates, func(a, b time.Time) int { return b.Compare(a) }) {
		t.Error("dates not descending")
	}
	if err := Sort().Err(); err == nil {
		t.Error("Sort() without columns accepted")
	}
	if err := Sort("-Nope").Err(); err == nil || !strings.Contains(err.Error(), `unknown column "Nope"`) {
		t.Errorf("Sort(-Nope): %v", err)
	}
	// Sorting does not change the receiver.
	base := Where("Phase", "==", "Phase I")
	before := frameRows(base)
	base.Sort("-Award Amount")
	if !slices.Equal(before, frameRows(base)) {
		t.Error("Sort modified its receiver")
	}
	if !bytes.Equal([]byte(Head(2).String()), []byte(Head(2).String())) {
		t.Error("String not deterministic")
	}
}

func TestDescribe(t *testing.T) {
	rows := loadFixture(t)
	d := Describe()
	if d.Len() != 42 {
		t.Fatalf("Describe has %d rows", d.Len())
	}
	cols := d.Strings("Column")
	counts, nulls, distinct := d.Ints("Count"), d.Ints("Nulls"), d.Ints("Distinct")
	for j, col := range cols {
		seen := map[string]bool{}
		var c int64
		for _, r := range rows {
			if r[col] != "" {
				c++
				seen[r[col]] = true
			}
		}
		if counts[j] != c || nulls[j] != int64(len(rows))-c || distinct[j] != int64(len(seen)) {
			t.Errorf("%s: count %d nulls %d distinct %d; want %d %d %d", col, counts[j], nulls[j], distinct[j], c, int64(len(rows))-c, len(seen))
		}
	}
	row := Describe().Where("Column", "==", "Award Year")
	if row.Strings("Min")[0] != "2005" || row.Strings("Max")[0] != "2024" || row.Strings("Type")[0] != "int" {
		t.Errorf("Award Year summary: %v", row)
	}
}
