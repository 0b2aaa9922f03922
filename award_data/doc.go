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
// Sort, Head, Tail and Sample return new Frames; GroupBy returns a
// Grouped whose aggregations (Count, Sum, Mean, Median, Quantile, Min,
// Max, CountDistinct, Share) return Frames with one row per group.
// Bar, Line, Scatter and Histogram turn a Frame into a Vega-Lite chart.
//
// All of this runs as compiled Go over the Arrow columns. Calls from a
// cell are cheap, but a Go loop in a cell costs about 50 times a compiled
// one: prefer Where to Filter, and whole-column methods (Floats, Strings,
// Sum, ...) to loops over rows.
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
// fmt.Println(frame) prints an aligned table (at most 20 rows and 120
// characters wide, numbers with thousands separators). As a cell's last
// expression a Frame also shows as an HTML table and a Chart as a
// Vega-Lite chart: both have a MIMEBundle method, which the kernel and
// display.Show use.
package award_data
