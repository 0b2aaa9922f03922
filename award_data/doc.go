// Package award_data is the analysis API that notebook cells use on the
// SBIR/STTR awards (one row per award, columns named as in the CSV
// header: "Company", "Agency", "Phase", "Award Year", "Award Amount",
// "Abstract", ...; a name that differs only in case is accepted when it
// matches one column). Cells see it as award_data, imported automatically.
//
// Package-level functions work on all awards, so the simplest questions
// need no setup:
//
//	award_data.Count()
//	award_data.Columns()
//	award_data.Head(5)
//	award_data.GroupBy("Agency").Sum("Award Amount")
//	award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()
//	award_data.Where("Abstract", "contains", "lidar").Count()
//
// # Frames
//
// A Frame is a view of some rows and columns. Where, Filter, Select,
// Drop, Rename, Sort, NLargest, NSmallest, Head, Tail, Slice and Sample
// return new Frames; GroupBy returns a Grouped whose aggregations (Count,
// Sum, Mean, Median, Quantile, Min, Max, CountDistinct, Share, and Agg for
// several named statistics at once) return Frames with one row per group.
// Pivot makes a pivot table, Join combines two frames on key columns,
// Compute and Apply add computed columns, and NewFrame, FromRecords and
// Concat build frames from Go values. ToCSV, ToJSON, Records, WriteCSV
// and Download export a frame (cells have no files). Bar, Line, Scatter
// and Histogram turn a Frame into a chart.
//
// What pandas users reach for next is here under pandas' names: window
// functions down the rows or within groups (PctChange, Diff, Shift,
// CumSum, Rolling, Rank), bins (Cut, QCut), per-group rows (First, Last,
// Head, Tail, IdxMax, IdxMin), text (WordCounts, Lower, Upper, Extract,
// Explode), dates (Year, Month, DatePart), reshaping (DropDuplicates,
// Melt, Unstack), Corr, comparisons and and/or in Compute, and nulls in
// Go loops (DropNull, FillNull, Row.FloatOK). docs/pandas.md maps them.
//
// All of this runs as compiled Go over the Arrow columns (the engine is
// internal/columnar). Calls from a cell are cheap, but a Go loop in a
// cell costs about 50 times a compiled one: prefer Where to Filter,
// Compute to Apply, and whole-column methods (Floats, Strings, Sum, ...)
// to loops over rows.
//
// # Session state
//
// The package has one package-level variable that changes: the session's
// state, holding the award data (set once by the worker with Use before
// any cell runs) and the display settings (SetDisplay). A worker process
// serves one session, so the two are the same thing.
//
// # Types and nulls
//
// Columns are text (Company, Abstract, ...), category (Agency, Branch,
// Phase, Program, State and the Y/N/U flags), int (Award Year,
// Solicitation Year, Number Employees), float (Award Amount) or date (the
// five date columns). An empty CSV field is null. Nulls never satisfy a
// Where comparison (select them with "is null"), are skipped by
// aggregations, form their own group in GroupBy, sort last, and print as
// empty cells. Extracted as slices, a null is "" (Strings), NaN (Floats),
// 0 (Ints) or the zero time.Time (Times); Nulls reports where they are.
// Text of spaces only is not empty: it is kept as it is, neither null nor
// trimmed (select it with "matches" and `^\s*$`).
//
// # Errors
//
// A mistake (an unknown column, a value of the wrong type) is an *Error
// that says what to do, e.g. `award_data: Where: unknown column "Agncy"
// (did you mean "Agency"?)`. It sticks to the Frame: the rest of the
// chain does nothing, printing the Frame prints the error, and Err
// returns it. Methods that return plain Go values (Count, Sum, Strings,
// Row, ...) panic with the error instead, which stops the cell with that
// message; check Err first in code that must go on.
//
// # Display
//
// fmt.Println(frame) prints an aligned table (by default at most 20 rows
// and 120 characters wide, text cut at 40 characters, numbers with
// thousands separators, shares as percentages); SetDisplay and
// Frame.Display change the limits. As a cell's last expression a Frame
// also shows as an HTML table, and a Chart as Vega-Lite with a PNG
// drawn in Go for clients without it: both have a MIMEBundle method,
// which the kernel and display.Show use.
package award_data
