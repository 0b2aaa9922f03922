package award_data

import (
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// PivotOptions describes a pivot table for Frame.Pivot.
type PivotOptions struct {
	Rows    string // column whose values label the rows, e.g. "Agency"
	Columns string // column whose values become columns, e.g. "Award Year"
	Values  string // column aggregated in each cell, e.g. "Award Amount"; "" with Agg "count"
	Agg     string // statistic per cell, as in Agg: sum (the default; count without Values), count, mean, median, min, max, std, var, nunique, first, last
	Margins bool   // add an "All" column and an "All" row over each row, column and everything
}

// maxPivotColumns bounds the distinct values of PivotOptions.Columns.
const maxPivotColumns = 1000

// Pivot builds a pivot table, like pandas' pivot_table: one row per value
// of Rows, one column per value of Columns (named by the value, e.g.
// "2015"; a null is "(null)"), each cell Agg of Values over the rows with
// that pair; a cell without rows is null. Rows and columns are sorted by
// value, nulls last. With Margins, an "All" column and row hold the same
// statistic over each row, each column and all rows (so the row labels
// become text).
//
// Example:
//
//	award_data.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Phase", Values: "Award Amount", Agg: "sum", Margins: true})
func (f Frame) Pivot(o PivotOptions) Frame {
	if f.err != nil {
		return f
	}
	const op = "Pivot"
	if o.Rows == "" || o.Columns == "" {
		return errFrame(errorf(op, "set Rows and Columns, e.g. Pivot(award_data.PivotOptions{Rows: \"Agency\", Columns: \"Award Year\", Values: \"Award Amount\"})"))
	}
	if o.Agg == "" {
		o.Agg = "sum"
		if o.Values == "" {
			o.Agg = "count"
		}
	}
	spec := strings.ToLower(strings.TrimSpace(o.Agg)) + "(" + o.Values + ")"
	a, err := parseAggSpec(spec)
	if err != nil {
		return errFrame(renameOp(err, op))
	}
	if a.stat == "quantile" {
		return errFrame(errorf(op, "Agg %q: quantiles need a q; use GroupBy(...).Quantile", o.Agg))
	}
	rc, err := f.lookup(op, o.Rows)
	if err != nil {
		return errFrame(err)
	}
	cc, err := f.lookup(op, o.Columns)
	if err != nil {
		return errFrame(err)
	}
	if rc == cc {
		return errFrame(errorf(op, "Rows and Columns are both %q; pick two columns", rc.Name))
	}
	if a.column != "" {
		if _, err := f.lookup(op, a.column); err != nil {
			return errFrame(err)
		}
	}
	g := f.GroupBy(rc.Name, cc.Name)
	if g.err != nil {
		return errFrame(renameOp(g.err, op))
	}
	cell, err := g.stat(a)
	if err != nil {
		return errFrame(renameOp(err, op))
	}
	rowKey := columnar.NewSortKey(rc, false)
	colKey := columnar.NewSortKey(cc, false)
	// Groups come sorted by (row value, column value): a new row starts
	// where the row value changes. Columns are the distinct column values.
	rowOf := make([]int, len(g.rep))
	var rowRep []int32
	for id, r := range g.rep {
		if id == 0 || rowKey.Compare(int(r), int(rowRep[len(rowRep)-1])) != 0 {
			rowRep = append(rowRep, r)
		}
		rowOf[id] = len(rowRep) - 1
	}
	colReps := columnar.SortedRows(append([]int32(nil), g.rep...), []columnar.SortKey{colKey})
	var colRep []int32
	for _, r := range colReps {
		if len(colRep) == 0 || colKey.Compare(int(r), int(colRep[len(colRep)-1])) != 0 {
			colRep = append(colRep, r)
		}
	}
	if len(colRep) > maxPivotColumns {
		return errFrame(errorf(op, "%q has %d distinct values; a pivot takes at most %d columns (filter with Where, or use GroupBy)", cc.Name, len(colRep), maxPivotColumns))
	}
	colOf := func(r int32) int {
		lo, hi := 0, len(colRep)
		for lo < hi {
			m := (lo + hi) / 2
			if colKey.Compare(int(colRep[m]), int(r)) < 0 {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	// matrix[col][row] = group id, or -1.
	matrix := make([][]int32, len(colRep))
	for j := range matrix {
		matrix[j] = make([]int32, len(rowRep))
		for i := range matrix[j] {
			matrix[j][i] = -1
		}
	}
	for id, r := range g.rep {
		matrix[colOf(r)][rowOf[id]] = int32(id)
	}
	label := columnar.Gather(rc, rowRep)
	cols := []*columnar.Vector{label}
	used := map[string]bool{label.Name: true}
	name := func(s string) string {
		for used[s] {
			s += " "
		}
		used[s] = true
		return s
	}
	for j, r := range colRep {
		v := columnar.Gather(cell, matrix[j])
		v.Name = "(null)"
		if !cc.IsNull(int(r)) {
			v.Name = cc.FormatValue(int(r))
		}
		v.Name = name(v.Name)
		cols = append(cols, v)
	}
	if !o.Margins {
		return frameOf(columnar.NewTable(cols, false))
	}
	// Margins: the statistic by row, by column and over everything.
	byRow, err := f.GroupBy(rc.Name).stat(a)
	if err != nil {
		return errFrame(renameOp(err, op))
	}
	byCol, err := f.GroupBy(cc.Name).stat(a)
	if err != nil {
		return errFrame(renameOp(err, op))
	}
	total, err := f.single().stat(a)
	if err != nil {
		return errFrame(renameOp(err, op))
	}
	byRow.Name = name("All")
	cols = append(cols, byRow)
	// The "All" row: labels become text; each value column gets its column
	// total, the "All" column the grand total.
	out := make([]*columnar.Vector, len(cols))
	labels := make([]string, len(rowRep)+1)
	for i := range rowRep {
		labels[i] = label.FormatValue(i)
	}
	labels[len(rowRep)] = "All"
	out[0] = columnar.TextVector(label.Name, labels)
	for j := 1; j < len(cols); j++ {
		extra := total
		if j-1 < len(colRep) {
			extra = columnar.Gather(byCol, []int32{int32(j - 1)})
		}
		v, err := columnar.Append(cols[j].Name, cols[j].Kind, []*columnar.Vector{cols[j], extra}, nil)
		if err != nil {
			return errFrame(errorf("Pivot", "%v", err))
		}
		v.AggName = cols[j].AggName
		out[j] = v
	}
	return frameOf(columnar.NewTable(out, false))
}

// Pivot builds a pivot table over all awards. See Frame.Pivot.
//
// Example:
//
//	award_data.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Award Year", Values: "Award Amount"})
func Pivot(o PivotOptions) Frame { return All().Pivot(o) }
