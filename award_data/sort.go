package award_data

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Order is a sort direction, given to Sort after a column name.
type Order int

// The sort directions.
const (
	Ascending  Order = iota // smallest first (the default)
	Descending              // largest first
)

// sortColumn is one key of a Sort call.
type sortColumn struct {
	name string
	desc bool
}

// sortArgs reads Sort's arguments: column names, each optionally
// followed by an Order or a bool (true = ascending, as pandas'
// ascending=), or a []string of names.
func sortArgs(op string, args []any) ([]sortColumn, error) {
	var cols []sortColumn
	for k, a := range args {
		switch v := a.(type) {
		case string:
			cols = append(cols, sortColumn{name: v})
		case []string:
			for _, s := range v {
				cols = append(cols, sortColumn{name: s})
			}
		case Order, bool:
			if len(cols) == 0 {
				return nil, errorf(op, "argument %d (%v) must follow a column name, e.g. Sort(\"Award Amount\", award_data.Descending)", k+1, v)
			}
			desc := v == Descending || v == false
			last := &cols[len(cols)-1]
			last.desc = desc
			last.name = strings.TrimPrefix(last.name, "-")
		default:
			return nil, errorf(op, "argument %d is %T %v; pass column names, each optionally followed by award_data.Descending (or false, like pandas' ascending=False), e.g. Sort(\"Award Amount\", award_data.Descending)", k+1, a, a)
		}
	}
	if len(cols) == 0 {
		return nil, errorf(op, "name at least one column, e.g. Sort(\"Award Amount\", award_data.Descending) or Sort(\"-Award Amount\")")
	}
	return cols, nil
}

// Sort returns f sorted by the named columns, the first column first.
// After a column name, award_data.Descending (or false, as pandas'
// ascending=False) sorts that column largest first; a name prefixed with
// "-" does the same. Nulls come last either way; rows that compare equal
// keep their order (the sort is stable). Text sorts by bytes (capital
// letters before small ones).
//
// Example:
//
//	award_data.Sort("Award Amount", award_data.Descending).Head(10)
//	award_data.Sort("-Award Amount").Head(10)
//	award_data.Sort("Agency", "Award Year", false)
func (f Frame) Sort(columns ...any) Frame {
	if f.err != nil {
		return f
	}
	cols, err := sortArgs("Sort", columns)
	if err != nil {
		return errFrame(err)
	}
	keys := make([]columnar.SortKey, 0, len(cols))
	for _, sc := range cols {
		name, desc := sc.name, sc.desc
		if !desc && strings.HasPrefix(name, "-") {
			desc, name = true, name[1:]
		}
		c, err := f.lookup("Sort", name)
		if err != nil && desc && sc.name != name {
			// A column whose name starts with "-" sorts ascending.
			if c2, err2 := f.lookup("Sort", sc.name); err2 == nil {
				c, err, desc = c2, nil, false
			}
		}
		if err != nil && isDirectionWord(strings.ToLower(strings.TrimSpace(sc.name))) {
			return errFrame(directionError("Sort", sc.name, cols))
		}
		if err != nil {
			return errFrame(err)
		}
		if c.Kind == columnar.KindText && f.Len() >= c.N/16 {
			// Sorting most of a text column: encoding it once (kept for
			// later sorts and groupings) beats comparing strings.
			c.TextDictionary()
		}
		keys = append(keys, columnar.NewSortKey(c, desc))
	}
	// The sort itself waits until the rows are read: Head(n) of a few
	// rows then selects them instead (lazySort).
	g := f.withRows(nil)
	g.sorted = &lazySort{src: f.rowList(), keys: keys}
	return g
}

// directionWords are what people write for a direction where Sort wants
// an Order: pandas' and SQL's words.
var directionWords = map[string]bool{
	"desc": true, "descending": true, "asc": true, "ascending": true,
	"ascending=false": true, "ascending=true": true, "reverse": true,
}

func isDirectionWord(s string) bool { return directionWords[s] }

// directionError explains a direction written as a string in Sort.
func directionError(op, word string, cols []sortColumn) error {
	prev := "Award Amount"
	for i, c := range cols {
		if c.name == word && i > 0 {
			prev = strings.TrimPrefix(cols[i-1].name, "-")
		}
	}
	dir := "award_data.Descending"
	if w := strings.ToLower(word); strings.HasPrefix(w, "asc") && w != "ascending=false" {
		dir = "award_data.Ascending"
	}
	return errorf(op, "%q is not a column; a direction follows the column as %s (or false, as pandas' ascending=False): %s(%q, %s)", word, dir, op, prev, dir).at(word)
}

// lazySort is a Sort not yet done: the rows before it and its keys. It
// is shared by the copies of a Frame and safe for concurrent use.
type lazySort struct {
	src  []int32
	keys []columnar.SortKey

	once   sync.Once
	sorted atomic.Bool
	list   []int32
}

// rows returns the sorted rows, sorting on first use.
func (s *lazySort) rows() []int32 {
	s.once.Do(func() {
		s.list = columnar.SortedRows(s.src, s.keys)
		s.sorted.Store(true)
	})
	return s.list
}

// done reports whether the rows are sorted already.
func (s *lazySort) done() bool { return s.sorted.Load() }

// top returns the first n sorted rows, as rows()[:n] would, selecting
// them without sorting the others; ok is false when the keys need a
// full sort (several keys, or text without a dictionary).
func (s *lazySort) top(n int) (rows []int32, ok bool) {
	pos, ok := columnar.TopPositions(s.src, s.keys, n)
	if !ok {
		return nil, false
	}
	rows = make([]int32, len(pos))
	for i, p := range pos {
		rows[i] = s.src[p]
	}
	return rows, true
}

// NLargest returns the n rows with the largest values of column, largest
// first (nulls never; ties keep f's order), like pandas' nlargest.
//
// Example:
//
//	award_data.NLargest(5, "Award Amount")
func (f Frame) NLargest(n int, column string) Frame { return f.nExtreme("NLargest", n, column, true) }

// NSmallest returns the n rows with the smallest values of column,
// smallest first (nulls never).
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase II").NSmallest(3, "Award Amount")
func (f Frame) NSmallest(n int, column string) Frame {
	return f.nExtreme("NSmallest", n, column, false)
}

func (f Frame) nExtreme(op string, n int, column string, desc bool) Frame {
	if f.err != nil {
		return f
	}
	if n < 0 {
		return errFrame(errorf(op, "n is %d; it must be 0 or more", n))
	}
	c, err := f.lookup(op, column)
	if err != nil {
		return errFrame(err)
	}
	rows := f.rowList()
	key := columnar.NewSortKey(c, desc)
	kept := make([]int32, 0, min(n, len(rows)))
	for _, r := range rows {
		if !key.Missing(int(r)) {
			kept = append(kept, r)
		}
	}
	sorted := columnar.SortedRows(kept, []columnar.SortKey{key})
	return f.withRows(sorted[:min(n, len(sorted)):min(n, len(sorted))])
}

// NLargest returns the n awards with the largest values of column. See
// Frame.NLargest.
//
// Example:
//
//	award_data.NLargest(10, "Award Amount").Select("Company", "Award Amount")
func NLargest(n int, column string) Frame { return All().NLargest(n, column) }

// NSmallest returns the n awards with the smallest values of column. See
// Frame.NSmallest.
//
// Example:
//
//	award_data.NSmallest(10, "Award Amount")
func NSmallest(n int, column string) Frame { return All().NSmallest(n, column) }

// len returns the number of rows, sorted or not.
func (s *lazySort) len() int { return len(s.src) }
