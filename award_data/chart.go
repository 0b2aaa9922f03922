package award_data

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// VegaLiteMIME is the MIME type of the charts' Vega-Lite v5 specification.
const VegaLiteMIME = "application/vnd.vegalite.v5+json"

// maxChartPoints bounds the rows a line or scatter chart embeds; larger
// frames are sampled evenly (in order) and the title says so.
const maxChartPoints = 5000

// A Chart is a Vega-Lite v5 chart made from a Frame by Bar, Line, Scatter
// or Histogram. As a cell's last expression (or with display.Show) it is
// drawn by JupyterLab; other clients get a PNG drawn in Go, and text
// clients a text rendering. SVG and PNG give the drawing as images. Its methods
// return a changed copy, so options chain.
//
// Example:
//
//	award_data.GroupBy("Award Year", "Agency").Sum("Award Amount").Line("Award Year", "Award Amount").Color("Agency").Title("Dollars by agency")
type Chart struct {
	mark   string // "bar", "line", "point"
	x, y   string // field names
	xType  string // Vega-Lite types: nominal, ordinal, quantitative, temporal
	yType  string
	color  string
	cType  string
	title  string
	width  int
	height int
	values []map[string]any
	yearX  bool // x is a year: no thousands separators on the axis
	binned bool // histogram: x is bin start, x2 bin end
	horiz  bool // bar with categories on the vertical axis
	sized  bool // Size was called
	note   string
	frame  Frame // source rows, for Color
	err    error

	logX, logY     bool        // logarithmic axes
	xRange, yRange *[2]float64 // axis ranges set by XRange / YRange
	histColumn     string      // histogram: the column counted, for Bins and Range
	bins           int         // histogram: number of bins
	histRange      *[2]float64 // histogram: range set by Range
}

func chartError(err error) Chart { return Chart{err: err} }

// Err returns the error of the chain that produced c, or nil.
//
// Example:
//
//	fmt.Println(award_data.ValueCounts("Agency").Bar("Agncy", "Count").Err())
func (c Chart) Err() error { return c.err }

// vegaType picks the Vega-Lite field type of a column.
func vegaType(c *columnar.Vector) string {
	switch c.Kind {
	case columnar.KindInt, columnar.KindFloat:
		return "quantitative"
	case columnar.KindDate:
		return "temporal"
	}
	return "nominal"
}

