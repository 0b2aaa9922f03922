package award_data

import (
	"math"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Compute returns f with a new column name = left op right, computed as
// compiled Go over whole columns (fast: milliseconds for all awards, where
// a per-row function from a cell takes about 50 times longer). A name
// already used replaces that column. The operators:
//
//	"+", "-", "*", "/"      arithmetic on a numeric column; right is a
//	                        numeric column's name or a Go number
//	"==", "!=", "<", "<=",  comparisons, and every other Where operator
//	">", ">=", "in", ...    ("contains", "between", "is null", ...): a
//	                        boolean column, true exactly for the rows
//	                        Where(left, op, right) keeps (so a null is
//	                        false, even for "!="); for a numeric left a
//	                        string right names a column to compare with
//	"and", "or"             (also "&&", "||", "&", "|") on boolean
//	                        columns; right is a boolean column or a Go bool
//
// Arithmetic: a null on either side, or a division by zero, gives a null;
// int op int stays int for "+", "-" and "*"; everything else is float. A
// boolean column prints as true/false and counts as 1/0, so Sum counts
// the true rows and Mean gives their share, as with pandas' booleans.
//
// Example:
//
//	award_data.Compute("Per Employee", "Award Amount", "/", "Number Employees").Select("Company", "Per Employee").Head(3)
//	award_data.Compute("Big", "Award Amount", ">", 1e6).GroupBy("Agency").Mean("Big")
//	award_data.Compute("Lidar", "Abstract", "contains", "lidar").Compute("NASA lidar", "Lidar", "and", "Is NASA")
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
	o := strings.ToLower(strings.TrimSpace(op))
	switch {
	case o == "+" || o == "-" || o == "*" || o == "/":
		return f.computeArith(name, lc, o, right)
	case boolOps[o] != "":
		return f.computeBool(name, lc, boolOps[o], right)
	}
	if _, ok := parseOp(op); ok {
		return f.computeCompare(name, lc, op, right)
	}
	return errFrame(errorf(fn, "op is %q; use \"+\", \"-\", \"*\", \"/\", a comparison (\"==\", \"!=\", \"<\", \"<=\", \">\", \">=\" or any Where operator) or \"and\", \"or\" (Apply takes a Go function for anything else)", op))
}

// boolOps maps the boolean operators Compute accepts to "and" or "or".
var boolOps = map[string]string{"and": "and", "&&": "and", "&": "and", "or": "or", "||": "or", "|": "or"}

