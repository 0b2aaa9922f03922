package award_data

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// TestBitIndex checks that every condition the bitmap indexes answer
// selects exactly the rows the row-by-row filters select, on all rows and
// after other bitmap filters, for every category and int column of the
// fixture (nulls included).
func TestBitIndex(t *testing.T) {
	loadFixture(t)
	all := All()
	inputs := map[string]Frame{
		"all":             all,
		"Phase II":        Where("Phase", "==", "Phase II"),
		"year and agency": Where("Award Year", ">=", 2012).Where("Agency", "!=", "Department of Defense"),
		"nothing":         Where("Award Year", "<", -5),
	}
	indexed := 0
	for _, ci := range all.cols {
		c := all.t.Cols[ci]
		var cases []struct {
			op    string
			value any
		}
		add := func(op string, value any) {
			cases = append(cases, struct {
				op    string
				value any
			}{op, value})
		}
		switch c.Kind {
		case columnar.KindCategory:
			for _, v := range append(slices.Clone(c.Dict), "no such value") {
				for _, op := range []string{"==", "!=", "<", "<=", ">", ">=", "contains", "not contains", "prefix", "suffix"} {
					add(op, v)
				}
			}
			add("in", c.Dict[:len(c.Dict)/2])
			add("not in", c.Dict[:1])
			add("matches", "^[A-M]")
			add("between", []string{c.Dict[0], c.Dict[len(c.Dict)-1]})
		case columnar.KindInt:
			lo, hi, ok := columnar.IntSpan(c)
			if !ok {
				continue
			}
			step := max((hi-lo)/12, 1)
			for v := lo - 2; v <= hi+2; v += step {
				for _, op := range []string{"==", "<", "<=", ">", ">="} {
					add(op, v)
				}
				add(">=", float64(v)+0.5)
				add("between", []int64{v, v + 3*step})
				add("between", []float64{float64(v) + 0.5, float64(v)})
			}
			add("==", hi)
			add("<=", hi)
			add(">=", lo)
			add(">", 1e300)
			add("<", -1e300)
		default:
			continue
		}
		if c.Index() != nil {
			indexed++
		}
		for name, in := range inputs {
			rowsIn := in.withRows(slices.Clone(in.rowList()))
			for _, tc := range cases {
				o, _ := parseOp(tc.op)
				got := in.Where(c.Name, tc.op, tc.value)
				want, err := whereRows(rowsIn, c, o, tc.value)
				label := fmt.Sprintf("%s: Where(%q, %q, %v)", name, c.Name, tc.op, tc.value)
				if err != nil {
					if got.Err() == nil {
						t.Errorf("%s: no error, want %v", label, err)
					}
					continue
				}
				if got.Err() != nil {
					t.Errorf("%s: %v", label, got.Err())
					continue
				}
				if g := frameRows(got); !slices.Equal(g, want) && len(g)+len(want) > 0 {
					t.Errorf("%s: %d rows, want %d", label, len(g), len(want))
				}
				if got.Len() != len(want) || got.Count() != len(want) {
					t.Errorf("%s: Len %d, want %d", label, got.Len(), len(want))
				}
			}
		}
	}
	// Phase, Agency, ... and Award Year, Solicitation Year at least.
	if indexed < 5 {
		t.Errorf("%d columns have a bitmap index, want at least 5", indexed)
	}
}

// TestBitSelChains checks long chains of bitmap filters (which
// materialise their terms) against the same conditions applied to rows.
func TestBitSelChains(t *testing.T) {
	loadFixture(t)
	conds := []struct {
		col, op string
		value   any
	}{
		{"Award Year", ">=", 2005},
		{"Award Year", "<=", 2022},
		{"Phase", "!=", "Phase I"},
		{"Agency", "not in", []string{"Department of Energy"}},
		{"Solicitation Year", ">", 2004},
		{"Program", "==", "SBIR"},
		{"Woman Owned", "!=", "Y"},
	}
	f := All()
	rows := All().withRows(slices.Clone(All().rowList()))
	for i, c := range conds {
		f = f.Where(c.col, c.op, c.value)
		rows = rows.Where(c.col, c.op, c.value)
		if f.bits == nil {
			t.Fatalf("condition %d: not a bitmap selection", i)
		}
		if f.bits.Terms() > columnar.MaxTerms {
			t.Errorf("condition %d: %d terms, want at most %d", i, f.bits.Terms(), columnar.MaxTerms)
		}
		if g, w := frameRows(f), frameRows(rows); !slices.Equal(g, w) {
			t.Fatalf("after %d conditions: %d rows, want %d", i+1, len(g), len(w))
		}
		if f.Count() != rows.Count() {
			t.Fatalf("after %d conditions: Count %d, want %d", i+1, f.Count(), rows.Count())
		}
	}
	if f.Count() == 0 {
		t.Fatal("the chain selects nothing; choose conditions that keep some rows")
	}
}