// jsonValue is the value of row i of c for the chart data (nil for null).
func jsonValue(c *columnar.Vector, i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch c.Kind {
	case columnar.KindInt:
		return c.Ints[i]
	case columnar.KindFloat:
		v := c.Floats[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	return c.FormatValue(i)
}

func (f Frame) chart(op, mark, x, y string, limit int) Chart {
	if f.err != nil {
		return chartError(f.err)
	}
	cx, err := f.lookup(op, x)
	if err != nil {
		return chartError(err)
	}
	cy, err := f.lookup(op, y)
	if err != nil {
		return chartError(err)
	}
	if !cy.Numeric() && mark != "point" {
		return chartError(wrongType(op, cy, "int or float", "the y axis needs numbers, e.g. the result of GroupBy(...).Sum(...) or ValueCounts"))
	}
	ch := Chart{mark: mark, x: cx.Name, y: cy.Name, xType: vegaType(cx), yType: vegaType(cy), width: 600, height: 300}
	ch.yearX = cx.Kind == columnar.KindInt && strings.Contains(cx.Name, "Year")
	if mark == "bar" && cx.Textual() {
		ch.horiz = true
	}
	if mark == "bar" && ch.yearX {
		ch.xType = "ordinal"
	}
	positions := chartPositions(f.Len(), limit)
	if len(positions) < f.Len() {
		ch.note = fmt.Sprintf("%s of %s rows", groupThousands(itoa(len(positions))), groupThousands(itoa(f.Len())))
	}
	ch.values = make([]map[string]any, len(positions))
	for k, p := range positions {
		i := f.row(p)
		ch.values[k] = map[string]any{cx.Name: jsonValue(cx, i), cy.Name: jsonValue(cy, i)}
	}
	ch.frame = f
	return ch
}

// chartPositions picks at most limit evenly spaced positions of n.
func chartPositions(n, limit int) []int {
	if limit <= 0 || n <= limit {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, limit)
	for i := range out {
		out[i] = int(int64(i) * int64(n) / int64(limit))
	}
	return out
}

// Bar draws one bar per row: its position from column x and its length
// from the numeric column y, in the frame's order (sort the frame to sort
// the bars). Text categories go on the vertical axis so that long names
// stay readable.
//
// Example:
//
//	award_data.GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount").Bar("Agency", "Award Amount")
func (f Frame) Bar(x, y string) Chart { return f.chart("Bar", "bar", x, y, 0) }

// Line draws a line through the rows in x order; with Color, one line per
// value of another column. Frames over 5,000 rows are sampled evenly.
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase I").GroupBy("Award Year").Median("Award Amount").Line("Award Year", "Award Amount")
func (f Frame) Line(x, y string) Chart { return f.chart("Line", "line", x, y, maxChartPoints) }

// Scatter draws one point per row at (x, y). Frames over 5,000 rows are
// sampled evenly (in order); the title says how many points are shown.
//
// Example:
//
//	award_data.Where("Number Employees", "<", 9999).Scatter("Number Employees", "Award Amount")
func (f Frame) Scatter(x, y string) Chart { return f.chart("Scatter", "point", x, y, maxChartPoints) }

// Histogram draws the distribution of a numeric column in bins of equal
// width between its smallest and largest value (bins ≤ 0 picks 20). The
// counting happens here, so every row counts and the chart stays small.
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase I").Histogram("Award Amount", 30)
func (f Frame) Histogram(column string, bins int) Chart {
	if f.err != nil {
		return chartError(f.err)
	}
	c, err := f.lookup("Histogram", column)
	if err != nil {
		return chartError(err)
	}
	if !c.Numeric() {
		return chartError(wrongType("Histogram", c, "int or float", "for text or categories, use ValueCounts(column).Bar(column, \"Count\")"))
	}
	if bins < 0 || bins > 1000 {
		return chartError(errorf("Histogram", "bins is %d; use 1 to 1000 (or 0 for 20)", bins))
	}
	if bins == 0 {
		bins = 20
	}
	ch := Chart{mark: "bar", x: c.Name, y: "Count", xType: "quantitative", yType: "quantitative", width: 600, height: 300, binned: true,
		frame: f, histColumn: c.Name, bins: bins}
	ch.yearX = strings.Contains(c.Name, "Year")
	return ch.count()
}

// count (re)computes a histogram's bins over its frame. Without a Range,
// the bins span the values, except that when outliers (beyond three
// interquartile ranges from the quartiles) stretch the span more than
// twofold, the bins cover the other values and a note says how many fall
// outside: one huge award does not put every other one in the first bin.
func (ch Chart) count() Chart {
	f := ch.frame
	c, err := f.lookup("Histogram", ch.histColumn)
	if err != nil {
		return chartError(err)
	}
	vals := make([]float64, 0, f.Len())
	for k := 0; k < f.Len(); k++ {
		if v := c.Float(f.row(k)); !math.IsNaN(v) && !math.IsInf(v, 0) {
			vals = append(vals, v)
		}
	}
	ch.note = ""
	lo, hi := 0.0, 1.0
	if len(vals) > 0 {
		slices.Sort(vals)
		lo, hi = vals[0], vals[len(vals)-1]
		// Tukey's far-out fences: values beyond 3 interquartile ranges
		// from the quartiles are outliers; leave them out when they
		// stretch the span more than twofold.
		q25, q75 := columnar.QuantileSorted(vals, 0.25), columnar.QuantileSorted(vals, 0.75)
		lowFence, highFence := q25-3*(q75-q25), q75+3*(q75-q25)
		inLo := vals[sort.SearchFloat64s(vals, lowFence)]
		inHi := vals[max(sort.Search(len(vals), func(i int) bool { return vals[i] > highFence })-1, 0)]
		if ch.histRange == nil && inHi > inLo && hi-lo > 2*(inHi-inLo) {
			lo, hi = inLo, inHi
		}
	}
	if ch.histRange != nil {
		lo, hi = ch.histRange[0], ch.histRange[1]
	}
	width := (hi - lo) / float64(ch.bins)
	if width == 0 {
		width = 1
	}
	counts := make([]int64, ch.bins)
	outside := 0
	for _, v := range vals {
		if v < lo || v > hi {
			outside++
			continue
		}
		b := int((v - lo) / width)
		counts[min(b, ch.bins-1)]++
	}
	if outside > 0 {
		d := floatDecimals(&columnar.Vector{Kind: columnar.KindFloat, N: 2, Floats: []float64{lo, hi}}, []int{0, 1})
		ch.note = fmt.Sprintf("%s of %s values outside %s – %s not shown; Range(lo, hi) sets the range", groupThousands(itoa(outside)), groupThousands(itoa(len(vals))), formatFloat(lo, d), formatFloat(hi, d))
	}
	ch.values = nil
	for b, n := range counts {
		start := lo + float64(b)*width
		ch.values = append(ch.values, map[string]any{ch.x: start, ch.x + " (end)": start + width, "Count": n})
	}
	return ch
}

// Bins sets a histogram's number of bins (1 to 1000).
//
// Example:
//
//	award_data.Histogram("Award Amount", 0).Bins(50)
func (c Chart) Bins(n int) Chart {
	if c.err != nil {
		return c
	}
	if !c.binned {
		return chartError(errorf("Bins", "only a histogram has bins"))
	}
	if n < 1 || n > 1000 {
		return chartError(errorf("Bins", "n is %d; use 1 to 1000", n))
	}
	c.bins = n
	return c.count()
}

// Range sets the span a histogram's bins cover; values outside it are
// left out and counted in the title's note.
//
// Example:
//
//	award_data.Histogram("Award Amount", 40).Range(0, 2e6)
func (c Chart) Range(lo, hi float64) Chart {
	if c.err != nil {
		return c
	}
	if !c.binned {
		return chartError(errorf("Range", "only a histogram has a range; use XRange or YRange for axes"))
	}
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return chartError(errorf("Range", "lo (%v) must be below hi (%v), both finite", lo, hi))
	}
	c.histRange = &[2]float64{lo, hi}
	return c.count()
}

// LogX draws the x axis on a logarithmic scale (numeric axes only;
// values ≤ 0 are left out).
//
// Example:
//
//	award_data.Scatter("Number Employees", "Award Amount").LogX().LogY()
func (c Chart) LogX() Chart {
	if c.err == nil && (c.xType != "quantitative" || c.horiz) {
		return chartError(errorf("LogX", "the x axis of this chart is not numeric"))
	}
	if c.err == nil && c.binned {
		return chartError(errorf("LogX", "a histogram's bins have equal widths; histogram the logarithm instead, e.g. Apply(\"log10\", func(r award_data.Row) float64 { return math.Log10(r.Float(\"Award Amount\")) })"))
	}
	c.logX = true
	return c
}

// LogY draws the y axis (the bars' length) on a logarithmic scale.
//
// Example:
//
//	award_data.GroupBy("Award Year").Sum("Award Amount").Line("Award Year", "Award Amount").LogY()
func (c Chart) LogY() Chart {
	if c.err == nil && c.yType != "quantitative" {
		return chartError(errorf("LogY", "the y axis of this chart is not numeric"))
	}
	c.logY = true
	return c
}

// XRange fixes the x axis to [lo, hi] (numeric axes); marks outside are
// clipped.
//
// Example:
//
//	award_data.Scatter("Award Year", "Award Amount").XRange(2000, 2020)
func (c Chart) XRange(lo, hi float64) Chart { return c.axisRange("XRange", &c.xRange, lo, hi) }

// YRange fixes the y axis (for bars, their length axis) to [lo, hi].
//
// Example:
//
//	award_data.GroupBy("Award Year").Median("Award Amount").Line("Award Year", "Award Amount").YRange(0, 200000)
func (c Chart) YRange(lo, hi float64) Chart { return c.axisRange("YRange", &c.yRange, lo, hi) }

func (c Chart) axisRange(op string, dst **[2]float64, lo, hi float64) Chart {
	if c.err != nil {
		return c
	}
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return chartError(errorf(op, "lo (%v) must be below hi (%v), both finite", lo, hi))
	}
	*dst = &[2]float64{lo, hi}
	return c
}

