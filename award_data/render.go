package award_data

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Display limits for printed frames. Frames with more rows show the first
// and last half of maxRows with a "..." row between them.
const (
	maxRows       = 20
	maxTextWidth  = 120 // characters per printed line before columns are elided
	maxCellText   = 40  // runes of a text value in the text table
	maxCellHTML   = 100 // runes of a text value in the HTML table
	maxHTMLCols   = 20
	ellipsis      = "..."
	nullCellText  = ""
	rowLabelTitle = ""
)

// grid is the part of a frame chosen for display, already formatted.
type grid struct {
	headers   []string
	right     []bool     // right-align column (numbers)
	cells     [][]string // cells[col][row]
	labels    []string   // row labels
	gapRow    int        // rows before the "..." row, or -1
	gapCol    int        // columns before the "..." column, or -1
	nrows     int        // rows of the frame
	ncols     int        // columns of the frame
	truncated bool
}

// shownRows picks the frame positions to display.
func shownRows(n, maxRows int) (pos []int, gap int) {
	if n <= maxRows {
		pos = make([]int, n)
		for i := range pos {
			pos[i] = i
		}
		return pos, -1
	}
	half := maxRows / 2
	for i := 0; i < half; i++ {
		pos = append(pos, i)
	}
	for i := n - half; i < n; i++ {
		pos = append(pos, i)
	}
	return pos, half
}

func (f Frame) grid(cellWidth, maxRows int) *grid {
	n := f.Len()
	pos, gap := shownRows(n, maxRows)
	g := &grid{gapRow: gap, gapCol: -1, nrows: n, ncols: len(f.cols), truncated: gap >= 0}
	g.labels = make([]string, len(pos))
	for k, p := range pos {
		label := p
		if f.t.Source {
			label = f.row(p)
		}
		g.labels[k] = strconv.Itoa(label)
	}
	for _, ci := range f.cols {
		c := f.t.Cols[ci]
		rows := make([]int, len(pos))
		for k, p := range pos {
			rows[k] = f.row(p)
		}
		g.headers = append(g.headers, c.Name)
		g.right = append(g.right, c.Numeric())
		g.cells = append(g.cells, formatCells(c, rows, cellWidth))
	}
	return g
}

// formatCells formats the given rows of c for display: thousands
// separators for numbers (not in columns named like "Award Year"), a common number of decimals per
// column, text abbreviated to width runes on one line.
func formatCells(c *columnar.Vector, rows []int, width int) []string {
	out := make([]string, len(rows))
	switch c.Kind {
	case columnar.KindFloat:
		if c.AggName == "Share" {
			for k, i := range rows {
				if c.IsNull(i) {
					out[k] = nullCellText
					continue
				}
				out[k] = formatPercent(c.Floats[i])
			}
			return out
		}
		decimals := floatDecimals(c, rows)
		for k, i := range rows {
			if c.IsNull(i) {
				out[k] = nullCellText
				continue
			}
			out[k] = formatFloat(c.Floats[i], decimals)
		}
	case columnar.KindInt:
		year := strings.Contains(c.Name, "Year")
		for k, i := range rows {
			switch {
			case c.IsNull(i):
				out[k] = nullCellText
			case c.Bool:
				out[k] = c.FormatValue(i)
			case year:
				out[k] = strconv.FormatInt(c.Ints[i], 10)
			default:
				out[k] = groupThousands(strconv.FormatInt(c.Ints[i], 10))
			}
		}
	default:
		for k, i := range rows {
			out[k] = abbreviate(c.FormatValue(i), width)
		}
	}
	return out
}