// TestBitIndexLimits checks which columns get an index: not text, date
// or float columns, nor int columns whose values spread too widely (they
// are scanned instead), and results of operations are never indexed.
func TestBitIndexLimits(t *testing.T) {
	loadFixture(t)
	tbl := All().t
	for _, c := range tbl.Cols {
		ix := c.Index()
		switch c.Kind {
		case columnar.KindText, columnar.KindFloat, columnar.KindDate:
			if ix != nil {
				t.Errorf("%s column %q has an index", c.Kind, c.Name)
			}
		case columnar.KindCategory:
			if ix == nil {
				t.Errorf("category column %q has no index", c.Name)
			}
		case columnar.KindInt:
			lo, hi, _ := columnar.IntSpan(c)
			if want := hi-lo < columnar.MaxIndexBitmaps; (ix != nil) != want {
				t.Errorf("int column %q (%d..%d): index %v, want %v", c.Name, lo, hi, ix != nil, want)
			}
		}
	}
	wide := &columnar.Vector{Name: "x", Kind: columnar.KindInt, N: 3, Ints: []int64{0, columnar.MaxIndexBitmaps, 5}}
	if wide.Index() != nil {
		t.Error("an int column spanning more than maxIndexBitmaps values has an index")
	}
	narrow := &columnar.Vector{Name: "x", Kind: columnar.KindInt, N: 3, Ints: []int64{7, 9, 7}}
	ix := narrow.Index()
	if ix == nil {
		t.Fatal("a narrow int column has no index")
	}
	for _, tc := range []struct {
		lo, hi int64
		want   []int32
	}{{7, 7, []int32{0, 2}}, {8, 9, []int32{1}}, {0, 100, []int32{0, 1, 2}}, {10, 20, []int32{}}, {8, 8, []int32{}}} {
		got := ix.RangeSelection(nil, tc.lo, tc.hi)
		if g := got.Rows(); !slices.Equal(g, tc.want) && len(g)+len(tc.want) > 0 || got.Len() != len(tc.want) {
			t.Errorf("[%d, %d]: rows %v (size %d), want %v", tc.lo, tc.hi, g, got.Len(), tc.want)
		}
	}
	// Derived tables (here: a GroupBy result) are filtered by scanning.
	g := GroupBy("Award Year").Count()
	if g.t.Source {
		t.Fatal("a GroupBy result is marked as the award data")
	}
	years := g.Where("Award Year", ">=", 2015)
	want := 0
	for _, y := range g.Strings("Award Year") {
		if v, _ := strconv.Atoi(y); v >= 2015 {
			want++
		}
	}
	if years.Len() != want {
		t.Errorf("Where on a GroupBy result: %d rows, want %d", years.Len(), want)
	}
}

// TestBitIndexConcurrent filters fresh columns (no index yet) from many
// goroutines at once: the index is built once and every caller gets the
// same rows (run with -race).
func TestBitIndexConcurrent(t *testing.T) {
	loadFixture(t)
	src := All().t
	cols := make([]*columnar.Vector, len(src.Cols))
	for i, c := range src.Cols {
		cols[i] = &columnar.Vector{Name: c.Name, Kind: c.Kind, N: c.N, Valid: c.Valid, ValidOff: c.ValidOff,
			Offs: c.Offs, Data: c.Data, Codes: c.Codes, Dict: c.Dict, Ints: c.Ints, Floats: c.Floats, Days: c.Days}
	}
	fresh := frameOf(columnar.NewTable(cols, true))
	want := frameRows(Where("Award Year", ">=", 2010).Where("State", "!=", "CA"))
	results := make(chan []int32, 8)
	for range 8 {
		go func() {
			results <- frameRows(fresh.Where("Award Year", ">=", 2010).Where("State", "!=", "CA"))
		}()
	}
	for range 8 {
		if got := <-results; !slices.Equal(got, want) {
			t.Fatalf("concurrent Where: %d rows, want %d", len(got), len(want))
		}
	}
	if len(want) == 0 {
		t.Fatal("the condition selects nothing")
	}
}