// Color splits the chart by a column of the frame: one color (and, for
// Line, one line) per value.
//
// Example:
//
//	award_data.GroupBy("Award Year", "Phase").Sum("Award Amount").Line("Award Year", "Award Amount").Color("Phase")
func (c Chart) Color(column string) Chart {
	if c.err != nil {
		return c
	}
	if c.binned {
		return chartError(errorf("Color", "a histogram has one series; filter the frame with Where and draw one histogram per value"))
	}
	col, err := c.frame.lookup("Color", column)
	if err != nil {
		return chartError(err)
	}
	positions := chartPositions(c.frame.Len(), len(c.values))
	if len(c.values) == c.frame.Len() {
		positions = chartPositions(c.frame.Len(), 0)
	}
	values := make([]map[string]any, len(c.values))
	for k, v := range c.values {
		m := make(map[string]any, len(v)+1)
		for key, x := range v {
			m[key] = x
		}
		m[col.Name] = jsonValue(col, c.frame.row(positions[k]))
		values[k] = m
	}
	c.values = values
	c.color = col.Name
	c.cType = vegaType(col)
	if col.Kind == columnar.KindInt && !strings.Contains(col.Name, "Year") {
		c.cType = "quantitative"
	} else if col.Kind == columnar.KindInt {
		c.cType = "ordinal"
	}
	return c
}

