package award_data

import (
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/sbirtools/sbir-kernel/display"
	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// A Frame is a view of award data (or of a result computed from it): some
// rows, in some order, and some columns. Frames are values; every method
// returns a new Frame and leaves its receiver unchanged, so chains read
// left to right.
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20)
//
// Errors (an unknown column, a wrong type) stick to the Frame: later
// methods in the chain do nothing, printing the Frame shows the error, Err
// returns it, and methods that return plain Go values (Count, Sum,
// Strings, ...) panic with it so that a cell stops with a clear message.
//
// The zero Frame has no rows and no columns.
type Frame struct {
	t    *columnar.Table
	cols []int            // visible columns, as indices into t.cols
	rows []int32          // selected rows in order; ignored when all is true or bits is set
	all  bool             // all rows 0..t.n-1 in order
	bits *columnar.BitSel // selected rows in ascending order, as a bitmap (see bitsel.go)
	err  error

	// sorted, when set, holds Sort's rows until something reads them
	// (rows is then unused): Head of a few rows takes them without
	// sorting the rest.
	sorted *lazySort

	disp     *DisplayOptions // set by Display; nil: the session's settings
	fullText bool            // print text values whole (Unique's result)
	note     string          // a hint shown under the table (Where on a missing value)
}

func frameOf(t *columnar.Table) Frame {
	cols := make([]int, len(t.Cols))
	for i := range cols {
		cols[i] = i
	}
	return Frame{t: t, cols: cols, all: true}
}

func errFrame(err error) Frame { return Frame{err: err} }

// Err returns the first error of the chain that produced f, or nil. It is
// an *Error for bad requests.
//
// Example:
//
//	f := award_data.Where("Award Yeer", ">=", 2015)
//	fmt.Println(f.Err()) // award_data: Where: unknown column "Award Yeer" (did you mean "Award Year"?)
func (f Frame) Err() error { return f.err }

// must panics with f's error, if any; methods returning plain values call it.
func (f Frame) must() {
	if f.err != nil {
		panic(f.err)
	}
}

// Len returns the number of rows in f (0 for a Frame with an error).
//
// Example:
//
//	n := award_data.Where("Agency", "==", "National Science Foundation").Len()
func (f Frame) Len() int {
	if f.t == nil {
		return 0
	}
	if f.all {
		return f.t.N
	}
	if f.bits != nil {
		return f.bits.Len()
	}
	if f.sorted != nil {
		return f.sorted.len()
	}
	return len(f.rows)
}

// Count returns the number of rows in f. It panics with f's error, if any.
//
// Example:
//
//	award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()
func (f Frame) Count() int {
	f.must()
	if f.note != "" {
		// Count's caller sees a number, not the frame: show the hint.
		display.Show(f.note)
	}
	return f.Len()
}

// row returns the table row shown at position k of f.
func (f Frame) row(k int) int {
	if f.all {
		return k
	}
	if f.bits != nil {
		return int(f.bits.Rows()[k])
	}
	return int(f.list()[k])
}

