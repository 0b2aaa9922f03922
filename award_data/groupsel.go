package award_data

import (
	"math"
	"slices"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// rankArgs reads Rank's options: an Order (or a bool, true = ascending,
// as pandas' ascending=) and a method name.
func rankArgs(args []any) (desc bool, method string, err error) {
	method = "average"
	for k, a := range args {
		switch v := a.(type) {
		case Order:
			desc = v == Descending
		case bool:
			desc = !v
		case string:
			m := strings.ToLower(strings.TrimSpace(v))
			switch {
			case slices.Contains(columnar.RankMethods, m):
				method = m
			case isDirectionWord(m):
				return false, "", errorf("Rank", "argument %d is %q; for the direction pass award_data.Descending (or false, as pandas' ascending=False), e.g. Rank(\"Award Amount\", award_data.Descending)", k+2, v)
			default:
				return false, "", errorf("Rank", "method %q; use one of %s", v, strings.Join(columnar.RankMethods, ", "))
			}
		default:
			return false, "", errorf("Rank", "argument %d is %T %v; pass award_data.Descending and/or a method (%s)", k+2, a, a, strings.Join(columnar.RankMethods, ", "))
		}
	}
	return desc, method, nil
}

func (w windowOp) rank(column string, args []any) Frame {
	c, err := w.f.lookup("Rank", column)
	if err != nil {
		return errFrame(err)
	}
	desc, method, err := rankArgs(args)
	if err != nil {
		return errFrame(err)
	}
	out, err := columnar.Rank(derivedName(c.Name, "rank"), columnar.NewSortKey(c, desc), w.rows, w.seg, method)
	if err != nil {
		return errFrame(errorf("Rank", "%v", err))
	}
	return w.f.withColumn(out, w.rows)
}

// Rank adds each row's rank by a column, from 1 for the smallest (with
// award_data.Descending or false: the largest), as pandas' rank(): ties
// share the average of their ranks unless a method says otherwise
// ("min", "max", "first", "dense"; these give whole numbers). Nulls get
// no rank. Any column type ranks (text alphabetically). The column is
// named "<column> (rank)".
//
// Example:
//
//	award_data.GroupBy("Company").Sum("Award Amount").Rank("Award Amount", award_data.Descending, "min")
func (f Frame) Rank(column string, args ...any) Frame {
	if f.err != nil {
		return f
	}
	return f.window().rank(column, args)
}

// Rank adds each row's rank within its group (see Frame.Rank), keeping
// the frame's rows, as pandas' groupby(...).rank().
//
// Example:
//
//	award_data.GroupBy("Agency").Rank("Award Amount", award_data.Descending, "first")
func (g Grouped) Rank(column string, args ...any) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	return g.window().rank(column, args)
}

// First returns each group's first non-null value of the columns (every
// column but the keys when none is named), in the frame's order, as
// pandas' groupby(...).first(). Sort first to choose what comes first.
//
// Example:
//
//	award_data.Sort("Proposal Award Date").GroupBy("Company").First("Proposal Award Date", "Agency")
func (g Grouped) First(columns ...string) Frame { return g.firstLast("First", columns, -1) }

// Last returns each group's last non-null value of the columns (every
// column but the keys when none is named), as pandas' groupby(...).last().
//
// Example:
//
//	award_data.Sort("Award Year").GroupBy("Agency").Last("Award Year")
func (g Grouped) Last(columns ...string) Frame { return g.firstLast("Last", columns, 1) }

func (g Grouped) firstLast(op string, columns []string, sign int) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	if len(columns) == 0 {
		columns = g.otherColumns()
	}
	return g.each(op, columns, func(c *columnar.Vector) (*columnar.Vector, error) { return g.pick(op, c, sign, true), nil })
}

// otherColumns names the frame's columns that are not keys.
func (g Grouped) otherColumns() []string {
	var out []string
	for _, name := range g.f.Columns() {
		isKey := false
		for _, k := range g.keys {
			isKey = isKey || k.Name == name
		}
		if !isKey {
			out = append(out, name)
		}
	}
	return out
}

// Head returns the first n rows of each group, in the frame's order, as
// pandas' groupby(...).head(n): sort first for "the n largest per group".
//
// Example:
//
//	award_data.Sort("-Award Amount").GroupBy("Agency").Head(2).Select("Agency", "Company", "Award Amount")
func (g Grouped) Head(n int) Frame { return g.headTail("Head", n, false) }

// Tail returns the last n rows of each group, in the frame's order.
//
// Example:
//
//	award_data.Sort("Award Year").GroupBy("Agency").Tail(1).Select("Agency", "Award Year")
func (g Grouped) Tail(n int) Frame { return g.headTail("Tail", n, true) }

func (g Grouped) headTail(op string, n int, tail bool) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	if n < 0 {
		return errFrame(errorf(op, "n is %d; it must be 0 or more", n))
	}
	ids := g.idList()
	counts := g.groupCounts()
	seen := make([]int, len(g.rep))
	rows := g.f.rowList()
	keep := make([]int32, 0, min(len(rows), n*len(g.rep)))
	for k, id := range ids {
		seen[id]++
		if (!tail && seen[id] <= n) || (tail && seen[id] > counts[id]-n) {
			keep = append(keep, rows[k])
		}
	}
	return g.f.withRows(keep)
}

// IdxMax returns, for each group, the row of the frame holding the
// group's largest value of column (the first such row on ties; nulls
// never), with all of the frame's columns: pandas'
// df.loc[df.groupby(keys)[column].idxmax()]. With GroupBy on a grouped
// sum it answers "the year with the most dollars per agency".
//
// Example:
//
//	award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").IdxMax("Award Amount")
func (g Grouped) IdxMax(column string) Frame { return g.extremeRows("IdxMax", column, 1) }

