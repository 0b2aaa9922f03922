package award_data

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestNoPanicsOnAnyInput calls the Frame-returning API with every column,
// every operator and values of many types: each call must give a Frame
// or Chart (with or without an *Error), never panic. The value-returning
// API must panic only with *Error.
func TestNoPanicsOnAnyInput(t *testing.T) {
	loadFixture(t)
	values := []any{nil, "Phase I", "", "2020-01-01", 2015, int8(-1), uint64(1 << 63), 3.5, float32(2), -1e308,
		[]string{"a", "Phase II"}, []int{2010, 2020}, []any{"x", 1}, []float64{1}, [2]int{1, 2}, []time.Time{time.Now()},
		time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), true, struct{}{}, map[string]int{}, "(", `\`, "ſ"}
	ops := []string{"==", "!=", "<", "<=", ">", ">=", "in", "not in", "between", "contains", "not contains", "prefix", "suffix", "matches", "is null", "not null", "bogus", ""}
	columns := append(Columns(), "Nope", "")
	check := func(what string, f func()) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s panicked: %v", what, r)
			}
		}()
		f()
	}
	mustError := func(what string, f func()) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if err, ok := r.(error); !ok || !errors.As(err, new(*Error)) {
				t.Errorf("%s panicked with %T %v, want *Error", what, r, r)
			}
		}()
		f()
	}
	for _, col := range columns {
		for _, op := range ops {
			for _, v := range values {
				what := fmt.Sprintf("Where(%q, %q, %#v)", col, op, v)
				check(what, func() {
					f := Where(col, op, v)
					_ = f.String()
					_ = f.HTML()
					_ = f.Len()
				})
			}
		}
		check("Sort "+col, func() { _ = Sort("-"+col, col).Head(3).String() })
		check("GroupBy "+col, func() {
			g := GroupBy(col)
			_ = g.String()
			for _, agg := range []Frame{g.Count(), g.Sum("Award Amount"), g.Mean(col), g.Median(col), g.Quantile(col, 0.3),
				g.Min(col), g.Max(col), g.CountDistinct(col), g.Share(col, "==", "Y"), GroupBy("Agency").Sum(col)} {
				_ = agg.String()
				_ = agg.HTML()
			}
		})
		check("toolkit "+col, func() {
			small := Head(40)
			for _, f := range []Frame{
				small.GroupBy("Agency").Agg("count()", "sum("+col+")", "nunique("+col+")", "first("+col+")", "std("+col+")"),
				small.Pivot(PivotOptions{Rows: col, Columns: "Phase", Values: "Award Amount", Margins: true}),
				small.Pivot(PivotOptions{Rows: "Agency", Columns: col, Agg: "count", Margins: true}),
				small.Join(Head(10), "outer", col), small.Join(Head(10), "left", col, "Agency"),
				small.Compute("x", col, "/", col), small.Compute("x", "Award Amount", "*", col),
				small.Rename(col, "renamed"), small.NLargest(3, col), small.NSmallest(2, col),
				Concat(small.Select(col), Head(3)), small.Sort(col, false), small.Sort(col, Descending, "Agency"),
				small.Slice(-5, 100),
			} {
				_ = f.String() + f.HTML()
				if f.Err() == nil {
					_ = f.ToCSV() + f.ToJSON()
					_ = f.Records()
					_ = f.Download("x.csv").MIMEBundle()
				}
			}
		})
		check("ValueCounts/Unique "+col, func() { _ = ValueCounts(col).String() + Unique(col).String() })
		check("charts "+col, func() {
			for _, c := range []Chart{Head(50).Bar(col, "Award Amount"), Head(50).Line("Award Year", col), Scatter(col, col),
				Histogram(col, 0), Head(20).Bar("Agency", "Award Amount").Color(col)} {
				for _, c := range []Chart{c, c.LogX(), c.LogY().YRange(1, 10), c.XRange(-5, 5), c.Bins(3).Range(0, 1e6)} {
					_ = c.String()
					_ = c.Spec()
					_ = c.MIMEBundle()
				}
			}
		})
		for name, fn := range map[string]func(){
			"Strings": func() { Strings(col) }, "Floats": func() { Floats(col) }, "Ints": func() { Ints(col) },
			"Times": func() { Times(col) }, "Nulls": func() { Nulls(col) }, "Sum": func() { Sum(col) },
			"Mean": func() { Mean(col) }, "Median": func() { Median(col) }, "Min": func() { Min(col) },
			"Max": func() { Max(col) }, "CountDistinct": func() { CountDistinct(col) },
			"Row.String": func() { All().Row(1).String(col) }, "Row.Float": func() { All().Row(1).Float(col) },
			"Row.Int": func() { All().Row(1).Int(col) }, "Row.Time": func() { All().Row(1).Time(col) },
		} {
			mustError(name+" "+col, fn)
		}
	}
	check("Describe", func() { _ = Describe().String() })
	var zero Frame
	check("zero Frame", func() {
		_ = zero.Where("a", "==", 1).String() + zero.Sort("a").String() + zero.GroupBy("a").Count().String() + zero.Head(1).HTML()
		_ = zero.Bar("a", "b").String()
	})
	var zeroChart Chart
	check("zero Chart", func() { _ = zeroChart.String() + zeroChart.Spec() + zeroChart.SVG() })
	check("zero Frame toolkit", func() {
		_ = zero.Agg("count()").String() + zero.Pivot(PivotOptions{Rows: "a", Columns: "b"}).String() + zero.Join(zero, "inner", "a").String()
		_ = zero.Compute("x", "a", "+", 1).String() + zero.Apply("x", func(Row) int { return 1 }).String() + zero.Rename("a", "b").String()
		_ = zero.Slice(0, 3).String() + zero.NLargest(1, "a").String() + Concat(zero, zero).String() + zero.Download("x.csv").String()
	})
	var zeroGroup Grouped
	check("zero Grouped", func() { _ = zeroGroup.String() + zeroGroup.Count().String() })
}
