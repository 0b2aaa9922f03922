package award_data

import (
	"math"
	"strings"
	"time"

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
	rows := f.rowList()
	out := &columnar.Vector{Name: derivedName(c.Name, p), Kind: columnar.KindInt, N: len(rows), Ints: make([]int64, len(rows))}
	fast := civilParts[p]
	if fast != nil {
		fast = dayTable(c, rows, fast)
	}
	// Each distinct day is converted once (award dates repeat a lot), or
	// with integer arithmetic for the common parts.
	cache := map[int32]int64{}
	for k, r := range rows {
		if c.IsNull(int(r)) {
			out.SetNull(k)
			continue
		}
		d := c.Days[r]
		if fast != nil {
			out.Ints[k] = fast(d)
			continue
		}
		v, ok := cache[d]
		if !ok {
			v = get(columnar.DayTime(d))
			cache[d] = v
		}
		out.Ints[k] = v
	}
	return f.withColumn(out, rows)
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

// dayTable returns part as a lookup in a table over the days the rows
// span (award dates span a few decades: ~16,000 days, each computed
// once), or part itself when they span too many.
func dayTable(c *columnar.Vector, rows []int32, part func(int32) int64) func(int32) int64 {
	lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
	for _, r := range rows {
		if d := c.Days[r]; !c.IsNull(int(r)) {
			lo, hi = min(lo, d), max(hi, d)
		}
	}
	if lo > hi || int64(hi)-int64(lo) >= 1<<20 || int64(hi)-int64(lo) > 4*int64(len(rows)) {
		return part
	}
	table := make([]int64, int(hi-lo)+1)
	for i := range table {
		table[i] = part(lo + int32(i))
	}
	return func(d int32) int64 { return table[d-lo] }
}

// civil returns the year, month and day of days since 1970-01-01.
func civil(days int32) (y, m, d int64) {
	z := int64(days) + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
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