// floatDecimals chooses how many decimals a float column shows: none when
// every shown value is whole, 4 when all are below 1 in magnitude
// (shares, quantiles of small numbers), else 2.
func floatDecimals(c *columnar.Vector, rows []int) int {
	whole, small := true, true
	for _, i := range rows {
		if c.IsNull(i) {
			continue
		}
		v := c.Floats[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if v != math.Trunc(v) || math.Abs(v) >= 1e15 {
			whole = false
		}
		if math.Abs(v) >= 1 {
			small = false
		}
	}
	switch {
	case whole:
		return 0
	case small:
		return 4
	}
	return 2
}

func formatFloat(v float64, decimals int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	s = groupThousands(intPart)
	if frac != "" {
		s += "." + frac
	}
	return s
}

// groupThousands inserts commas into a decimal integer: -1234567 → -1,234,567.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(s) % 3
	if head > 0 {
		b.WriteString(s[:head])
	}
	for i := head; i < len(s); i += 3 {
		if b.Len() > len(sign) {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// abbreviate puts s on one line and cuts it to width runes, ending in "...".
func abbreviate(s string, width int) string {
	if strings.ContainsAny(s, "\r\n\t") {
		s = strings.Join(strings.Fields(s), " ")
	}
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	n := 0
	for i := range s {
		if n == width-len(ellipsis) {
			return strings.TrimRight(s[:i], " ") + ellipsis
		}
		n++
	}
	return s
}

// String formats f as an aligned text table, the way fmt.Println(f)
// prints it: at most 20 rows (the first and last 10 around a "..." row),
// the leading columns that fit in 120 characters (then a "..." column), long text cut to 32 characters, numbers with thousands
// separators, nulls as empty cells, and a last line with the frame's size.
// The left column is the row's position in the data file for award rows,
// or its position in the result for computed frames. A Frame with an
// error formats as the error.
//
// Example:
//
//	fmt.Println(award_data.Select("Company", "Award Amount").Head(3))
func (f Frame) String() string {
	if f.err != nil {
		return f.err.Error()
	}
	if f.t == nil {
		return "[0 rows x 0 columns]"
	}
	o := f.options(false)
	g := f.grid(o.TextWidth, o.Rows)
	g.fitWidth(o.Width)
	if f.note != "" {
		return g.text() + "\n" + f.note
	}
	return g.text()
}

func (g *grid) widths() (label int, cols []int) {
	label = len(rowLabelTitle)
	for _, l := range g.labels {
		label = max(label, len(l))
	}
	cols = make([]int, len(g.headers))
	for j, h := range g.headers {
		w := utf8.RuneCountInString(h)
		for _, s := range g.cells[j] {
			w = max(w, utf8.RuneCountInString(s))
		}
		cols[j] = w
	}
	return label, cols
}

// fitWidth keeps the leading columns that fit in width characters (at
// least one) and marks the rest as elided with a "..." column at the end:
// the first columns of the award data (company, title, agency, phase) say
// the most about a row.
func (g *grid) fitWidth(width int) {
	label, ws := g.widths()
	total := label
	for _, w := range ws {
		total += 2 + w
	}
	if total <= width || len(ws) <= 1 {
		return
	}
	budget := width - label - 2 - len(ellipsis)
	keep := 0
	for keep < len(ws) && budget-(2+ws[keep]) >= 0 {
		budget -= 2 + ws[keep]
		keep++
	}
	keep = max(keep, 1)
	g.headers, g.right, g.cells = g.headers[:keep], g.right[:keep], g.cells[:keep]
	g.gapCol = keep
	g.truncated = true
}

func pad(s string, w int, right bool) string {
	n := w - utf8.RuneCountInString(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

func (g *grid) text() string {
	label, ws := g.widths()
	var b strings.Builder
	line := func(lab string, cell func(j int) string, gapCell string) {
		parts := []string{pad(lab, label, true)}
		for j := range g.headers {
			if j == g.gapCol {
				parts = append(parts, pad(gapCell, len(ellipsis), false))
			}
			parts = append(parts, pad(cell(j), ws[j], g.right[j]))
		}
		if g.gapCol == len(g.headers) {
			parts = append(parts, gapCell)
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " "))
		b.WriteByte('\n')
	}
	line(rowLabelTitle, func(j int) string { return g.headers[j] }, ellipsis)
	for k := range g.labels {
		if k == g.gapRow {
			line(ellipsis, func(int) string { return ellipsis }, ellipsis)
		}
		line(g.labels[k], func(j int) string { return g.cells[j][k] }, ellipsis)
	}
	fmt.Fprintf(&b, "[%s rows x %s columns]", groupThousands(strconv.Itoa(g.nrows)), groupThousands(strconv.Itoa(g.ncols)))
	return b.String()
}

// HTML formats f as an HTML table for notebooks (the text/html part of
// MIMEBundle), with the same row limits as String, up to 20 columns (the
// first and last 10 around a "..." column) and text cut to 100 characters.
// All values are HTML-escaped. A Frame with an error formats as the error
// in a <pre> element.
//
// Example:
//
//	page := award_data.ValueCounts("Agency").HTML()
func (f Frame) HTML() string {
	if f.err != nil {
		return `<pre class="award-data-error">` + html.EscapeString(f.err.Error()) + "</pre>"
	}
	if f.t == nil {
		return "<p>0 rows × 0 columns</p>"
	}
	o := f.options(true)
	g := f.grid(o.TextWidth, o.Rows)
	g.limitColumns(o.Columns)
	var b strings.Builder
	b.WriteString("<div>\n<table class=\"dataframe\" border=\"1\">\n<thead>\n<tr style=\"text-align: right;\">\n<th></th>\n")
	for j, h := range g.headers {
		if j == g.gapCol {
			b.WriteString("<th>...</th>\n")
		}
		b.WriteString("<th>" + html.EscapeString(h) + "</th>\n")
	}
	b.WriteString("</tr>\n</thead>\n<tbody>\n")
	row := func(lab string, cell func(j int) string) {
		b.WriteString("<tr>\n<th>" + html.EscapeString(lab) + "</th>\n")
		for j := range g.headers {
			if j == g.gapCol {
				b.WriteString("<td>...</td>\n")
			}
			style := ""
			if !g.right[j] {
				style = ` style="text-align: left;"`
			}
			b.WriteString("<td" + style + ">" + html.EscapeString(cell(j)) + "</td>\n")
		}
		b.WriteString("</tr>\n")
	}
	for k := range g.labels {
		if k == g.gapRow {
			row(ellipsis, func(int) string { return ellipsis })
		}
		row(g.labels[k], func(j int) string { return g.cells[j][k] })
	}
	fmt.Fprintf(&b, "</tbody>\n</table>\n<p>%s rows × %s columns</p>\n", groupThousands(strconv.Itoa(g.nrows)), groupThousands(strconv.Itoa(g.ncols)))
	if f.note != "" {
		b.WriteString("<p><em>" + html.EscapeString(f.note) + "</em></p>\n")
	}
	b.WriteString("</div>")
	return b.String()
}

func (g *grid) limitColumns(n int) {
	if len(g.headers) <= n {
		return
	}
	half := n / 2
	keep := make([]int, 0, n)
	for j := 0; j < half; j++ {
		keep = append(keep, j)
	}
	for j := len(g.headers) - half; j < len(g.headers); j++ {
		keep = append(keep, j)
	}
	headers, right, cells := g.headers, g.right, g.cells
	g.headers, g.right, g.cells = nil, nil, nil
	for _, j := range keep {
		g.headers = append(g.headers, headers[j])
		g.right = append(g.right, right[j])
		g.cells = append(g.cells, cells[j])
	}
	g.gapCol = half
}

// MIMEBundle returns f as a Jupyter MIME bundle: "text/plain" (String),
// "text/html" (HTML) and "application/vnd.dataresource+json", the rows as
// exact typed data in the Table Schema JSON pandas writes with
// to_json(orient="table"): the first 20 rows (DisplayOptions.Rows) with
// every column, numbers to the last digit, text whole, nulls as null, NaN
// and infinities as the strings "NaN", "Infinity" and "-Infinity", dates
// as "2006-01-02T00:00:00.000", at most 256 KiB, and "frame" saying {"rows",
// "offset", "truncated"}. Over MCP and `sbir-kernel run --json` it becomes
// the result's frame.records. The kernel calls MIMEBundle when a Frame is
// the last expression of a cell; display.Show(f) uses it too.
//
// Example:
//
//	bundle := award_data.Head(3).MIMEBundle()
//	fmt.Println(bundle["text/plain"])
func (f Frame) MIMEBundle() map[string]any {
	if f.err != nil {
		return map[string]any{"text/plain": f.String()}
	}
	b := map[string]any{"text/plain": f.String(), "text/html": f.HTML()}
	if r := f.dataResource(); r != nil {
		b[dataResourceMIME] = json.RawMessage(r)
	}
	return b
}

// formatPercent shows a fraction as a percentage with one decimal:
// 0.1923 → 19.2%.
func formatPercent(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return formatFloat(v, 0)
	}
	return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
}
