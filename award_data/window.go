package award_data

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Window functions (PctChange, Diff, Shift, CumSum, Rolling, Rank) add a
// column computed along the frame's rows in their order, as pandas'
// methods of the same names do on a column; on a Grouped they work within
// each group, as pandas' groupby(...).pct_change() does, and return the
// frame's rows with the new column. The new column is named after the
// column and the operation, e.g. "Award Amount (pct change)" (Rename
// changes it); the other columns are kept.

// derivedName names a column computed from column by op.
func derivedName(column, op string) string { return column + " (" + op + ")" }

// periodsArg reads the optional periods argument of Shift, Diff and
// PctChange (default 1).
func periodsArg(op string, periods []int) (int, error) {
	switch len(periods) {
	case 0:
		return 1, nil
	case 1:
		p := periods[0]
		if p == 0 || p > maxBuildRows || p < -maxBuildRows {
			return 0, errorf(op, "periods is %d; give a number of rows other than 0 (negative looks ahead)", p)
		}
		return p, nil
	}
	return 0, errorf(op, "give at most one periods argument, e.g. %s(\"Award Amount\", 1); got %d", op, len(periods))
}

// windowOp is what the window functions share: f's rows, split into the
// segments they work within (one for a Frame, one per group for a
// Grouped), and the frame the result column joins.
type windowOp struct {
	f    Frame
	rows []int32
	seg  columnar.Segments
}

func (f Frame) window() windowOp {
	rows := f.rowList()
	return windowOp{f: f, rows: rows, seg: columnar.OneSegment(len(rows))}
}

func (g Grouped) window() windowOp {
	return windowOp{f: g.f, rows: g.f.rowList(), seg: columnar.GroupSegments(g.idList(), len(g.rep))}
}

// numericColumn looks up a numeric column for op.
func (w windowOp) numericColumn(op, column string) (*columnar.Vector, error) {
	c, err := w.f.lookup(op, column)
	if err != nil {
		return nil, err
	}
	if !c.Numeric() {
		return nil, wrongType(op, c, "int or float", "")
	}
	return c, nil
}

// shift is Shift, Diff and PctChange: kind says which.
func (w windowOp) shift(op, column string, periods []int) Frame {
	p, err := periodsArg(op, periods)
	if err != nil {
		return errFrame(err)
	}
	var c *columnar.Vector
	if op == "Shift" {
		c, err = w.f.lookup(op, column)
	} else {
		c, err = w.numericColumn(op, column)
	}
	if err != nil {
		return errFrame(err)
	}
	prev := columnar.ShiftRows(w.rows, w.seg, p)
	label := map[string]string{"Shift": "shift", "Diff": "diff", "PctChange": "pct change"}[op]
	if p != 1 {
		label += fmt.Sprintf(" %d", p)
	}
	name := derivedName(c.Name, label)
	var out *columnar.Vector
	switch op {
	case "Shift":
		out = columnar.Gather(c, prev)
		out.Name, out.AggName = name, ""
	case "Diff":
		out = columnar.Differences(name, c, w.rows, prev, c.Kind == columnar.KindInt, func(cur, before float64) float64 { return cur - before })
	default:
		out = columnar.Differences(name, c, w.rows, prev, false, func(cur, before float64) float64 { return cur/before - 1 })
	}
	return w.f.withColumn(out, w.rows)
}

// PctChange adds the relative change of a numeric column from the row
// periods rows earlier (default 1; negative compares with later rows),
// as pandas' pct_change(): 0.25 is 25% more. A null on either side gives
// a null; growth from 0 is +Inf (or -Inf), as Go's float division gives.
// The column is named "<column> (pct change)".
//
// Example:
//
//	award_data.GroupBy("Award Year").Sum("Award Amount").PctChange("Award Amount")
func (f Frame) PctChange(column string, periods ...int) Frame {
	if f.err != nil {
		return f
	}
	return f.window().shift("PctChange", column, periods)
}

// Diff adds the difference of a numeric column from the row periods rows
// earlier (default 1), as pandas' diff(); an int column's difference stays
// int. The column is named "<column> (diff)".
//
// Example:
//
//	award_data.GroupBy("Award Year").Count().Diff("Count")
func (f Frame) Diff(column string, periods ...int) Frame {
	if f.err != nil {
		return f
	}
	return f.window().shift("Diff", column, periods)
}