// IdxMin returns, for each group, the row holding its smallest value of
// column (see IdxMax).
//
// Example:
//
//	award_data.GroupBy("Agency").IdxMin("Award Amount").Select("Agency", "Company", "Award Amount")
func (g Grouped) IdxMin(column string) Frame { return g.extremeRows("IdxMin", column, -1) }

func (g Grouped) extremeRows(op, column string, sign int) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	c, err := g.f.lookup(op, column)
	if err != nil {
		return errFrame(err)
	}
	rows := g.bestRows(c, sign)
	kept := make([]int32, 0, len(rows))
	for _, r := range rows {
		if r >= 0 {
			kept = append(kept, r)
		}
	}
	return g.f.withRows(kept)
}

// bestRows returns the table row of each group's extreme value of c (the
// first on ties), -1 for a group of nulls; groups in key order.
func (g Grouped) bestRows(c *columnar.Vector, sign int) []int32 {
	key := columnar.NewSortKey(c, false)
	best := make([]int32, len(g.rep))
	for i := range best {
		best[i] = -1
	}
	for k, id := range g.idList() {
		i := g.f.row(k)
		if key.Missing(i) {
			continue
		}
		if b := best[id]; b < 0 || key.Compare(i, int(b))*sign > 0 {
			best[id] = int32(i)
		}
	}
	return best
}

// IdxMax returns the position in f (for Row, Slice) of the row with the
// largest value of column, the first on ties, as pandas' idxmax() gives
// its label; -1 when the column has only nulls. It panics with f's error
// or an unknown column.
//
// Example:
//
//	k := award_data.IdxMax("Award Amount")
//	award_data.All().Row(k).String("Company")
func (f Frame) IdxMax(column string) int { return f.extremePosition("IdxMax", column, 1) }

// IdxMin returns the position in f of the row with the smallest value of
// column (see IdxMax).
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase II").IdxMin("Award Amount")
func (f Frame) IdxMin(column string) int { return f.extremePosition("IdxMin", column, -1) }

func (f Frame) extremePosition(op, column string, sign int) int {
	f.must()
	c := f.mustColumn(op, column)
	key := columnar.NewSortKey(c, false)
	best, bestRow := -1, 0
	for k := 0; k < f.Len(); k++ {
		i := f.row(k)
		if key.Missing(i) {
			continue
		}
		if best < 0 || key.Compare(i, bestRow)*sign > 0 {
			best, bestRow = k, i
		}
	}
	return best
}

// IdxMax returns the position of the award with the largest value of
// column. See Frame.IdxMax.
//
// Example:
//
//	award_data.IdxMax("Award Amount")
func IdxMax(column string) int { return All().IdxMax(column) }

// IdxMin returns the position of the award with the smallest value of
// column. See Frame.IdxMin.
//
// Example:
//
//	award_data.IdxMin("Award Amount")
func IdxMin(column string) int { return All().IdxMin(column) }

// Corr returns the Pearson correlation of two numeric columns over the
// rows where both have a value, as pandas' df[x].corr(df[y]); NaN with
// fewer than two such rows or a constant column.
//
// Example:
//
//	award_data.Corr("Number Employees", "Award Amount")
func (f Frame) Corr(x, y string) float64 {
	f.must()
	cx, cy := f.mustColumn("Corr", x), f.mustColumn("Corr", y)
	for _, c := range []*columnar.Vector{cx, cy} {
		if !c.Numeric() {
			panic(wrongType("Corr", c, "int or float", ""))
		}
	}
	// One pass over the pairs, nothing copied: sums of deviations from
	// the first pair (a shift that keeps the sums of squares as exact as
	// deviations from the means would), then the co-moments from them.
	var n, x0, y0, sx, sy, sxx, syy, sxy float64
	f.sel().Chunks(func(_ int, rows []int32) {
		for _, r := range rows {
			a, b := cx.Float(int(r)), cy.Float(int(r))
			if a != a || b != b {
				continue
			}
			if n == 0 {
				x0, y0 = a, b
			}
			dx, dy := a-x0, b-y0
			n, sx, sy = n+1, sx+dx, sy+dy
			sxx, syy, sxy = sxx+dx*dx, syy+dy*dy, sxy+dx*dy
		}
	})
	if n < 2 {
		return math.NaN()
	}
	sxx, syy, sxy = sxx-sx*sx/n, syy-sy*sy/n, sxy-sx*sy/n
	if sxx <= 0 || syy <= 0 {
		return math.NaN()
	}
	return max(-1, min(1, sxy/math.Sqrt(sxx*syy)))
}

// Corr returns the correlation of two numeric columns over all awards.
// See Frame.Corr.
//
// Example:
//
//	award_data.Corr("Number Employees", "Award Amount")
func Corr(x, y string) float64 { return All().Corr(x, y) }

// floatView is a numeric column's values at f's rows as float64, NaN for
// a null: the column's own slice when f is every row of a float column
// without nulls, else a copy.
func (f Frame) floatView(c *columnar.Vector) []float64 {
	if f.all && c.Kind == columnar.KindFloat && !c.HasNulls() {
		return c.Floats[:f.t.N]
	}
	out := make([]float64, 0, f.Len())
	f.sel().Chunks(func(_ int, rows []int32) {
		for _, r := range rows {
			out = append(out, c.Float(int(r)))
		}
	})
	return out
}
