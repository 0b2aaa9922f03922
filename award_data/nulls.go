package award_data

import (
	"math"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Nulls in Go loops. Floats and Row.Float give NaN for a null, and NaN
// poisons a sum: a mean written as a loop over Floats is NaN as soon as
// one value is missing, where Mean skips nulls. Three ways keep a loop
// right, from the most pandas-like:
//
//	f.DropNull("Award Amount").Floats("Award Amount")   // pandas' dropna(subset=...)
//	f.FillNull("Award Amount", 0).Floats("Award Amount") // pandas' fillna(0)
//	if v, ok := r.FloatOK("Award Amount"); ok { ... }    // Go's comma-ok, per row

// DropNull returns f without the rows where any of the named columns
// (any column when none is named) is null, as pandas'
// dropna(subset=columns).
//
// Example:
//
//	amounts := award_data.DropNull("Award Amount").Floats("Award Amount") // no NaN to poison a sum
func (f Frame) DropNull(columns ...string) Frame {
	const op = "DropNull"
	if f.err != nil || f.t == nil {
		return f
	}
	if len(columns) == 0 {
		columns = f.Columns()
	}
	g := f
	for _, name := range columns {
		c, err := g.lookup(op, name)
		if err != nil {
			return errFrame(err)
		}
		switch {
		case c.Kind == columnar.KindFloat:
			g = g.withRows(columnar.SelectRows(g.sel(), func(i int) bool { return !c.IsNull(i) && !math.IsNaN(c.Floats[i]) }))
		case c.HasNulls():
			g = g.withRows(columnar.NotNullRows(g.sel(), c))
		}
	}
	return g
}

// FillNull returns f with the nulls of a column replaced by value, as
// pandas' fillna({column: value}): a number for a numeric column, a
// string for text or a category, a time.Time or "2006-01-02" for a date.
//
// Example:
//
//	award_data.FillNull("Number Employees", 0).Mean("Number Employees")
func (f Frame) FillNull(column string, value any) Frame {
	const op = "FillNull"
	if f.err != nil {
		return f
	}
	c, err := f.lookup(op, column)
	if err != nil {
		return errFrame(err)
	}
	rows := f.rowList()
	items := make([]any, len(rows))
	var fill any
	switch {
	case c.Numeric():
		x, ok := toFloat(value)
		if !ok {
			return errFrame(errorf(op, "column %q is %s: fill it with a number, not %T %v", c.Name, c.Kind, value, value))
		}
		fill = x
		if c.Kind == columnar.KindInt && x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			fill = int64(x)
		}
	case c.Kind == columnar.KindDate:
		d, ok := toDay(value)
		if !ok {
			return errFrame(errorf(op, "column %q is a date: fill it with %s", c.Name, dateWant))
		}
		fill = columnar.DayTime(d)
	default:
		s, ok := value.(string)
		if !ok || s == "" {
			return errFrame(errorf(op, "column %q is %s: fill it with a non-empty string, not %T %v", c.Name, c.Kind, value, value))
		}
		fill = s
	}
	for k, r := range rows {
		if v := goValue(c, int(r)); v != nil {
			items[k] = v
		} else {
			items[k] = fill
		}
	}
	out, err := vectorOf(op, c.Name, items)
	if err != nil {
		return errFrame(err)
	}
	if c.Kind == columnar.KindCategory {
		out = toCategory(out)
	}
	out.Bool = c.Bool
	return f.withColumn(out, rows)
}

// toCategory turns a text column into a category column.
func toCategory(c *columnar.Vector) *columnar.Vector {
	out := &columnar.Vector{Name: c.Name, Kind: columnar.KindCategory, N: c.N, Codes: make([]int16, c.N)}
	index := map[string]int16{}
	for i := 0; i < c.N; i++ {
		if c.IsNull(i) {
			out.SetNull(i)
			continue
		}
		s := c.Str(i)
		code, ok := index[s]
		if !ok {
			code = int16(len(out.Dict))
			index[s] = code
			out.Dict = append(out.Dict, s)
		}
		out.Codes[i] = code
	}
	return out
}

// DropNull returns the awards without nulls in the named columns. See
// Frame.DropNull.
//
// Example:
//
//	award_data.DropNull("UEI").Count()
func DropNull(columns ...string) Frame { return All().DropNull(columns...) }

// FillNull returns the awards with a column's nulls replaced by value.
// See Frame.FillNull.
//
// Example:
//
//	award_data.FillNull("Number Employees", 0)
func FillNull(column string, value any) Frame { return All().FillNull(column, value) }

// FloatOK returns a numeric column's value and true, or 0 and false for
// a null: Go's comma-ok form, so that a loop skips nulls instead of
// adding NaN.
//
// Example:
//
//	sum, n := 0.0, 0
//	for i := 0; i < f.Len(); i++ {
//		if v, ok := f.Row(i).FloatOK("Award Amount"); ok {
//			sum, n = sum+v, n+1
//		}
//	}
func (r Row) FloatOK(column string) (float64, bool) {
	v := r.Float(column)
	if math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// IntOK returns an int column's value and true, or 0 and false for a
// null (Int alone cannot tell a null from 0).
//
// Example:
//
//	if n, ok := award_data.All().Row(0).IntOK("Number Employees"); ok {
//		fmt.Println(n, "employees")
//	}
func (r Row) IntOK(column string) (int64, bool) {
	v := r.Int(column)
	return v, !r.IsNull(column)
}

// TimeOK returns a date column's value and true, or the zero time and
// false for a null.
//
// Example:
//
//	if t, ok := award_data.All().Row(0).TimeOK("Proposal Award Date"); ok {
//		fmt.Println(t.Year())
//	}
func (r Row) TimeOK(column string) (time.Time, bool) {
	t := r.Time(column)
	return t, !r.IsNull(column)
}
