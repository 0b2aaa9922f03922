package award_data

import (
	"math"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Compute returns f with a new column name = left op right, computed as
// compiled Go over whole columns (fast: milliseconds for all awards, where
// a per-row function from a cell takes about 50 times longer). left is a
// numeric column; right is a numeric column's name or a Go number; op is
// "+", "-", "*" or "/". A null on either side, or a division by zero,
// gives a null. int op int stays int for "+", "-" and "*"; everything
// else is float. A name already used replaces that column.
//
// Example:
//
//	award_data.Compute("Per Employee", "Award Amount", "/", "Number Employees").Select("Company", "Per Employee").Head(3)
//	award_data.Compute("Award (k$)", "Award Amount", "/", 1000)
func (f Frame) Compute(name, left, op string, right any) Frame {
	const fn = "Compute"
	if f.err != nil {
		return f
	}
	if strings.TrimSpace(name) == "" {
		return errFrame(errorf(fn, "the new column needs a name"))
	}
	lc, err := f.lookup(fn, left)
	if err != nil {
		return errFrame(err)
	}
	if !lc.Numeric() {
		return errFrame(wrongType(fn, lc, "int or float", "Compute does arithmetic; use Apply for other values"))
	}
	switch op {
	case "+", "-", "*", "/":
	default:
		return errFrame(errorf(fn, "op is %q; use \"+\", \"-\", \"*\" or \"/\" (Apply takes a Go function for anything else)", op))
	}
	var rc *columnar.Vector
	num := 0.0
	switch v := right.(type) {
	case string:
		if rc, err = f.lookup(fn, v); err != nil {
			return errFrame(err)
		}
		if !rc.Numeric() {
			return errFrame(wrongType(fn, rc, "int or float", ""))
		}
	default:
		x, ok := toFloat(right)
		if !ok {
			return errFrame(errorf(fn, "right is %T %v; give a column name or a number", right, right))
		}
		num = x
	}
	rows := f.rowList()
	n := len(rows)
	intOut := lc.Kind == columnar.KindInt && op != "/" && (rc == nil && num == math.Trunc(num) && math.Abs(num) < 1<<53 || rc != nil && rc.Kind == columnar.KindInt)
	out := &columnar.Vector{Name: name, Kind: columnar.KindFloat, N: n}
	var nulls []int
	if intOut {
		out.Kind = columnar.KindInt
		out.Ints = make([]int64, n)
		k := int64(num)
		for p, r := range rows {
			i := int(r)
			if lc.IsNull(i) || rc != nil && rc.IsNull(i) {
				nulls = append(nulls, p)
				continue
			}
			a, b := lc.Ints[i], k
			if rc != nil {
				b = rc.Ints[i]
			}
			switch op {
			case "+":
				out.Ints[p] = a + b
			case "-":
				out.Ints[p] = a - b
			case "*":
				out.Ints[p] = a * b
			}
		}
	} else {
		out.Floats = make([]float64, n)
		for p, r := range rows {
			i := int(r)
			a, b := lc.Float(i), num
			if rc != nil {
				b = rc.Float(i)
			}
			var v float64
			switch op {
			case "+":
				v = a + b
			case "-":
				v = a - b
			case "*":
				v = a * b
			case "/":
				if b == 0 {
					v = math.NaN()
				} else {
					v = a / b
				}
			}
			if math.IsNaN(v) {
				nulls = append(nulls, p)
			}
			out.Floats[p] = v
		}
	}
	for _, p := range nulls {
		out.SetNull(p)
	}
	return f.withColumn(out, rows)
}

// withColumn returns f with column c added (or replacing a column of
// the same name); c holds one value per row of f, in f's order. The
// other columns are shared, not copied: c is spread over the table's
// rows (null where f has no row), so f keeps its rows and selection.
func (f Frame) withColumn(c *columnar.Vector, rows []int32) Frame {
	pos := make([]int32, f.t.N)
	for i := range pos {
		pos[i] = -1
	}
	for p, r := range rows {
		pos[r] = int32(p)
	}
	full := columnar.Gather(c, pos)
	cols := append(append([]*columnar.Vector(nil), f.t.Cols...), full)
	g := f
	g.t = columnar.NewTable(cols, f.t.Source)
	g.cols = nil
	for _, ci := range f.cols {
		if f.t.Cols[ci].Name != c.Name {
			g.cols = append(g.cols, ci)
		}
	}
	g.cols = append(g.cols, len(cols)-1)
	return g
}

// Apply returns f with a new column name holding fn(row) for each row:
// the flexible way to derive a value. fn is a func(award_data.Row) that
// returns float64, int, int64, string, bool (stored as text) or
// time.Time. A function written in a cell runs interpreted, about 50
// times slower than compiled code: prefer Compute for arithmetic.
//
// Example:
//
//	award_data.Head(5).Apply("Title Words", func(r award_data.Row) int { return len(strings.Fields(r.String("Award Title"))) })
func (f Frame) Apply(name string, fn any) Frame {
	const op = "Apply"
	if f.err != nil {
		return f
	}
	if strings.TrimSpace(name) == "" {
		return errFrame(errorf(op, "the new column needs a name"))
	}
	if f.t == nil {
		return errFrame(errorf(op, "the frame is empty (no columns)"))
	}
	rows := f.rowList()
	items := make([]any, len(rows))
	row := func(p int) Row { return Row{t: f.t, i: int(rows[p])} }
	switch g := fn.(type) {
	case func(Row) float64:
		for p := range rows {
			items[p] = g(row(p))
		}
	case func(Row) int:
		for p := range rows {
			items[p] = g(row(p))
		}
	case func(Row) int64:
		for p := range rows {
			items[p] = g(row(p))
		}
	case func(Row) string:
		for p := range rows {
			items[p] = g(row(p))
		}
	case func(Row) bool:
		for p := range rows {
			items[p] = g(row(p))
		}
	case func(Row) time.Time:
		for p := range rows {
			items[p] = g(row(p))
		}
	case nil:
		return errFrame(errorf(op, "the function is nil"))
	default:
		return errFrame(errorf(op, "fn is %T; pass a func(award_data.Row) returning float64, int, int64, string, bool or time.Time", fn))
	}
	c, err := vectorOf(op, name, items)
	if err != nil {
		return errFrame(err)
	}
	return f.withColumn(c, rows)
}

// Compute returns all awards with a computed column. See Frame.Compute.
//
// Example:
//
//	award_data.Compute("Per Employee", "Award Amount", "/", "Number Employees")
func Compute(name, left, op string, right any) Frame { return All().Compute(name, left, op, right) }

// Apply returns all awards with a column computed by fn per award. See
// Frame.Apply.
//
// Example:
//
//	award_data.Apply("Even Year", func(r award_data.Row) bool { return r.Int("Award Year")%2 == 0 })
func Apply(name string, fn any) Frame { return All().Apply(name, fn) }