// rowList returns the selected rows as a slice the caller must not modify.
func (f Frame) rowList() []int32 {
	if f.bits != nil {
		return f.bits.Rows()
	}
	if !f.all {
		return f.list()
	}
	rows := make([]int32, f.t.N)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

func (f Frame) withRows(rows []int32) Frame {
	g := f
	g.rows = rows
	g.all = false
	g.bits = nil
	g.sorted = nil
	return g
}

// list returns the row list of a frame that is neither all rows nor a
// bitmap, sorting first if Sort left that for later.
func (f Frame) list() []int32 {
	if f.sorted != nil {
		return f.sorted.rows()
	}
	return f.rows
}

// Columns returns the names of f's columns, in order.
//
// Example:
//
//	for _, name := range award_data.Columns() {
//		fmt.Println(name)
//	}
func (f Frame) Columns() Names {
	if f.t == nil {
		return Names{}
	}
	names := make(Names, len(f.cols))
	for i, c := range f.cols {
		names[i] = f.t.Cols[c].Name
	}
	return names
}

// lookup finds a visible column by name: an exact match, else the only
// case-insensitive match.
func (f Frame) lookup(op, name string) (*columnar.Vector, error) {
	if f.t == nil {
		return nil, errorf(op, "the frame is empty (no columns)")
	}
	if i, ok := f.t.ByName[name]; ok && f.visible(i) {
		return f.t.Cols[i], nil
	}
	var found *columnar.Vector
	n := 0
	for _, i := range f.cols {
		if strings.EqualFold(f.t.Cols[i].Name, strings.TrimSpace(name)) {
			found = f.t.Cols[i]
			n++
		}
	}
	if n == 1 {
		return found, nil
	}
	return nil, unknownColumn(op, name, f.Columns())
}

func (f Frame) visible(i int) bool {
	for _, c := range f.cols {
		if c == i {
			return true
		}
	}
	return false
}

// Select returns f with only the named columns, in the order given.
//
// Example:
//
//	award_data.Select("Company", "Award Year", "Award Amount").Head(5)
func (f Frame) Select(columns ...string) Frame {
	if f.err != nil {
		return f
	}
	if len(columns) == 0 {
		return errFrame(errorf("Select", "name at least one column, e.g. Select(\"Company\", \"Award Amount\")"))
	}
	cols := make([]int, 0, len(columns))
	for _, name := range columns {
		c, err := f.lookup("Select", name)
		if err != nil {
			return errFrame(err)
		}
		cols = append(cols, f.t.ByName[c.Name])
	}
	g := f
	g.cols = cols
	return g
}

// Drop returns f without the named columns.
//
// Example:
//
//	award_data.Drop("Abstract").Head(3)
func (f Frame) Drop(columns ...string) Frame {
	if f.err != nil {
		return f
	}
	drop := make(map[int]bool, len(columns))
	for _, name := range columns {
		c, err := f.lookup("Drop", name)
		if err != nil {
			return errFrame(err)
		}
		drop[f.t.ByName[c.Name]] = true
	}
	var cols []int
	for _, c := range f.cols {
		if !drop[c] {
			cols = append(cols, c)
		}
	}
	g := f
	g.cols = cols
	return g
}

// Head returns the first n rows of f (all of them when f has fewer).
//
// Example:
//
//	award_data.Head(5)
func (f Frame) Head(n int) Frame {
	if f.err != nil {
		return f
	}
	if n < 0 {
		return errFrame(errorf("Head", "n is %d; it must be 0 or more", n))
	}
	if n >= f.Len() {
		return f
	}
	if f.sorted != nil && !f.sorted.done() && n <= f.Len()/4 {
		if top, ok := f.sorted.top(n); ok {
			return f.withRows(top)
		}
	}
	return f.slice(0, n)
}

// Tail returns the last n rows of f (all of them when f has fewer).
//
// Example:
//
//	award_data.Sort("Award Amount").Tail(5)
func (f Frame) Tail(n int) Frame {
	if f.err != nil {
		return f
	}
	if n < 0 {
		return errFrame(errorf("Tail", "n is %d; it must be 0 or more", n))
	}
	if n >= f.Len() {
		return f
	}
	return f.slice(f.Len()-n, f.Len())
}

func (f Frame) slice(from, to int) Frame {
	if f.all {
		rows := make([]int32, to-from)
		for i := range rows {
			rows[i] = int32(from + i)
		}
		return f.withRows(rows)
	}
	rows := f.rowList()
	return f.withRows(rows[from:to:to])
}

// Sample returns n rows of f chosen at random without replacement, in
// their order in f. The same seed gives the same rows. When f has n rows
// or fewer, Sample returns f.
//
// Example:
//
//	award_data.Where("Agency", "==", "Department of Energy").Sample(10, 42)
func (f Frame) Sample(n int, seed uint64) Frame {
	if f.err != nil {
		return f
	}
	if n < 0 {
		return errFrame(errorf("Sample", "n is %d; it must be 0 or more", n))
	}
	total := f.Len()
	if n >= total {
		return f
	}
	// Floyd's algorithm: n distinct positions without a permutation of total.
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	chosen := make(map[int]bool, n)
	for j := total - n; j < total; j++ {
		k := rng.IntN(j + 1)
		if chosen[k] {
			k = j
		}
		chosen[k] = true
	}
	pos := make([]int, 0, n)
	for k := range chosen {
		pos = append(pos, k)
	}
	sort.Ints(pos)
	rows := make([]int32, n)
	for i, k := range pos {
		rows[i] = int32(f.row(k))
	}
	return f.withRows(rows)
}

// sel returns f's rows as a selection for the engine.
func (f Frame) sel() columnar.Sel {
	sel := columnar.Sel{N: f.t.N, All: f.all, Bits: f.bits}
	if !f.all && f.bits == nil {
		sel.List = f.list()
	}
	return sel
}
