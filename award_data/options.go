package award_data

import (
	"strconv"
	"strings"
)

// DisplayOptions says how much of a frame prints. A zero field keeps its
// default.
//
// Example:
//
//	award_data.SetDisplay(award_data.DisplayOptions{Rows: 60, TextWidth: 80})
type DisplayOptions struct {
	Rows      int // rows shown; longer frames show the first and last half (default 20)
	Columns   int // columns shown in HTML tables (default 20)
	Width     int // characters per line of a printed table (default 120)
	TextWidth int // characters of a text value before it is cut with "..." (default 40 in text, 100 in HTML)
}

// Display limits bound what a setting may ask for, so that a typo cannot
// print a million rows into the notebook.
const (
	maxDisplayRows  = 10000
	maxDisplayWidth = 100000
)

func (o DisplayOptions) check(op string) error {
	for _, v := range []struct {
		name string
		n    int
		max  int
	}{{"Rows", o.Rows, maxDisplayRows}, {"Columns", o.Columns, 1000}, {"Width", o.Width, maxDisplayWidth}, {"TextWidth", o.TextWidth, maxDisplayWidth}} {
		if v.n < 0 || v.n > v.max {
			return errorf(op, "%s is %d; it must be between 0 (the default) and %d", v.name, v.n, v.max)
		}
	}
	if o.TextWidth != 0 && o.TextWidth < 4 {
		return errorf(op, "TextWidth is %d; use 4 or more (or 0 for the default)", o.TextWidth)
	}
	return nil
}

// merged fills o's zero fields from d.
func (o DisplayOptions) merged(d DisplayOptions) DisplayOptions {
	if o.Rows == 0 {
		o.Rows = d.Rows
	}
	if o.Columns == 0 {
		o.Columns = d.Columns
	}
	if o.Width == 0 {
		o.Width = d.Width
	}
	if o.TextWidth == 0 {
		o.TextWidth = d.TextWidth
	}
	return o
}

// SetDisplay sets how every frame of the session prints from now on,
// like pandas' pd.set_option("display.max_rows", ...). Fields left zero
// go back to their defaults. It panics with an *Error for a value out of
// range.
//
// Example:
//
//	award_data.SetDisplay(award_data.DisplayOptions{Rows: 100})
//	award_data.SetDisplay(award_data.DisplayOptions{}) // the defaults again
func SetDisplay(o DisplayOptions) {
	if err := o.check("SetDisplay"); err != nil {
		panic(err)
	}
	setSession(func(s *session) { s.display = o })
}

// Display returns f with its own display settings, which win over
// SetDisplay's for this frame (zero fields fall back to them).
//
// Example:
//
//	award_data.Unique("Company").Display(award_data.DisplayOptions{Rows: 500})
func (f Frame) Display(o DisplayOptions) Frame {
	if f.err != nil {
		return f
	}
	if err := o.check("Display"); err != nil {
		return errFrame(err)
	}
	g := f
	g.disp = &o
	return g
}

// options returns f's effective display settings; html selects the
// HTML table's defaults.
func (f Frame) options(html bool) DisplayOptions {
	o := DisplayOptions{}
	if f.disp != nil {
		o = *f.disp
	}
	def := DisplayOptions{Rows: maxRows, Columns: maxHTMLCols, Width: maxTextWidth, TextWidth: maxCellText}
	if html {
		def.TextWidth = maxCellHTML
	}
	if f.fullText && o.TextWidth == 0 {
		o.TextWidth = maxDisplayWidth
	}
	return o.merged(current().display).merged(def)
}

// Names is a list of column names. It prints as a quoted, comma-separated
// list, so that names with spaces stay unambiguous; it is a []string for
// everything else (range, len, indexing).
//
// Example:
//
//	cols := award_data.Columns()
//	fmt.Println(cols[0], len(cols))
type Names []string

// String quotes each name: ["Company", "Award Title", ...].
//
// Example:
//
//	fmt.Println(award_data.Select("Company", "Award Amount").Columns()) // ["Company", "Award Amount"]
func (n Names) String() string {
	q := make([]string, len(n))
	for i, s := range n {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// Report describes the loaded award data: how many rows, and what the
// conversion from CSV found (skipped records, unparseable values that
// became nulls, invalid UTF-8), from the load report stored with the
// data.
//
// Example:
//
//	fmt.Println(award_data.Report())
func Report() string {
	s := current()
	if s.t == nil {
		return "no award data is loaded in this session"
	}
	out := groupThousands(itoa(s.t.N)) + " awards, " + itoa(len(s.t.Cols)) + " columns"
	if s.report != nil {
		if sum := strings.TrimSpace(s.report.Summary()); sum != "" {
			out += "\n" + sum
		}
	}
	return out
}
