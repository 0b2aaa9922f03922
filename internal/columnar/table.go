package columnar

// Table is an immutable set of equally long columns.
type Table struct {
	Cols   []*Vector
	ByName map[string]int
	N      int
	// source is true for the award data itself: printed tables then show
	// each row's ordinal in the data file, which identifies an award.
	Source bool
}

func NewTable(cols []*Vector, source bool) *Table {
	t := &Table{Cols: cols, ByName: make(map[string]int, len(cols)), Source: source}
	for i, c := range cols {
		t.ByName[c.Name] = i
		if i == 0 {
			t.N = c.N
		}
	}
	return t
}
