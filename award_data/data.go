package award_data

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// loaded is the session's state: the award data the package-level
// functions read (set once by Use, in the worker, before any cell runs)
// the display settings (SetDisplay) and the rows of a frame its table
// representation carries (SetRecordWindow). It is the package's only
// package-level variable that changes: a worker process serves one
// session, so session state and process state are the same thing.
var loaded atomic.Pointer[session]

// session is what loaded points to; it is replaced, never modified.
type session struct {
	t       *columnar.Table
	report  *dataset.LoadReport
	display DisplayOptions
	records recordWindow
}

// current returns the session's state (never nil).
func current() *session {
	if s := loaded.Load(); s != nil {
		return s
	}
	return &session{}
}

// setSession replaces the session's state with fn applied to a copy of it.
func setSession(fn func(s *session)) {
	for {
		old := loaded.Load()
		next := &session{}
		if old != nil {
			*next = *old
		}
		fn(next)
		if loaded.CompareAndSwap(old, next) {
			return
		}
	}
}

// Use makes d the data every package-level function reads. The sandbox
// worker calls it once, before any cell runs; cells cannot call it. d's
// columns are used in place (no copy), so d must stay open while cells
// run.
//
// Example (in the worker):
//
//	d, err := dataset.OpenFile(src.ArrowPath)
//	if err == nil {
//		err = award_data.Use(d)
//	}
func Use(d *dataset.Dataset) error {
	if d == nil {
		return fmt.Errorf("award_data: Use: nil dataset")
	}
	t, err := tableFromRecord(d.Record(), true)
	if err != nil {
		return fmt.Errorf("award_data: Use: %w", err)
	}
	// The indexes Convert stored in the file (bitmap indexes, text
	// dictionaries) are used in place, so no query builds one on first
	// use.
	for _, ix := range d.Indexes() {
		i, ok := t.ByName[ix.Column]
		if !ok {
			return fmt.Errorf("award_data: Use: %s has an index of %q, which is not a column", d.Path(), ix.Column)
		}
		c := t.Cols[i]
		switch {
		case ix.Bitmap != nil:
			err = c.SetIndex(ix.Bitmap)
		case ix.Text != nil:
			err = c.SetTextDictionary(ix.Text)
		}
		if err != nil {
			return fmt.Errorf("award_data: Use: %s: %w", d.Path(), err)
		}
		if ix.Text != nil {
			// Group keys' result columns read names from the packed
			// distinct values. The file stores them (format 3), so this
			// packs nothing; for a dictionary stored without them it makes
			// the copy now (~4 ms and 0.8 MB for Company at full scale),
			// before any cell, so that the first top-20 question costs what
			// later ones do.
			c.PackTextValues()
		}
	}
	setSession(func(s *session) { s.t, s.report = t, d.Report() })
	return nil
}

// tableFromRecord wraps the columns of rec without copying them.
func tableFromRecord(rec arrow.RecordBatch, source bool) (*columnar.Table, error) {
	if rec == nil {
		return nil, fmt.Errorf("no record")
	}
	if rec.NumRows() > 1<<31-1 {
		return nil, fmt.Errorf("%d rows is more than this package can index", rec.NumRows())
	}
	cols := make([]*columnar.Vector, rec.NumCols())
	for i := range cols {
		c, err := columnar.FromArrow(rec.ColumnName(i), rec.Column(i))
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return columnar.NewTable(cols, source), nil
}

// All returns every award as a Frame, in the order of the data file. The
// package-level functions (Where, GroupBy, Head, ...) are shorthands for
// the same methods on All().
//
// Example:
//
//	awards := award_data.All()
//	fmt.Println(awards.Len(), "awards")
func All() Frame {
	t := current().t
	if t == nil {
		return errFrame(errorf("All", "no award data is loaded in this session"))
	}
	return frameOf(t)
}

// Count returns the number of awards.
//
// Example:
//
//	award_data.Count() // 219500 with the full data
func Count() int { return All().Count() }

// Columns returns the column names of the award data: the CSV header
// names, which every function that takes a column expects.
//
// Example:
//
//	award_data.Columns()
func Columns() Names { return All().Columns() }

// Head returns the first n awards. See Frame.Head.
//
// Example:
//
//	award_data.Head(5)
func Head(n int) Frame { return All().Head(n) }

// Tail returns the last n awards. See Frame.Tail.
//
// Example:
//
//	award_data.Tail(5)
func Tail(n int) Frame { return All().Tail(n) }

// Sample returns n awards chosen at random with the given seed. See
// Frame.Sample.
//
// Example:
//
//	award_data.Sample(5, 1)
func Sample(n int, seed uint64) Frame { return All().Sample(n, seed) }

// Select returns all awards with only the named columns. See Frame.Select.
//
// Example:
//
//	award_data.Select("Company", "Award Amount")
func Select(columns ...string) Frame { return All().Select(columns...) }

// Drop returns all awards without the named columns. See Frame.Drop.
//
// Example:
//
//	award_data.Drop("Abstract")
func Drop(columns ...string) Frame { return All().Drop(columns...) }

// Strings returns a column of all awards as strings ("" for null). See
// Frame.Strings.
//
// Example:
//
//	companies := award_data.Strings("Company")
func Strings(column string) []string { return All().Strings(column) }

// Floats returns a numeric column of all awards (NaN for null). See
// Frame.Floats.
//
// Example:
//
//	amounts := award_data.Floats("Award Amount")
func Floats(column string) []float64 { return All().Floats(column) }

// Ints returns an int column of all awards (0 for null). See Frame.Ints.
//
// Example:
//
//	years := award_data.Ints("Award Year")
func Ints(column string) []int64 { return All().Ints(column) }

// Times returns a date column of all awards (the zero time for null). See
// Frame.Times.
//
// Example:
//
//	dates := award_data.Times("Proposal Award Date")
func Times(column string) []time.Time { return All().Times(column) }

// Nulls reports for every award whether the column is null. See Frame.Nulls.
//
// Example:
//
//	missing := award_data.Nulls("UEI")
func Nulls(column string) []bool { return All().Nulls(column) }

// Where returns the awards where column op value holds. See Frame.Where
// for the operators and value types.
//
// Example:
//
//	award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()
func Where(column, op string, value any) Frame { return All().Where(column, op, value) }

// Filter returns the awards for which keep returns true (slower than
// Where: one cell function call per award). See Frame.Filter.
//
// Example:
//
//	award_data.Filter(func(r award_data.Row) bool { return r.Int("Award Year")%2 == 0 })
func Filter(keep func(r Row) bool) Frame { return All().Filter(keep) }

// Histogram draws the distribution of a numeric column over all awards.
// See Frame.Histogram.
//
// Example:
//
//	award_data.Histogram("Award Year", 0)
func Histogram(column string, bins int) Chart { return All().Histogram(column, bins) }

// Scatter draws one point per award at (x, y), sampling evenly beyond
// 5,000 awards. See Frame.Scatter.
//
// Example:
//
//	award_data.Scatter("Number Employees", "Award Amount")
func Scatter(x, y string) Chart { return All().Scatter(x, y) }
