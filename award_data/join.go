package award_data

import (
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// maxJoinRows bounds the rows a join may produce (many-to-many matches
// multiply).
const maxJoinRows = 4 << 20

// Join combines f's rows with other's rows that have equal values in the
// columns named by on, like pandas' merge or SQL's JOIN. how is "inner"
// (only rows with a match), "left" (every row of f; other's columns null
// without a match), "right" (every row of other) or "outer" (both). The
// result has f's columns, then other's except the keys; a name both have
// gets " (right)" on other's side. Rows come in f's order, each with its
// matches in other's order (then, for right and outer, other's unmatched
// rows). Keys compare by value (a category and a text column can be
// joined; an int and a float compare as numbers); a null key matches
// nothing. A join of more than 4,194,304 rows, or one whose result would
// take more than half the session's memory, is refused before any value
// is copied.
//
// Example:
//
//	firms := award_data.GroupBy("Company").Agg("count() as Awards")
//	award_data.Where("Phase", "==", "Phase II").Join(firms, "left", "Company").Select("Company", "Award Amount", "Awards").Head(5)
func (f Frame) Join(other Frame, how string, on ...string) Frame {
	const op = "Join"
	if f.err != nil {
		return f
	}
	if other.err != nil {
		return errFrame(errorf(op, "the other frame has an error: %v", other.err))
	}
	how, err := f.joinHow(how)
	if err != nil {
		return errFrame(err)
	}
	if len(on) == 0 {
		return errFrame(errorf(op, "name the key columns after how, e.g. Join(other, \"inner\", \"Company\")"))
	}
	if f.t == nil || other.t == nil {
		return errFrame(errorf(op, "both frames need columns"))
	}
	lk := make([]*columnar.Vector, len(on))
	rk := make([]*columnar.Vector, len(on))
	for j, name := range on {
		var err error
		if lk[j], err = f.lookup(op, name); err != nil {
			return errFrame(err)
		}
		if rk[j], err = other.lookup(op, name); err != nil {
			return errFrame(errorf(op, "the other frame: %s", err.(*Error).Msg))
		}
		if joinClass(lk[j]) != joinClass(rk[j]) {
			return errFrame(errorf(op, "key %q is %s here but %s in the other frame; keys must both be text, numbers or dates", name, lk[j].Kind, rk[j].Kind))
		}
	}
	// Index other's rows by key.
	rrows := other.rowList()
	index := make(map[string][]int32, len(rrows))
	var buf []byte
	for _, r := range rrows {
		var ok bool
		buf, ok = joinKey(buf[:0], rk, int(r))
		if ok {
			index[string(buf)] = append(index[string(buf)], r)
		}
	}
	var lrows, orows []int32 // paired table rows; -1 for none
	var matched []bool
	if how == "right" || how == "outer" {
		matched = make([]bool, other.t.N)
	}
	for _, l := range f.rowList() {
		var hits []int32
		if k, ok := joinKey(buf[:0], lk, int(l)); ok {
			buf = k
			hits = index[string(k)]
		}
		for _, r := range hits {
			lrows = append(lrows, l)
			orows = append(orows, r)
			if matched != nil {
				matched[r] = true
			}
		}
		if len(hits) == 0 && (how == "left" || how == "outer") {
			lrows = append(lrows, l)
			orows = append(orows, -1)
		}
		if len(lrows) > maxJoinRows {
			return errFrame(errorf(op, "the join makes more than %d rows; the keys match many rows on both sides (aggregate one side first)", maxJoinRows))
		}
	}
	if matched != nil {
		for _, r := range rrows {
			if !matched[r] {
				lrows = append(lrows, -1)
				orows = append(orows, r)
			}
		}
	}
	isKey := map[string]bool{}
	for _, c := range rk {
		isKey[c.Name] = true
	}
	if err := joinFits(op, f, other, isKey, len(lrows), matched != nil); err != nil {
		return errFrame(err)
	}
	var cols []*columnar.Vector
	used := map[string]bool{}
	for _, ci := range f.cols {
		c := f.t.Cols[ci]
		v := columnar.Gather(c, lrows)
		for j := range lk {
			if lk[j] == c && matched != nil {
				// Rows only other has take their key from other.
				v = coalesce(v, columnar.Gather(rk[j], orows), lrows)
			}
		}
		used[v.Name] = true
		cols = append(cols, v)
	}
	for _, ci := range other.cols {
		c := other.t.Cols[ci]
		if isKey[c.Name] {
			continue
		}
		v := columnar.Gather(c, orows)
		for used[v.Name] {
			v.Name += " (right)"
		}
		used[v.Name] = true
		cols = append(cols, v)
	}
	return frameOf(columnar.NewTable(cols, false))
}

// joinHow checks Join's how: "inner", "left", "right" or "outer", any
// case; a column name there means the keys came first.
func (f Frame) joinHow(how string) (string, error) {
	const op = "Join"
	h := strings.ToLower(strings.TrimSpace(how))
	switch h {
	case "inner", "left", "right", "outer":
		return h, nil
	}
	if _, err := f.lookup(op, how); err == nil {
		return "", errorf(op, "how is %q, a column; how comes before the keys: Join(other, \"left\", %q) (how is \"inner\", \"left\", \"right\" or \"outer\", as pandas' merge(how=))", how, how).at(how)
	}
	return "", errorf(op, "how is %q; use \"inner\", \"left\", \"right\" or \"outer\", e.g. Join(other, \"left\", \"Company\")", h).at(how)
}

// joinClass groups kinds that compare with each other.
func joinClass(c *columnar.Vector) int {
	switch {
	case c.Textual():
		return 0
	case c.Numeric():
		return 1
	}
	return 2
}

// joinKey appends row i's key to buf; ok is false when a key is null.
func joinKey(buf []byte, keys []*columnar.Vector, i int) ([]byte, bool) {
	for _, c := range keys {
		if c.IsNull(i) {
			return buf, false
		}
		switch c.Kind {
		case columnar.KindText:
			buf = append(buf, c.TextBytes(i)...)
		case columnar.KindCategory:
			buf = append(buf, c.Dict[c.Codes[i]]...)
		case columnar.KindDate:
			buf = strconv.AppendInt(buf, int64(c.Days[i]), 10)
		default:
			v := c.Float(i)
			if math.IsNaN(v) {
				return buf, false
			}
			if v == 0 {
				v = 0 // -0 joins +0
			}
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, 0)
	}
	return buf, true
}

// coalesce returns v with the rows where left is -1 taken from alt
// (same length): the key of rows only the other frame has. Numbers stay
// numbers, dates dates; categories and text become text.
func coalesce(v, alt *columnar.Vector, left []int32) *columnar.Vector {
	items := make([]any, len(left))
	for k, l := range left {
		src := v
		if l < 0 {
			src = alt
		}
		if x := goValue(src, k); x != nil {
			if v.Numeric() && alt.Numeric() && v.Kind != alt.Kind {
				x = src.Float(k) // an int key meeting a float key
			}
			items[k] = x
		}
	}
	out, err := vectorOf("Join", v.Name, items)
	if err != nil {
		return v // cannot happen: both sides are of one class (joinClass)
	}
	return out
}

// joinFits refuses a join whose result would take more than half the
// memory the process may use (debug.SetMemoryLimit: the worker sets it
// to the session's heap budget), before anything is copied: the rows
// alone do not bound it, since each copies its text values.
func joinFits(op string, f, other Frame, isKey map[string]bool, n int, coalesced bool) error {
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 {
		return nil
	}
	size, ncols := 0.0, 0
	add := func(c *columnar.Vector) {
		ncols++
		size += float64(n) * rowBytes(c)
		if coalesced {
			size += float64(n) * 16 // the key's values, as Go values
		}
	}
	for _, ci := range f.cols {
		add(f.t.Cols[ci])
	}
	for _, ci := range other.cols {
		if c := other.t.Cols[ci]; !isKey[c.Name] {
			add(c)
		}
	}
	if size <= float64(limit)/2 {
		return nil
	}
	return errorf(op, "the result would take about %s (%s rows of %d columns), more than half the session's %s of memory; Select the columns you need before joining, or aggregate one side first",
		bytesize.Approx(int64(size)), groupThousands(strconv.Itoa(n)), ncols, bytesize.Exact(limit))
}

// rowBytes is about how many bytes a copy of c takes per row.
func rowBytes(c *columnar.Vector) float64 {
	switch c.Kind {
	case columnar.KindText:
		if c.N == 0 {
			return 4
		}
		return 4 + float64(c.Offs[c.N]-c.Offs[0])/float64(c.N)
	case columnar.KindCategory:
		return 2
	case columnar.KindDate:
		return 4
	}
	return 8
}
