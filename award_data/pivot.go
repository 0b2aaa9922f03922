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
	return f.pivot("Pivot", o)
}

// pivotPlan is a pivot table being built: the grouping by (row, column)
// value pairs, its groups placed in the table, and the cell statistic.
type pivotPlan struct {
	op       string
	a        aggSpec
	rc, cc   *columnar.Vector // the Rows and Columns columns
	g        Grouped          // grouped by (row value, column value)
	cell     *columnar.Vector // the statistic of each group
	rowRep   []int32          // a table row of each pivot row, in order
	colRep   []int32          // a table row of each pivot column, in order
	matrix   [][]int32        // matrix[col][row]: the group, or -1
	rowLabel *columnar.Vector // the row labels
}

// pivot builds Pivot's table (and Unstack's, whose op it reports).
func (f Frame) pivot(op string, o PivotOptions) Frame {
	p, err := f.planPivot(op, o)
	if err != nil {
		return errFrame(err)
	}
	if err := p.place(); err != nil {
		return errFrame(err)
	}
	cols, used := p.columns()
	if !o.Margins {
		return frameOf(columnar.NewTable(cols, false))
	}
	out, err := p.margins(f, cols, used)
	if err != nil {
		return errFrame(err)
	}
	return frameOf(columnar.NewTable(out, false))
}

// planPivot checks the options, groups f by the row and column values
// and computes each group's statistic.
func (f Frame) planPivot(op string, o PivotOptions) (*pivotPlan, error) {
	if o.Rows == "" || o.Columns == "" {
		return nil, errorf(op, "set Rows and Columns, e.g. Pivot(award_data.PivotOptions{Rows: \"Agency\", Columns: \"Award Year\", Values: \"Award Amount\"})")
	}
	if o.Agg == "" {
		o.Agg = "sum"
		if o.Values == "" {
			o.Agg = "count"
		}
	}
	a, err := parseAggSpec(strings.ToLower(strings.TrimSpace(o.Agg)) + "(" + o.Values + ")")
	if err != nil {
		return nil, renameOp(err, op)
	}
	if a.stat == "quantile" {
		return nil, errorf(op, "Agg %q: quantiles need a q; use GroupBy(...).Quantile", o.Agg)
	}
	p := &pivotPlan{op: op, a: a}
	if p.rc, err = f.lookup(op, o.Rows); err != nil {
		return nil, err
	}
	if p.cc, err = f.lookup(op, o.Columns); err != nil {
		return nil, err
	}
	if p.rc == p.cc {
		return nil, errorf(op, "Rows and Columns are both %q; pick two columns", p.rc.Name)
	}
	if a.column != "" {
		if _, err := f.lookup(op, a.column); err != nil {
			return nil, err
		}
	}
	if p.g = f.GroupBy(p.rc.Name, p.cc.Name); p.g.err != nil {
		return nil, renameOp(p.g.err, op)
	}
	if p.cell, err = p.g.stat(a); err != nil {
		return nil, renameOp(err, op)
	}
	return p, nil
}

// place finds the pivot's rows and columns and puts each group in its
// cell. Groups come sorted by (row value, column value): a new row
// starts where the row value changes; the columns are the distinct
// column values.
func (p *pivotPlan) place() error {
	g := p.g
	rowKey := columnar.NewSortKey(p.rc, false)
	colKey := columnar.NewSortKey(p.cc, false)
	rowOf := make([]int, len(g.rep))
	for id, r := range g.rep {
		if id == 0 || rowKey.Compare(int(r), int(p.rowRep[len(p.rowRep)-1])) != 0 {
			p.rowRep = append(p.rowRep, r)
		}
		rowOf[id] = len(p.rowRep) - 1
	}
	for _, r := range columnar.SortedRows(append([]int32(nil), g.rep...), []columnar.SortKey{colKey}) {
		if len(p.colRep) == 0 || colKey.Compare(int(r), int(p.colRep[len(p.colRep)-1])) != 0 {
			p.colRep = append(p.colRep, r)
		}
	}
	if len(p.colRep) > maxPivotColumns {
		return errorf(p.op, "%q has %d distinct values; a pivot takes at most %d columns (filter with Where, or use GroupBy)", p.cc.Name, len(p.colRep), maxPivotColumns)
	}
	colOf := func(r int32) int {
		lo, hi := 0, len(p.colRep)
		for lo < hi {
			m := (lo + hi) / 2
			if colKey.Compare(int(p.colRep[m]), int(r)) < 0 {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	p.matrix = make([][]int32, len(p.colRep))
	for j := range p.matrix {
		p.matrix[j] = make([]int32, len(p.rowRep))
		for i := range p.matrix[j] {
			p.matrix[j][i] = -1
		}
	}
	for id, r := range g.rep {
		p.matrix[colOf(r)][rowOf[id]] = int32(id)
	}
	return nil
}

// columns builds the row labels and one column per column value; used
// holds the names taken.
func (p *pivotPlan) columns() ([]*columnar.Vector, map[string]bool) {
	p.rowLabel = columnar.Gather(p.rc, p.rowRep)
	cols := []*columnar.Vector{p.rowLabel}
	used := map[string]bool{p.rowLabel.Name: true}
	for j, r := range p.colRep {
		v := columnar.Gather(p.cell, p.matrix[j])
		v.Name = "(null)"
		if !p.cc.IsNull(int(r)) {
			v.Name = p.cc.FormatValue(int(r))
		}
		v.Name = uniqueName(used, v.Name)
		cols = append(cols, v)
	}
	return cols, used
}

// uniqueName returns s, with spaces added until no name in used has it,
// and marks it used.
func uniqueName(used map[string]bool, s string) string {
	for used[s] {
		s += " "
	}
	used[s] = true
	return s
}

// margins adds the "All" column (the statistic by row) and the "All" row
// (by column, and over everything in the "All" column); the row labels
// become text.
func (p *pivotPlan) margins(f Frame, cols []*columnar.Vector, used map[string]bool) ([]*columnar.Vector, error) {
	byRow, err := f.GroupBy(p.rc.Name).stat(p.a)
	if err != nil {
		return nil, renameOp(err, p.op)
	}
	byCol, err := f.GroupBy(p.cc.Name).stat(p.a)
	if err != nil {
		return nil, renameOp(err, p.op)
	}
	total, err := f.single().stat(p.a)
	if err != nil {
		return nil, renameOp(err, p.op)
	}
	byRow.Name = uniqueName(used, "All")
	cols = append(cols, byRow)
	out := make([]*columnar.Vector, len(cols))
	labels := make([]string, len(p.rowRep)+1)
	for i := range p.rowRep {
		labels[i] = p.rowLabel.FormatValue(i)
	}
	labels[len(p.rowRep)] = "All"
	out[0] = columnar.TextVector(p.rowLabel.Name, labels)
	for j := 1; j < len(cols); j++ {
		extra := total
		if j-1 < len(p.colRep) {
			extra = columnar.Gather(byCol, []int32{int32(j - 1)})
		}
		v, err := columnar.Append(cols[j].Name, cols[j].Kind, []*columnar.Vector{cols[j], extra}, nil)
		if err != nil {
			return nil, errorf(p.op, "%v", err)
		}
		v.AggName = cols[j].AggName
		out[j] = v
	}
	return out, nil
}

// Pivot builds a pivot table over all awards. See Frame.Pivot.
//
// Example:
//
//	award_data.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Award Year", Values: "Award Amount"})
func Pivot(o PivotOptions) Frame { return All().Pivot(o) }