// computeArith is Compute's arithmetic.
func (f Frame) computeArith(name string, lc *columnar.Vector, op string, right any) Frame {
	const fn = "Compute"
	if !lc.Numeric() {
		return errFrame(wrongType(fn, lc, "int or float", "arithmetic needs numbers; compare text with \"==\", \"contains\", ... or use Apply"))
	}
	var rc *columnar.Vector
	num := 0.0
	switch v := right.(type) {
	case string:
		var err error
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
	intOut := lc.Kind == columnar.KindInt && op != "/" && (rc == nil && num == math.Trunc(num) && math.Abs(num) < 1<<53 || rc != nil && rc.Kind == columnar.KindInt)
	if intOut {
		return f.withColumn(intArith(name, lc, rc, int64(num), op, rows), rows)
	}
	return f.withColumn(floatArith(name, lc, rc, num, op, rows), rows)
}

// intArith is int op int over rows (rc nil: the constant k).
func intArith(name string, lc, rc *columnar.Vector, k int64, op string, rows []int32) *columnar.Vector {
	out := &columnar.Vector{Name: name, Kind: columnar.KindInt, N: len(rows), Ints: make([]int64, len(rows))}
	for p, r := range rows {
		i := int(r)
		if lc.IsNull(i) || rc != nil && rc.IsNull(i) {
			out.SetNull(p)
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
	return out
}

// floatArith is left op right in float64 over rows (rc nil: the
// constant num); NaN results and division by zero are null.
func floatArith(name string, lc, rc *columnar.Vector, num float64, op string, rows []int32) *columnar.Vector {
	out := &columnar.Vector{Name: name, Kind: columnar.KindFloat, N: len(rows), Floats: make([]float64, len(rows))}
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
			out.SetNull(p)
		}
		out.Floats[p] = v
	}
	return out
}

// boolVector is a boolean result column over rows: true where hit says.
func boolVector(name string, rows []int32, hit func(p int, r int32) bool) *columnar.Vector {
	out := &columnar.Vector{Name: name, Kind: columnar.KindInt, N: len(rows), Ints: make([]int64, len(rows)), Bool: true}
	for p, r := range rows {
		if hit(p, r) {
			out.Ints[p] = 1
		}
	}
	return out
}

// computeCompare is Compute's comparisons: a numeric column against
// another, or the rows Where keeps.
func (f Frame) computeCompare(name string, lc *columnar.Vector, op string, right any) Frame {
	const fn = "Compute"
	rows := f.rowList()
	if s, ok := right.(string); ok && lc.Numeric() {
		rc, err := f.lookup(fn, s)
		if err != nil {
			return errFrame(err)
		}
		if !rc.Numeric() {
			return errFrame(wrongType(fn, rc, "int or float", "a number compares with a number"))
		}
		o, _ := parseOp(op)
		if o > opGe {
			return errFrame(errorf(fn, "%s compares a column with a value; between columns use ==, !=, <, <=, > or >=", opString(o)))
		}
		return f.withColumn(boolVector(name, rows, func(_ int, r int32) bool {
			a, b := lc.Float(int(r)), rc.Float(int(r))
			return !math.IsNaN(a) && !math.IsNaN(b) && compareFloats(o, a, b)
		}), rows)
	}
	if o, _ := parseOp(op); o <= opGe && lc.Numeric() {
		if x, isNum := toFloat(right); isNum && !lc.Bool {
			// A number against a constant: one pass over plain floats.
			out := &columnar.Vector{Name: name, Kind: columnar.KindInt, N: len(rows), Ints: make([]int64, len(rows)), Bool: true}
			for p, a := range f.floatView(lc) {
				if a == a && compareFloats(o, a, x) {
					out.Ints[p] = 1
				}
			}
			return f.withColumn(out, rows)
		}
	}
	kept := f.Where(lc.Name, op, right)
	if kept.err != nil {
		return errFrame(renameWhere(kept.err, fn))
	}
	hit := make([]bool, f.t.N)
	for _, r := range kept.rowList() {
		hit[r] = true
	}
	return f.withColumn(boolVector(name, rows, func(_ int, r int32) bool { return hit[r] }), rows)
}

// compareFloats applies a comparison operator to two numbers.
func compareFloats(o op, a, b float64) bool {
	switch o {
	case opEq:
		return a == b
	case opNe:
		return a != b
	case opLt:
		return a < b
	case opLe:
		return a <= b
	case opGt:
		return a > b
	}
	return a >= b
}

// renameWhere reports a Where error of Compute's as Compute's.
func renameWhere(err error, op string) error {
	if e, ok := err.(*Error); ok && e.Op == "Where" {
		c := *e
		c.Op = op
		return &c
	}
	return err
}

// computeBool is Compute's "and" and "or" of boolean columns (a null is
// false).
func (f Frame) computeBool(name string, lc *columnar.Vector, op string, right any) Frame {
	const fn = "Compute"
	isBool := func(c *columnar.Vector) bool { return c.Kind == columnar.KindInt && c.Bool }
	if !isBool(lc) {
		return errFrame(wrongType(fn, lc, "boolean", "\"and\" and \"or\" combine true/false columns, e.g. made by Compute(\"Big\", \"Award Amount\", \">\", 1e6)"))
	}
	truth := func(c *columnar.Vector, r int32) bool { return !c.IsNull(int(r)) && c.Ints[r] != 0 }
	var rhs func(r int32) bool
	switch v := right.(type) {
	case bool:
		rhs = func(int32) bool { return v }
	case string:
		rc, err := f.lookup(fn, v)
		if err != nil {
			return errFrame(err)
		}
		if !isBool(rc) {
			return errFrame(wrongType(fn, rc, "boolean", ""))
		}
		rhs = func(r int32) bool { return truth(rc, r) }
	default:
		return errFrame(errorf(fn, "right is %T %v; give a boolean column's name or true/false", right, right))
	}
	rows := f.rowList()
	return f.withColumn(boolVector(name, rows, func(_ int, r int32) bool {
		if op == "and" {
			return truth(lc, r) && rhs(r)
		}
		return truth(lc, r) || rhs(r)
	}), rows)
}

// subsetRows is what withColumn needs of f's rows: nil when f has all
// rows in order (a new column is aligned with the table already), else
// the rows in order.
func (f Frame) subsetRows() []int32 {
	if f.all {
		return nil
	}
	return f.rowList()
}

// withColumn returns f with column c added (or replacing a column of
// the same name); c holds one value per row of f, in f's order. The
// other columns are shared, not copied: c is spread over the table's
// rows (null where f has no row), so f keeps its rows and selection.
func (f Frame) withColumn(c *columnar.Vector, rows []int32) Frame {
	full := c
	if !f.all {
		pos := make([]int32, f.t.N)
		for i := range pos {
			pos[i] = -1
		}
		for p, r := range rows {
			pos[r] = int32(p)
		}
		full = columnar.Gather(c, pos)
	} // all rows in order: c is aligned with the table already

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
