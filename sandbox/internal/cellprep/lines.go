package cellprep

import (
	"sort"
	"strings"
)

// lineTable maps byte offsets of a cell to 1-based lines and columns in
// O(log n), so that preparing a cell stays linear in its size however
// many statements it has.
type lineTable struct {
	starts []int // offset of the first byte of each line
	size   int
}

func newLineTable(code string) *lineTable {
	t := &lineTable{starts: make([]int, 1, strings.Count(code, "\n")+1), size: len(code)}
	for i := 0; i < len(code); i++ {
		if code[i] == '\n' {
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// pos returns the line and column (in bytes, 1-based) of off.
func (t *lineTable) pos(off int) (line, col int) {
	off = max(0, min(off, t.size))
	i := sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
	return i + 1, off - t.starts[i] + 1
}