// Shift adds a column holding the value periods rows earlier (default 1;
// negative takes later rows), null where there is none, as pandas'
// shift(). The column is named "<column> (shift)".
//
// Example:
//
//	award_data.GroupBy("Award Year").Sum("Award Amount").Shift("Award Amount")
func (f Frame) Shift(column string, periods ...int) Frame {
	if f.err != nil {
		return f
	}
	return f.window().shift("Shift", column, periods)
}

func (w windowOp) cumSum(column string) Frame {
	c, err := w.numericColumn("CumSum", column)
	if err != nil {
		return errFrame(err)
	}
	return w.f.withColumn(columnar.CumSum(derivedName(c.Name, "cumsum"), c, w.rows, w.seg), w.rows)
}

// CumSum adds the running total of a numeric column down the rows, as
// pandas' cumsum(): a null row stays null and the total goes on past it.
// The column is named "<column> (cumsum)".
//
// Example:
//
//	award_data.GroupBy("Award Year").Sum("Award Amount").CumSum("Award Amount")
func (f Frame) CumSum(column string) Frame {
	if f.err != nil {
		return f
	}
	return f.window().cumSum(column)
}

func (w windowOp) rolling(column string, window int, stat string) Frame {
	const op = "Rolling"
	c, err := w.numericColumn(op, column)
	if err != nil {
		return errFrame(err)
	}
	if window < 1 || window > maxBuildRows {
		return errFrame(errorf(op, "window is %d; give a number of rows from 1 to %d", window, maxBuildRows))
	}
	s := strings.ToLower(strings.TrimSpace(stat))
	if alias, ok := statAliases[s]; ok {
		s = alias
	}
	if !slices.Contains(columnar.RollingStats, s) {
		return errFrame(errorf(op, "stat is %q; use one of %s", stat, strings.Join(columnar.RollingStats, ", ")))
	}
	name := derivedName(c.Name, fmt.Sprintf("rolling %s %d", s, window))
	out, err := columnar.Rolling(name, c, w.rows, w.seg, window, s)
	if err != nil {
		return errFrame(errorf(op, "%v", err))
	}
	return w.f.withColumn(out, w.rows)
}

// Rolling adds a statistic over a moving window of rows, as pandas'
// rolling(window).stat(): each row gets stat over itself and the
// window-1 rows before it (sum, mean, min, max, median, std, var or
// count). A window with fewer than window values (the first rows, or
// nulls) gives a null, as pandas' default. The column is named
// "<column> (rolling <stat> <window>)".
//
// Example:
//
//	award_data.GroupBy("Award Year").Sum("Award Amount").Rolling("Award Amount", 3, "mean")
func (f Frame) Rolling(column string, window int, stat string) Frame {
	if f.err != nil {
		return f
	}
	return f.window().rolling(column, window, stat)
}

// PctChange adds each row's relative change from the row periods rows
// earlier in its group (see Frame.PctChange), keeping the frame's rows,
// as pandas' groupby(...).pct_change().
//
// Example:
//
//	award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").PctChange("Award Amount")
func (g Grouped) PctChange(column string, periods ...int) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	return g.window().shift("PctChange", column, periods)
}

// Diff adds each row's difference from the row periods rows earlier in
// its group (see Frame.Diff).
//
// Example:
//
//	award_data.GroupBy("Agency", "Award Year").Count().GroupBy("Agency").Diff("Count")
func (g Grouped) Diff(column string, periods ...int) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	return g.window().shift("Diff", column, periods)
}

// Shift adds the value periods rows earlier in each row's group (see
// Frame.Shift).
//
// Example:
//
//	award_data.GroupBy("Agency", "Award Year").Count().GroupBy("Agency").Shift("Count")
func (g Grouped) Shift(column string, periods ...int) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	return g.window().shift("Shift", column, periods)
}

// CumSum adds the running total of a numeric column within each group
// (see Frame.CumSum).
//
// Example:
//
//	award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").CumSum("Award Amount")
func (g Grouped) CumSum(column string) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	return g.window().cumSum(column)
}

// Rolling adds a moving-window statistic within each group (see
// Frame.Rolling).
//
// Example:
//
//	award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").Rolling("Award Amount", 3, "mean")
func (g Grouped) Rolling(column string, window int, stat string) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	return g.window().rolling(column, window, stat)
}
