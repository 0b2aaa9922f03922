package award_data

import (
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Strings returns the named column of f as strings, one per row: text and
// category values as they are, numbers in Go's shortest form, dates as
// 2006-01-02. A null becomes "" (the data file stores empty fields as
// null, so "" never means anything else). Any column type is accepted.
// Strings panics with f's error or an unknown column.
//
// Example:
//
//	companies := award_data.Head(3).Strings("Company")
func (f Frame) Strings(column string) []string {
	f.must()
	c := f.mustColumn("Strings", column)
	out := make([]string, f.Len())
	switch c.Kind {
	case columnar.KindText:
		for k := range out {
			i := f.row(k)
			if !c.IsNull(i) {
				out[k] = string(c.TextBytes(i))
			}
		}
	case columnar.KindCategory:
		for k := range out {
			i := f.row(k)
			if !c.IsNull(i) {
				out[k] = c.Dict[c.Codes[i]]
			}
		}
	default:
		for k := range out {
			out[k] = c.FormatValue(f.row(k))
		}
	}
	return out
}

// Floats returns a numeric column of f as float64s, one per row; a null
// becomes NaN (test with math.IsNaN). Int columns are converted. Floats
// panics with f's error, an unknown column, or a column that is not
// numeric.
//
// Example:
//
//	amounts := award_data.Where("Phase", "==", "Phase I").Floats("Award Amount")
func (f Frame) Floats(column string) []float64 {
	f.must()
	c := f.mustColumn("Floats", column)
	if !c.Numeric() {
		panic(wrongType("Floats", c, "int or float", "use Strings or Times"))
	}
	out := make([]float64, f.Len())
	if c.Kind == columnar.KindFloat && !c.HasNulls() {
		if f.all {
			copy(out, c.Floats)
			return out
		}
		for k, i := range f.rowList() {
			out[k] = c.Floats[i]
		}
		return out
	}
	for k := range out {
		out[k] = c.Float(f.row(k))
	}
	return out
}

// Ints returns an int column of f as int64s, one per row; a null becomes
// 0. When 0 is a real value of the column (Number Employees), use Floats,
// which returns NaN for nulls, or filter first with
// Where(column, "not null", nil). Ints panics with f's error, an unknown
// column or a column that is not an int column.
//
// Example:
//
//	years := award_data.Head(10).Ints("Award Year")
func (f Frame) Ints(column string) []int64 {
	f.must()
	c := f.mustColumn("Ints", column)
	if c.Kind != columnar.KindInt {
		hint := "use Floats for float columns"
		if c.Kind != columnar.KindFloat {
			hint = "use Strings or Times"
		}
		panic(wrongType("Ints", c, "int", hint))
	}
	out := make([]int64, f.Len())
	for k := range out {
		i := f.row(k)
		if !c.IsNull(i) {
			out[k] = c.Ints[i]
		}
	}
	return out
}

// Times returns a date column of f as times at midnight UTC, one per row;
// a null becomes the zero time.Time (test with t.IsZero()). Times panics
// with f's error, an unknown column or a column that is not a date column.
//
// Example:
//
//	dates := award_data.Where("Proposal Award Date", "not null", nil).Head(5).Times("Proposal Award Date")
func (f Frame) Times(column string) []time.Time {
	f.must()
	c := f.mustColumn("Times", column)
	if c.Kind != columnar.KindDate {
		panic(wrongType("Times", c, "date", "the date columns are Proposal Award Date, Contract End Date, Solicitation Close Date, Proposal Receipt Date and Date of Notification"))
	}
	out := make([]time.Time, f.Len())
	for k := range out {
		i := f.row(k)
		if !c.IsNull(i) {
			out[k] = columnar.DayTime(c.Days[i])
		}
	}
	return out
}

// Nulls reports, for each row of f, whether the named column is null
// there. It panics with f's error or an unknown column.
//
// Example:
//
//	missing := award_data.Head(10).Nulls("UEI")
func (f Frame) Nulls(column string) []bool {
	f.must()
	c := f.mustColumn("Nulls", column)
	out := make([]bool, f.Len())
	for k := range out {
		out[k] = c.IsNull(f.row(k))
	}
	return out
}

func (f Frame) mustColumn(op, name string) *columnar.Vector {
	c, err := f.lookup(op, name)
	if err != nil {
		panic(err)
	}
	return c
}

func wrongType(op string, c *columnar.Vector, want, hint string) *Error {
	msg := "column " + quote(c.Name) + " is " + c.Kind.String() + ", not " + want
	if hint != "" {
		msg += "; " + hint
	}
	return &Error{Op: op, Msg: msg}
}

// A Row is one row of a Frame, as handed to the function given to Filter
// or returned by Frame.Row. Its methods read a column by name; they panic
// with an *Error for an unknown column or a wrong type.
//
// Example:
//
//	r := award_data.All().Row(0)
//	fmt.Println(r.String("Company"), r.Float("Award Amount"))
type Row struct {
	t *columnar.Table
	i int
}

func (r Row) col(op, name string) *columnar.Vector {
	if r.t == nil {
		panic(errorf(op, "the row is empty"))
	}
	if j, ok := r.t.ByName[name]; ok {
		return r.t.Cols[j]
	}
	f := frameOf(r.t)
	return f.mustColumn(op, name)
}

// Index returns the row's ordinal in its table: for award data, the
// award's position in the data file, which identifies it.
//
// Example:
//
//	idx := award_data.All().Row(7).Index() // 7
func (r Row) Index() int { return r.i }

// String returns the column's value as Strings would ("" for null).
//
// Example:
//
//	award_data.Filter(func(r award_data.Row) bool { return len(r.String("Award Title")) > 100 })
func (r Row) String(column string) string { return r.col("Row.String", column).FormatValue(r.i) }

// Float returns a numeric column's value, NaN for null.
//
// Example:
//
//	award_data.Filter(func(r award_data.Row) bool { return r.Float("Award Amount") > 1e6 })
func (r Row) Float(column string) float64 {
	c := r.col("Row.Float", column)
	if !c.Numeric() {
		panic(wrongType("Row.Float", c, "int or float", "use String or Time"))
	}
	return c.Float(r.i)
}

// Int returns an int column's value, 0 for null (check IsNull when 0 is
// a real value).
//
// Example:
//
//	award_data.Filter(func(r award_data.Row) bool { return r.Int("Award Year")%4 == 0 })
func (r Row) Int(column string) int64 {
	c := r.col("Row.Int", column)
	if c.Kind != columnar.KindInt {
		panic(wrongType("Row.Int", c, "int", "use Float, String or Time"))
	}
	if c.IsNull(r.i) {
		return 0
	}
	return c.Ints[r.i]
}

// Time returns a date column's value at midnight UTC, the zero time for
// null.
//
// Example:
//
//	award_data.Filter(func(r award_data.Row) bool { return r.Time("Proposal Award Date").Weekday() == time.Friday })
func (r Row) Time(column string) time.Time {
	c := r.col("Row.Time", column)
	if c.Kind != columnar.KindDate {
		panic(wrongType("Row.Time", c, "date", "use String, Int or Float"))
	}
	if c.IsNull(r.i) {
		return time.Time{}
	}
	return columnar.DayTime(c.Days[r.i])
}

// IsNull reports whether the column is null (empty in the CSV) in this row.
//
// Example:
//
//	award_data.Filter(func(r award_data.Row) bool { return r.IsNull("UEI") && !r.IsNull("Duns") })
func (r Row) IsNull(column string) bool { return r.col("Row.IsNull", column).IsNull(r.i) }

// Row returns row k of f (0 ≤ k < f.Len()). It panics with f's error or
// when k is out of range.
//
// Example:
//
//	top := award_data.Sort("-Award Amount").Row(0)
//	fmt.Println(top.String("Company"))
func (f Frame) Row(k int) Row {
	f.must()
	if k < 0 || k >= f.Len() {
		panic(errorf("Row", "row %d is out of range: the frame has %d rows", k, f.Len()))
	}
	return Row{t: f.t, i: f.row(k)}
}
