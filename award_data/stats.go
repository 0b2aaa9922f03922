package award_data

import (
	"math"
	"slices"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// GroupBy groups all awards by the named columns. See Frame.GroupBy.
//
// Example:
//
//	award_data.GroupBy("Agency").Sum("Award Amount")
func GroupBy(columns ...string) Grouped { return All().GroupBy(columns...) }

// ValueCounts returns each value of the column with its number of rows
// ("Count"), most frequent first (ties in value order). Nulls, if any,
// are counted as one value, shown as an empty cell.
//
// Example:
//
//	award_data.Where("Agency", "==", "Department of Defense").ValueCounts("Branch")
func (f Frame) ValueCounts(column string) Frame {
	g := f.GroupBy(column)
	if g.err != nil {
		return errFrame(renameOp(g.err, "ValueCounts"))
	}
	return g.Count().Sort("-Count")
}

// Unique returns the distinct values of the column, sorted (a null, if
// any, last), as a one-column Frame; Strings, Ints, ... turn it into a
// slice.
//
// Example:
//
//	agencies := award_data.Unique("Agency").Strings("Agency")
func (f Frame) Unique(column string) Frame {
	g := f.GroupBy(column)
	if g.err != nil {
		return errFrame(renameOp(g.err, "Unique"))
	}
	u := g.result()
	u.fullText = true
	return u
}

func renameOp(err error, op string) error {
	if e, ok := err.(*Error); ok && e.Op == "GroupBy" {
		c := *e
		c.Op = op
		return &c
	}
	return err
}

// numbers returns the non-null values of a numeric column over f's rows.
func (f Frame) numbers(op, name string) []float64 {
	f.must()
	c := f.mustColumn(op, name)
	if !c.Numeric() {
		panic(wrongType(op, c, "int or float", shareHint(c)))
	}
	out := make([]float64, 0, f.Len())
	for k := 0; k < f.Len(); k++ {
		if v := c.Float(f.row(k)); !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out
}

// Sum returns the sum of a numeric column over f's rows, skipping nulls.
// It panics with f's error, an unknown column or a non-numeric column.
//
// Example:
//
//	total := award_data.Where("Agency", "==", "Department of Energy").Sum("Award Amount")
func (f Frame) Sum(column string) float64 {
	f.must()
	c := f.mustColumn("Sum", column)
	if !c.Numeric() {
		panic(wrongType("Sum", c, "int or float", shareHint(c)))
	}
	s := columnar.NewSums(1) // compensated: cents sum to cents
	if c.Kind == columnar.KindFloat && c.Valid == nil && f.all {
		for _, v := range c.Floats[:f.Len()] {
			if v == v {
				s.Add(0, v)
			}
		}
		return s.Value(0)
	}
	for k := 0; k < f.Len(); k++ {
		if v := c.Float(f.row(k)); !math.IsNaN(v) {
			s.Add(0, v)
		}
	}
	return s.Value(0)
}

// Mean returns the average of a numeric column over f's rows, skipping
// nulls; NaN when there are no values.
//
// Example:
//
//	avg := award_data.Where("Phase", "==", "Phase II").Mean("Award Amount")
func (f Frame) Mean(column string) float64 {
	v := f.numbers("Mean", column)
	if len(v) == 0 {
		return math.NaN()
	}
	s := columnar.NewSums(1)
	for _, x := range v {
		s.Add(0, x)
	}
	return s.Value(0) / float64(len(v))
}

// Median returns the median of a numeric column over f's rows, skipping
// nulls; NaN when there are no values.
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase I").Median("Award Amount")
func (f Frame) Median(column string) float64 { return f.quantile("Median", column, 0.5) }

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of a numeric column over
// f's rows, skipping nulls, with linear interpolation (numpy's default);
// NaN when there are no values.
//
// Example:
//
//	p95 := award_data.Quantile("Award Amount", 0.95)
func (f Frame) Quantile(column string, q float64) float64 { return f.quantile("Quantile", column, q) }

func (f Frame) quantile(op, column string, q float64) float64 {
	v := f.numbers(op, column)
	if !(q >= 0 && q <= 1) {
		panic(errorf(op, "q is %v; it must be between 0 and 1", q))
	}
	if len(v) == 0 {
		return math.NaN()
	}
	return columnar.Quantile(v, q)
}

// Min returns the smallest value of a numeric column over f's rows,
// skipping nulls; NaN when there are none. (For dates, use
// GroupBy(...).Min or Sort.)
//
// Example:
//
//	award_data.Min("Award Year")
func (f Frame) Min(column string) float64 {
	v := f.numbers("Min", column)
	if len(v) == 0 {
		return math.NaN()
	}
	return slices.Min(v)
}

// Max returns the largest value of a numeric column over f's rows,
// skipping nulls; NaN when there are none.
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase I").Max("Award Amount")
func (f Frame) Max(column string) float64 {
	v := f.numbers("Max", column)
	if len(v) == 0 {
		return math.NaN()
	}
	return slices.Max(v)
}

// CountDistinct returns the number of distinct non-null values of the
// column over f's rows.
//
// Example:
//
//	companies := award_data.CountDistinct("Company")
func (f Frame) CountDistinct(column string) int {
	f.must()
	c := f.mustColumn("CountDistinct", column)
	_, rep := columnar.KeyIDs(f.sel(), c, true)
	n := 0
	for _, r := range rep {
		if !c.IsNull(int(r)) && !(c.Kind == columnar.KindFloat && math.IsNaN(c.Floats[r])) {
			n++
		}
	}
	return n
}

// Describe summarizes every column of f in one row each: its type, the
// number of values ("Count") and of nulls ("Nulls"), the number of
// distinct values ("Distinct"), the smallest and largest value ("Min",
// "Max": numbers, dates, or text in alphabetical order) and, for numeric
// columns, the mean ("Mean").
//
// Example:
//
//	award_data.Select("Award Amount", "Award Year", "Agency").Describe()
func (f Frame) Describe() Frame {
	if f.err != nil {
		return f
	}
	n := len(f.cols)
	names := make([]string, n)
	types := make([]string, n)
	count := make([]int64, n)
	nulls := make([]int64, n)
	distinct := make([]int64, n)
	mins := make([]string, n)
	maxs := make([]string, n)
	mean := columnar.NewFloatResult("Mean", n, "Mean")
	for j, ci := range f.cols {
		c := f.t.Cols[ci]
		names[j] = c.Name
		types[j] = c.Kind.String()
		_, rep := columnar.KeyIDs(f.sel(), c, false)
		lo, hi := -1, -1
		key := columnar.NewSortKey(c, false)
		for _, r := range rep {
			i := int(r)
			if c.IsNull(i) || (c.Kind == columnar.KindFloat && math.IsNaN(c.Floats[i])) {
				continue
			}
			distinct[j]++
			if lo < 0 || key.Compare(i, lo) < 0 {
				lo = i
			}
			if hi < 0 || key.Compare(i, hi) > 0 {
				hi = i
			}
		}
		sum := 0.0
		for k := 0; k < f.Len(); k++ {
			i := f.row(k)
			if c.IsNull(i) {
				nulls[j]++
				continue
			}
			count[j]++
			if c.Numeric() {
				sum += c.Float(i)
			}
		}
		switch {
		case lo < 0:
		case c.Numeric():
			cells := formatCells(c, []int{lo, hi}, maxCellText)
			mins[j], maxs[j] = cells[0], cells[1]
		default:
			// The values themselves: printing cuts long text to the
			// display settings' width, Records and ToJSON keep it whole.
			mins[j], maxs[j] = c.FormatValue(lo), c.FormatValue(hi)
		}
		if c.Numeric() && count[j] > 0 {
			mean.Floats[j] = sum / float64(count[j])
		} else {
			mean.SetNull(j)
		}
	}
	return frameOf(columnar.NewTable([]*columnar.Vector{
		columnar.TextVector("Column", names),
		columnar.TextVector("Type", types),
		{Name: "Count", Kind: columnar.KindInt, N: n, Ints: count},
		{Name: "Nulls", Kind: columnar.KindInt, N: n, Ints: nulls},
		{Name: "Distinct", Kind: columnar.KindInt, N: n, Ints: distinct},
		columnar.TextVector("Min", mins),
		columnar.TextVector("Max", maxs),
		mean,
	}, false))
}

// ValueCounts counts the awards per value of the column, most frequent
// first. See Frame.ValueCounts.
//
// Example:
//
//	award_data.ValueCounts("Agency")
func ValueCounts(column string) Frame { return All().ValueCounts(column) }

// Unique returns the distinct values of the column over all awards. See
// Frame.Unique.
//
// Example:
//
//	award_data.Unique("Phase")
func Unique(column string) Frame { return All().Unique(column) }

// Describe summarizes every column of the award data. See Frame.Describe.
//
// Example:
//
//	award_data.Describe()
func Describe() Frame { return All().Describe() }

// Sort returns all awards sorted by the named columns ("-" prefix for
// descending). See Frame.Sort.
//
// Example:
//
//	award_data.Sort("-Award Amount").Head(10)
func Sort(columns ...any) Frame { return All().Sort(columns...) }

// Sum returns the total of a numeric column over all awards. See Frame.Sum.
//
// Example:
//
//	award_data.Sum("Award Amount")
func Sum(column string) float64 { return All().Sum(column) }

// Mean returns the average of a numeric column over all awards. See
// Frame.Mean.
//
// Example:
//
//	award_data.Mean("Award Amount")
func Mean(column string) float64 { return All().Mean(column) }

// Median returns the median of a numeric column over all awards. See
// Frame.Median.
//
// Example:
//
//	award_data.Median("Award Amount")
func Median(column string) float64 { return All().Median(column) }

// Quantile returns the q-quantile of a numeric column over all awards.
// See Frame.Quantile.
//
// Example:
//
//	award_data.Quantile("Award Amount", 0.25)
func Quantile(column string, q float64) float64 { return All().Quantile(column, q) }

// Min returns the smallest value of a numeric column over all awards. See
// Frame.Min.
//
// Example:
//
//	award_data.Min("Award Year")
func Min(column string) float64 { return All().Min(column) }

// Max returns the largest value of a numeric column over all awards. See
// Frame.Max.
//
// Example:
//
//	award_data.Max("Award Amount")
func Max(column string) float64 { return All().Max(column) }

// CountDistinct returns the number of distinct non-null values of the
// column over all awards. See Frame.CountDistinct.
//
// Example:
//
//	award_data.CountDistinct("Company")
func CountDistinct(column string) int { return All().CountDistinct(column) }