// Title sets the chart's title.
//
// Example:
//
//	award_data.ValueCounts("Phase").Bar("Phase", "Count").Title("Awards by phase")
func (c Chart) Title(title string) Chart {
	c.title = title
	return c
}

// Size sets the chart's width and height in pixels (default 600 × 300;
// a bar chart with text categories gets 20 pixels per bar unless Size
// sets its height).
//
// Example:
//
//	award_data.ValueCounts("Agency").Bar("Agency", "Count").Size(800, 400)
func (c Chart) Size(width, height int) Chart {
	if c.err != nil {
		return c
	}
	if width <= 0 || height <= 0 || width > 4000 || height > 4000 {
		return chartError(errorf("Size", "%d × %d: width and height must be between 1 and 4000 pixels", width, height))
	}
	c.width, c.height = width, height
	c.sized = true
	return c
}

// field escapes a column name for a Vega-Lite field reference (dots and
// brackets would otherwise mean nested fields).
func field(name string) string {
	r := strings.NewReplacer(`\`, `\\`, ".", `\.`, "[", `\[`, "]", `\]`)
	return r.Replace(name)
}

// Spec returns the chart's Vega-Lite v5 specification as JSON, with the
// data inline.
//
// Example:
//
//	spec := award_data.ValueCounts("Phase").Bar("Phase", "Count").Spec()
func (c Chart) Spec() string {
	if c.err != nil {
		return ""
	}
	b, err := json.Marshal(c.spec())
	if err != nil {
		return ""
	}
	return string(b)
}

func (c Chart) spec() map[string]any {
	values, _ := c.plotted()
	x := map[string]any{"field": field(c.x), "type": c.xType, "title": c.x}
	y := map[string]any{"field": field(c.y), "type": c.yType, "title": c.y}
	if c.yearX {
		x["axis"] = map[string]any{"format": "d"}
	}
	scale := func(log bool, r *[2]float64) map[string]any {
		m := map[string]any{}
		if log {
			m["type"] = "log"
		}
		if r != nil {
			m["domain"] = []float64{r[0], r[1]}
		}
		return m
	}
	if m := scale(c.logX, c.xRange); len(m) > 0 {
		x["scale"] = m
	}
	if m := scale(c.logY, c.yRange); len(m) > 0 {
		y["scale"] = m
	}
	if c.y == "Share" {
		y["axis"] = map[string]any{"format": ".0%"}
	}
	enc := map[string]any{}
	mark := map[string]any{"type": c.mark, "tooltip": true, "clip": true}
	switch {
	case c.binned:
		x["bin"] = map[string]any{"binned": true}
		enc["x2"] = map[string]any{"field": field(c.x + " (end)")}
	case c.horiz:
		x["sort"] = nil
	case c.mark == "bar":
		x["sort"] = nil
	case c.mark == "line":
		mark["point"] = len(values) <= 100
	}
	if c.horiz {
		enc["x"], enc["y"] = y, x
	} else {
		enc["x"], enc["y"] = x, y
	}
	if c.color != "" {
		enc["color"] = map[string]any{"field": field(c.color), "type": c.cType, "title": c.color}
	}
	var height any = c.height
	if c.horiz && !c.sized {
		// One band per category, so that 20 companies stay readable.
		height = map[string]any{"step": 20}
	}
	spec := map[string]any{
		"$schema":  "https://vega.github.io/schema/vega-lite/v5.json",
		"width":    c.width,
		"height":   height,
		"data":     map[string]any{"values": values},
		"mark":     mark,
		"encoding": enc,
	}
	if t := c.fullTitle(); t != "" {
		spec["title"] = t
	}
	return spec
}

func (c Chart) fullTitle() string {
	t := c.title
	for _, note := range []string{c.note, c.logNote()} {
		if note == "" {
			continue
		}
		if t != "" {
			t += " "
		}
		t += "(" + note + ")"
	}
	return t
}

// plotted returns the values the chart draws, and how many it leaves
// out. The one rule for logarithmic axes, the same in Vega-Lite, the SVG
// and the PNG: a value at or below zero has no place on a log axis, so
// its row is left out (a histogram's empty bins too) and the title says
// how many were.
func (c Chart) plotted() ([]map[string]any, int) {
	if !c.logX && !c.logY {
		return c.values, 0
	}
	yField := c.y
	if c.binned {
		yField = "Count"
	}
	kept := make([]map[string]any, 0, len(c.values))
	dropped := 0
	for _, v := range c.values {
		okY, nonPosY := logValue(v[yField])
		okX, nonPosX := logValue(v[c.x])
		switch {
		case c.logY && nonPosY || c.logX && nonPosX:
			dropped++
		case c.logY && !okY || c.logX && !okX:
			// A null: never drawn on any axis, not counted.
		default:
			kept = append(kept, v)
		}
	}
	return kept, dropped
}

// logValue reports whether a chart value goes on a log axis (a number
// above zero) and whether it is a number at or below zero.
func logValue(v any) (ok, nonPositive bool) {
	x, isNum := numericValue(v)
	return isNum && x > 0, isNum && x <= 0
}

// logNote says how many rows a log axis left out; "" when none.
func (c Chart) logNote() string {
	_, dropped := c.plotted()
	if dropped == 0 {
		return ""
	}
	what := "rows"
	if c.binned {
		what = "empty bins"
	} else if dropped == 1 {
		what = "row"
	}
	return fmt.Sprintf("%s %s at or below 0 left out of the log axis", groupThousands(itoa(dropped)), what)
}

// MIMEBundle returns the chart as a Jupyter MIME bundle: the Vega-Lite
// specification (application/vnd.vegalite.v5+json, drawn by JupyterLab),
// the drawing of PNG (image/png, base64, shown by every other client:
// nbconvert's HTML, GitHub, the classic Notebook) and the text of String
// as "text/plain". A Chart with an error gives only the error text.
//
// Example:
//
//	bundle := award_data.ValueCounts("Phase").Bar("Phase", "Count").MIMEBundle()
func (c Chart) MIMEBundle() map[string]any {
	if c.err != nil {
		return map[string]any{"text/plain": c.String()}
	}
	// No image/svg+xml: nbconvert's HTML export prefers SVG to PNG, and
	// Debian's nbconvert 6.5 then strips it to its text, so a bundle with
	// both shows no picture there. Chart.SVG gives the same drawing.
	return map[string]any{
		VegaLiteMIME: json.RawMessage(c.Spec()),
		PNGMIME:      base64.StdEncoding.EncodeToString(c.layout().png()),
		"text/plain": c.String(),
	}
}

// String renders the chart as text, for clients without Vega-Lite: bar
// charts and histograms as rows of bars, line and scatter charts as a
// summary of their ranges.
//
// Example:
//
//	fmt.Println(award_data.ValueCounts("Phase").Bar("Phase", "Count"))
func (c Chart) String() string {
	if c.err != nil {
		return c.err.Error()
	}
	var b strings.Builder
	kind := map[string]string{"bar": "Bar chart", "line": "Line chart", "point": "Scatter chart"}[c.mark]
	if c.binned {
		kind = "Histogram"
	}
	if c.binned {
		fmt.Fprintf(&b, "%s of %s", kind, c.x)
	} else {
		fmt.Fprintf(&b, "%s of %s by %s", kind, c.y, c.x)
	}
	if c.color != "" {
		fmt.Fprintf(&b, ", colored by %s", c.color)
	}
	if t := c.fullTitle(); t != "" {
		fmt.Fprintf(&b, ": %s", t)
	}
	b.WriteByte('\n')
	if c.mark == "bar" && c.color == "" {
		c.textBars(&b)
	} else {
		c.textSummary(&b)
	}
	return strings.TrimRight(b.String(), "\n")
}

const textBarWidth = 40

func (c Chart) textBars(b *strings.Builder) {
	labels := make([]string, len(c.values))
	nums := make([]float64, len(c.values))
	maxAbs, lw := 0.0, 0
	for i, v := range c.values {
		if c.binned {
			lo, _ := v[c.x].(float64)
			hi, _ := v[c.x+" (end)"].(float64)
			d := floatDecimals(&columnar.Vector{Kind: columnar.KindFloat, N: 2, Floats: []float64{lo, hi}}, []int{0, 1})
			labels[i] = formatFloat(lo, d) + " – " + formatFloat(hi, d)
		} else {
			labels[i] = abbreviate(fmt.Sprint(displayAny(v[c.x], c.yearX)), maxCellText)
		}
		nums[i] = toF(v[c.y])
		lw = max(lw, len([]rune(labels[i])))
		maxAbs = math.Max(maxAbs, math.Abs(nums[i]))
	}
	shown := len(c.values)
	if shown > 50 {
		shown = 50
	}
	for i := 0; i < shown; i++ {
		n := 0
		if maxAbs > 0 && !math.IsNaN(nums[i]) {
			n = int(math.Round(math.Abs(nums[i]) / maxAbs * textBarWidth))
		}
		fmt.Fprintf(b, "%s  %s %s\n", pad(labels[i], lw, false), strings.Repeat("█", n)+strings.Repeat(" ", textBarWidth-n), c.formatValue(nums[i]))
	}
	if shown < len(c.values) {
		fmt.Fprintf(b, "... %d more bars\n", len(c.values)-shown)
	}
}

func (c Chart) textSummary(b *strings.Builder) {
	fmt.Fprintf(b, "%s points", groupThousands(itoa(len(c.values))))
	for _, axis := range []string{c.x, c.y} {
		var lo, hi any
		for _, v := range c.values {
			x := v[axis]
			if x == nil {
				continue
			}
			if lo == nil || lessAny(x, lo) {
				lo = x
			}
			if hi == nil || lessAny(hi, x) {
				hi = x
			}
		}
		if lo == nil {
			fmt.Fprintf(b, "; %s has no values", axis)
			continue
		}
		year := axis == c.x && c.yearX
		fmt.Fprintf(b, "; %s from %v to %v", axis, displayAny(lo, year), displayAny(hi, year))
	}
	if c.color != "" {
		seen := map[any]bool{}
		for _, v := range c.values {
			seen[v[c.color]] = true
		}
		fmt.Fprintf(b, "; %d series", len(seen))
	}
	b.WriteByte('\n')
}

func toF(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	}
	return math.NaN()
}

func displayAny(v any, year bool) any {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		if year {
			return x
		}
		return groupThousands(itoa(int(x)))
	case float64:
		return formatFloat(x, floatDecimals(&columnar.Vector{Kind: columnar.KindFloat, N: 1, Floats: []float64{x}}, []int{0}))
	}
	return v
}

// lessAny orders chart values: numbers numerically, others as text.
func lessAny(a, b any) bool {
	fa, fb := toF(a), toF(b)
	if !math.IsNaN(fa) && !math.IsNaN(fb) {
		return fa < fb
	}
	return fmt.Sprint(a) < fmt.Sprint(b)
}

// formatValue formats a bar's value: a percentage for shares.
func (c Chart) formatValue(v float64) string {
	if c.y == "Share" {
		return formatPercent(v)
	}
	return formatFloat(v, floatDecimals(&columnar.Vector{Kind: columnar.KindFloat, N: 1, Floats: []float64{v}}, []int{0}))
}
