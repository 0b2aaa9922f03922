package award_data

import (
	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// DropDuplicates returns f without the rows whose values in the named
// columns (every column when none is named) repeat an earlier row's, as
// pandas' drop_duplicates(subset=columns): the first of each set of
// equal rows is kept, in f's order. Nulls equal each other.
//
// Example:
//
//	award_data.DropDuplicates("Company", "Agency").Len()
func (f Frame) DropDuplicates(columns ...string) Frame {
	const op = "DropDuplicates"
	if f.err != nil {
		return f
	}
	if f.t == nil {
		return f
	}
	if len(columns) == 0 {
		columns = f.Columns()
	}
	var ids []int32
	n := 0
	for j, name := range columns {
		c, err := f.lookup(op, name)
		if err != nil {
			return errFrame(err)
		}
		cids, rep := columnar.KeyIDs(f.sel(), c, true)
		if j == 0 {
			ids, n = cids, len(rep)
			continue
		}
		ids, _, n = columnar.CombineIDs(ids, n, cids, len(rep))
	}
	seen := make([]bool, n)
	rows := f.rowList()
	keep := make([]int32, 0, n)
	for k, id := range ids {
		if !seen[id] {
			seen[id] = true
			keep = append(keep, rows[k])
		}
	}
	return f.withRows(keep)
}

// DropDuplicates returns the awards without repeats of the named columns'
// values. See Frame.DropDuplicates.
//
// Example:
//
//	award_data.DropDuplicates("Company").Len()
func DropDuplicates(columns ...string) Frame { return All().DropDuplicates(columns...) }

// Melt turns columns into rows, as pandas' melt(id_vars=ids,
// value_vars=values): for each column of values (every column not in ids
// when none is named), one row per row of f with the ids' values, the
// column's name in "variable" and its value in "value". The values must
// all be numbers (the result is float when ints and floats mix) or all
// text. Rows come column by column, as pandas orders them.
//
// Example:
//
//	award_data.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Phase", Agg: "count"}).Melt([]string{"Agency"})
func (f Frame) Melt(ids []string, values ...string) Frame {
	const op = "Melt"
	if f.err != nil {
		return f
	}
	if f.t == nil {
		return errFrame(errorf(op, "the frame is empty (no columns)"))
	}
	idCols, valCols, err := f.meltColumns(ids, values)
	if err != nil {
		return errFrame(err)
	}
	kind := valCols[0].Kind
	for _, c := range valCols[1:] {
		switch {
		case c.Kind == kind:
		case c.Numeric() && (kind == columnar.KindInt || kind == columnar.KindFloat):
			kind = columnar.KindFloat
		case c.Textual() && (kind == columnar.KindText || kind == columnar.KindCategory):
			kind = columnar.KindText
		default:
			return errFrame(errorf(op, "column %q is %s but %q is %s; melt columns of one type (Select them)", c.Name, c.Kind, valCols[0].Name, valCols[0].Kind))
		}
	}
	rows := f.rowList()
	total := len(rows) * len(valCols)
	if total > maxBuildRows {
		return errFrame(errorf(op, "%d rows × %d columns makes more than %d rows; filter or aggregate first", len(rows), len(valCols), maxBuildRows))
	}
	from := make([][]int32, len(valCols))
	for j := range from {
		from[j] = rows
	}
	var out []*columnar.Vector
	for _, c := range idCols {
		parts := make([]*columnar.Vector, len(valCols))
		for j := range parts {
			parts[j] = c
		}
		v, err := columnar.Append(c.Name, c.Kind, parts, from)
		if err != nil {
			return errFrame(errorf(op, "%v", err))
		}
		out = append(out, v)
	}
	names := make([]string, 0, total)
	for _, c := range valCols {
		for range rows {
			names = append(names, c.Name)
		}
	}
	value, err := columnar.Append("value", kind, valCols, from)
	if err != nil {
		return errFrame(errorf(op, "%v", err))
	}
	out = append(out, columnar.TextVector(freeName(out, "variable"), names), value)
	value.Name = freeName(out[:len(out)-1], "value")
	return frameOf(columnar.NewTable(out, false))
}

// meltColumns resolves Melt's id and value columns.
func (f Frame) meltColumns(ids, values []string) (idCols, valCols []*columnar.Vector, err error) {
	isID := map[string]bool{}
	for _, name := range ids {
		c, err := f.lookup("Melt", name)
		if err != nil {
			return nil, nil, err
		}
		idCols = append(idCols, c)
		isID[c.Name] = true
	}
	if len(values) == 0 {
		for _, name := range f.Columns() {
			if !isID[name] {
				values = append(values, name)
			}
		}
	}
	for _, name := range values {
		c, err := f.lookup("Melt", name)
		if err != nil {
			return nil, nil, err
		}
		valCols = append(valCols, c)
	}
	if len(valCols) == 0 {
		return nil, nil, errorf("Melt", "no columns to melt: every column is an id")
	}
	return idCols, valCols, nil
}

// freeName returns name, or name with spaces added, so that it differs
// from the columns' names.
func freeName(cols []*columnar.Vector, name string) string {
	for taken := true; taken; {
		taken = false
		for _, c := range cols {
			if c.Name == name {
				taken, name = true, name+" "
			}
		}
	}
	return name
}

// Unstack spreads a long frame into a wide one, as pandas' unstack() of
// a grouped result: f must have three columns, row labels, the column
// named here whose values become columns, and the values (the last
// column), e.g. GroupBy("Agency", "Phase").Sum("Award Amount").Unstack("Phase").
// Each (row label, column value) pair must appear at most once (else use
// Pivot, which aggregates); a missing pair is null. Rows and columns are
// sorted by value, nulls last.
//
// Example:
//
//	award_data.GroupBy("Agency", "Phase").Sum("Award Amount").Unstack("Phase")
func (f Frame) Unstack(column string) Frame {
	const op = "Unstack"
	if f.err != nil {
		return f
	}
	c, err := f.lookup(op, column)
	if err != nil {
		return errFrame(err)
	}
	names := f.Columns()
	if len(names) != 3 || names[2] == c.Name {
		return errFrame(errorf(op, "the frame has columns %s; Unstack needs three, the row labels, %q and the values last (Select them, or use Pivot)", names, c.Name))
	}
	rowsName := names[0]
	if rowsName == c.Name {
		rowsName = names[1]
	}
	if dup := f.DropDuplicates(rowsName, c.Name); dup.Len() != f.Len() {
		return errFrame(errorf(op, "some (%s, %s) pairs appear more than once; aggregate them with Pivot(award_data.PivotOptions{Rows: %q, Columns: %q, Values: %q, Agg: \"sum\"})", rowsName, c.Name, rowsName, c.Name, names[2]))
	}
	return f.pivot(op, PivotOptions{Rows: rowsName, Columns: c.Name, Values: names[2], Agg: "first"})
}
