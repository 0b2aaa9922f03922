package award_data

import (
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// dateParts are the parts DatePart extracts, as pandas' .dt accessors.
var dateParts = map[string]func(t time.Time) int64{
	"year":      func(t time.Time) int64 { return int64(t.Year()) },
	"quarter":   func(t time.Time) int64 { return int64(t.Month()-1)/3 + 1 },
	"month":     func(t time.Time) int64 { return int64(t.Month()) },
	"day":       func(t time.Time) int64 { return int64(t.Day()) },
	"weekday":   func(t time.Time) int64 { return int64(t.Weekday()+6) % 7 }, // Monday = 0, as pandas
	"dayofyear": func(t time.Time) int64 { return int64(t.YearDay()) },
	"week":      func(t time.Time) int64 { _, w := t.ISOWeek(); return int64(w) },
}

const datePartList = "year, quarter, month, day, weekday (Monday = 0), dayofyear, week (ISO)"

// DatePart adds a part of a date column as an int column, as pandas'
// .dt accessors: "year", "quarter", "month" (1-12), "day", "weekday"
// (Monday = 0, as pandas), "dayofyear" or "week" (ISO). A null date gives
// a null. The column is named "<column> (<part>)".
//
// Example:
//
//	award_data.DatePart("Proposal Award Date", "month").ValueCounts("Proposal Award Date (month)")
func (f Frame) DatePart(column, part string) Frame {
	const op = "DatePart"
	if f.err != nil {
		return f
	}
	c, err := f.lookup(op, column)
	if err != nil {
		return errFrame(err)
	}
	if c.Kind != columnar.KindDate {
		return errFrame(wrongType(op, c, "date", "the date columns are Proposal Award Date, Contract End Date, Solicitation Close Date, Proposal Receipt Date and Date of Notification"))
	}
	p := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(part), "_", ""))
	p = strings.TrimSuffix(p, "s") // "years", "days"
	if p == "dayofweek" {
		p = "weekday"
	}
	get, ok := dateParts[p]
	if !ok {
		return errFrame(errorf(op, "part %q; use one of %s", part, datePartList))
	}
	fn := civilParts[p]
	if fn == nil {
		fn = func(d int32) int64 { return get(columnar.DayTime(d)) }
	}
	return f.withColumn(columnar.DatePart(derivedName(c.Name, p), c, f.sel(), fn), f.subsetRows())
}

// civilParts compute date parts from days since 1970-01-01 with integer
// arithmetic (Howard Hinnant's civil_from_days), no time.Time.
var civilParts = map[string]func(d int32) int64{
	"year":    func(d int32) int64 { y, _, _ := civil(d); return y },
	"month":   func(d int32) int64 { _, m, _ := civil(d); return m },
	"day":     func(d int32) int64 { _, _, dd := civil(d); return dd },
	"quarter": func(d int32) int64 { _, m, _ := civil(d); return (m-1)/3 + 1 },
	"weekday": func(d int32) int64 { return ((int64(d)+3)%7 + 7) % 7 }, // 1970-01-01 was a Thursday (3)
}

// civil returns the year, month and day of days since 1970-01-01.
func civil(days int32) (y, m, d int64) {
	yy, mm, dd := dataset.CivilFromDays(days)
	return int64(yy), int64(mm), int64(dd)
}

// Year adds the year of a date column (DatePart with "year"), as pandas'
// .dt.year. The column is named "<column> (year)".
//
// Example:
//
//	award_data.Year("Proposal Award Date").GroupBy("Proposal Award Date (year)").Count()
func (f Frame) Year(column string) Frame { return f.DatePart(column, "year") }

// Month adds the month (1-12) of a date column (DatePart with "month"),
// as pandas' .dt.month. The column is named "<column> (month)".
//
// Example:
//
//	award_data.Month("Proposal Award Date").ValueCounts("Proposal Award Date (month)")
func (f Frame) Month(column string) Frame { return f.DatePart(column, "month") }

// DatePart adds a part of a date column over all awards. See
// Frame.DatePart.
//
// Example:
//
//	award_data.DatePart("Proposal Award Date", "quarter")
func DatePart(column, part string) Frame { return All().DatePart(column, part) }

// Year adds the year of a date column over all awards. See Frame.Year.
//
// Example:
//
//	award_data.Year("Proposal Award Date")
func Year(column string) Frame { return All().Year(column) }

// Month adds the month of a date column over all awards. See Frame.Month.
//
// Example:
//
//	award_data.Month("Proposal Award Date")
func Month(column string) Frame { return All().Month(column) }
