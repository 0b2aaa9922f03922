package award_data

import (
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Sort returns f sorted by the named columns, the first column first.
// A column prefixed with "-" sorts in descending order. Nulls come last
// either way; rows that compare equal keep their order (the sort is
// stable). Text sorts by bytes (capital letters before small ones).
//
// Example:
//
//	award_data.Sort("-Award Amount").Head(10)
//	award_data.Sort("Agency", "-Award Year")
func (f Frame) Sort(columns ...string) Frame {
	if f.err != nil {
		return f
	}
	if len(columns) == 0 {
		return errFrame(errorf("Sort", "name at least one column, e.g. Sort(\"-Award Amount\")"))
	}
	keys := make([]columnar.SortKey, 0, len(columns))
	for _, name := range columns {
		desc := strings.HasPrefix(name, "-")
		trimmed := strings.TrimPrefix(name, "-")
		c, err := f.lookup("Sort", trimmed)
		if err != nil && desc {
			// A column whose name starts with "-" sorts ascending.
			if c2, err2 := f.lookup("Sort", name); err2 == nil {
				c, err, desc = c2, nil, false
			}
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
	return f.withRows(columnar.SortedRows(f.rowList(), keys))
}
