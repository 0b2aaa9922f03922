package award_data

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A chart is drawn twice from one layout, in Go: as SVG (image/svg+xml)
// and as a PNG raster (image/png), so that every client shows a picture,
// those that drop or sanitise SVG (Debian's nbconvert 6.5) included.
// The drawing calls a canvas; canvas_svg.go and canvas_png.go render it.

// point is a position in pixels.
type point struct{ x, y float64 }

// box is a rectangle in pixels.
type box struct{ x, y, w, h float64 }

// paint says how a shape is filled and outlined ("" for none).
type paint struct {
	fill, stroke string
	width        float64 // of the stroke
	opacity      float64 // of the fill; 0 means 1
}

// textAnchor places text horizontally about its point.
type textAnchor int

const (
	anchorStart textAnchor = iota
	anchorMiddle
	anchorEnd
)

// textStyle says how text is set: its point is on the baseline (or, with
// middle, at half the text's height), rotated by rotate degrees about it.
type textStyle struct {
	size   float64
	bold   bool
	anchor textAnchor
	middle bool
	rotate float64
}

// canvas is what a chart is drawn on.
type canvas interface {
	rect(b box, p paint)
	line(a, b point, p paint)
	polyline(pts []point, p paint)
	circle(c point, r float64, p paint)
	text(at point, s string, st textStyle)
	clip(b box) // marks after it are clipped to b until unclip
	unclip()
}

// Margins of the plot inside the chart, in pixels.
const (
	plotTop, plotBottom, plotRight = 34.0, 44.0, 16.0
	legendWidth                    = 170.0
	fontSize                       = 11.0
)

// plot is a chart laid out: its size, the plot area, the axes, and the
// categories and series its values fall in.
type plot struct {
	c              Chart
	values         []map[string]any // the values drawn (see Chart.plotted)
	width, height  float64
	left, right    float64 // plot area's horizontal extent
	top, bottom    float64 // and vertical
	xs, ys         axis
	cats           []string
	catIndex       map[string]int
	series         []string
	seriesIndex    map[string]int
	xTitle, yTitle string
}

// layout lays the chart out.
func (c Chart) layout() *plot {
	p := &plot{c: c, width: float64(c.width), height: float64(c.height), left: 64, catIndex: map[string]int{}}
	p.values, _ = c.plotted()
	if c.mark == "bar" && !c.binned {
		p.addCategories()
	}
	if c.horiz {
		longest := 0
		for _, s := range p.cats {
			longest = max(longest, len([]rune(abbreviate(s, maxCellText))))
		}
		p.left = math.Min(12+6.5*float64(longest), 300)
		if !c.sized {
			p.height = plotTop + plotBottom + 20*float64(max(len(p.cats), 1))
		}
	}
	p.addSeries()
	p.top, p.bottom, p.right = plotTop, p.height-plotBottom, p.width-plotRight
	if len(p.series) > 0 {
		p.right -= legendWidth
	}
	p.setAxes()
	p.xTitle, p.yTitle = c.x, c.y
	if c.horiz {
		p.xTitle, p.yTitle = c.y, c.x
	}
	if c.binned {
		p.yTitle = "Count"
	}
	return p
}

// category is the label of a value's x category.
func (p *plot) category(v map[string]any) string { return fmt.Sprint(displayAny(v[p.c.x], p.c.yearX)) }

// addCategories collects the x categories in the order of the values.
func (p *plot) addCategories() {
	for _, v := range p.values {
		if s := p.category(v); !slices.Contains(p.cats, s) {
			p.catIndex[s] = len(p.cats)
			p.cats = append(p.cats, s)
		}
	}
}

// seriesOf is the label of a value's Color series.
func (p *plot) seriesOf(v map[string]any) string { return fmt.Sprint(displayAny(v[p.c.color], false)) }

// addSeries collects the Color series, in value order for a nominal
// column, else sorted as numbers.
func (p *plot) addSeries() {
	p.seriesIndex = map[string]int{}
	if p.c.color == "" {
		return
	}
	for _, v := range p.values {
		if s := p.seriesOf(v); !slices.Contains(p.series, s) {
			p.seriesIndex[s] = len(p.series)
			p.series = append(p.series, s)
		}
	}
	if p.c.cType == "nominal" {
		return
	}
	slices.SortFunc(p.series, func(a, b string) int {
		fa, ea := strconv.ParseFloat(strings.ReplaceAll(a, ",", ""), 64)
		fb, eb := strconv.ParseFloat(strings.ReplaceAll(b, ",", ""), 64)
		if ea == nil && eb == nil {
			return cmp.Compare(fa, fb)
		}
		return strings.Compare(a, b)
	})
	for i, s := range p.series {
		p.seriesIndex[s] = i
	}
}

// valueRange is the span of a numeric field over the values (and its
// " (end)" field, for histograms), widened to round ticks: fixed when
// set, including zero when zero is set (bars start there), and only
// positive values on a log axis.
func (p *plot) valueRange(key string, log bool, fixed *[2]float64, zero bool) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range p.values {
		for _, k := range []string{key, key + " (end)"} {
			x, ok := numericValue(v[k])
			if !ok || (log && x <= 0) {
				continue
			}
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if zero && !log {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	if fixed != nil {
		lo, hi = fixed[0], fixed[1]
		if log && lo <= 0 {
			// A log axis cannot start at or below zero: start where the
			// positive values do.
			lo = math.Min(hi/1000, 1)
		}
	}
	switch {
	case lo > hi || (log && hi <= 0):
		if log {
			return 1, 10
		}
		return 0, 1
	case lo == hi && log:
		lo, hi = lo/10, hi*10
	case lo == hi:
		lo, hi = lo-1, hi+1
	}
	switch {
	case fixed != nil:
	case log:
		lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	default:
		_, lo, hi = niceTicks(lo, hi, 5)
	}
	return lo, hi
}

// setAxes builds the two axes: bands for the categories of a bar chart
// (vertical for horizontal bars) or of a nominal x, numeric otherwise.
func (p *plot) setAxes() {
	c := p.c
	share := c.y == "Share"
	switch {
	case c.horiz:
		p.ys = axis{bands: p.cats, from: p.top, to: p.bottom}
		lo, hi := p.valueRange(c.y, c.logY, c.yRange, true)
		p.xs = axis{lo: lo, hi: hi, log: c.logY, from: p.left, to: p.right, percent: share}
		return
	case c.mark == "bar" && !c.binned:
		p.xs = axis{bands: p.cats, from: p.left, to: p.right}
	case c.xType == "nominal" || c.xType == "ordinal":
		p.addCategories()
		p.xs = axis{bands: p.cats, from: p.left, to: p.right}
	default:
		lo, hi := p.valueRange(c.x, c.logX, c.xRange, false)
		if c.binned && len(p.values) > 0 {
			lo, hi = math.Inf(1), math.Inf(-1)
			for _, v := range c.values {
				lo = math.Min(lo, v[c.x].(float64))
				hi = math.Max(hi, v[c.x+" (end)"].(float64))
			}
		}
		if c.histRange != nil {
			lo, hi = c.histRange[0], c.histRange[1]
		}
		p.xs = axis{lo: lo, hi: hi, log: c.logX, from: p.left, to: p.right, year: c.yearX, date: c.xType == "temporal"}
	}
	lo, hi := p.valueRange(c.y, c.logY, c.yRange, c.binned || c.mark == "bar")
	p.ys = axis{lo: lo, hi: hi, log: c.logY, from: p.bottom, to: p.top, percent: share}
}

// draw draws the whole chart.
func (p *plot) draw(cv canvas) {
	cv.rect(box{0, 0, p.width, p.height}, paint{fill: "white"})
	if t := p.c.fullTitle(); t != "" {
		cv.text(point{p.left, 18}, t, textStyle{size: 13, bold: true})
	}
	p.drawAxis(cv, &p.xs, true)
	p.drawAxis(cv, &p.ys, false)
	axisPaint := paint{stroke: "#888", width: 1}
	cv.line(point{p.left, p.bottom}, point{p.right, p.bottom}, axisPaint)
	cv.line(point{p.left, p.top}, point{p.left, p.bottom}, axisPaint)
	cv.text(point{(p.left + p.right) / 2, p.height - 6}, p.xTitle, textStyle{size: fontSize, bold: true, anchor: anchorMiddle})
	if !p.c.horiz {
		mid := (p.top + p.bottom) / 2
		cv.text(point{12, mid}, p.yTitle, textStyle{size: fontSize, bold: true, anchor: anchorMiddle, rotate: -90})
	}
	cv.clip(box{p.left, p.top, p.right - p.left, p.bottom - p.top})
	switch {
	case p.c.binned:
		p.drawHistogram(cv)
	case p.c.mark == "bar":
		p.drawBars(cv)
	default:
		p.drawPoints(cv)
	}
	cv.unclip()
	p.drawLegend(cv)
}

// drawAxis draws an axis's grid lines, ticks and labels.
func (p *plot) drawAxis(cv canvas, a *axis, horizontal bool) {
	label := textStyle{size: fontSize, anchor: anchorEnd, middle: true}
	if a.bands != nil {
		step := max(1, len(a.bands)/20)
		for i, name := range a.bands {
			if i%step != 0 {
				continue
			}
			start, w := a.band(i)
			text := abbreviate(name, maxCellText)
			if horizontal {
				cv.text(point{start + w/2, p.bottom + 14}, text, textStyle{size: fontSize, anchor: anchorEnd, rotate: -40})
			} else {
				cv.text(point{p.left - 6, start + w/2}, text, label)
			}
		}
		return
	}
	grid := paint{stroke: "#ddd", width: 1}
	for _, v := range a.ticks() {
		at := a.pos(v)
		if horizontal {
			cv.line(point{at, p.top}, point{at, p.bottom}, grid)
			cv.text(point{at, p.bottom + 15}, a.label(v), textStyle{size: fontSize, anchor: anchorMiddle})
		} else {
			cv.line(point{p.left, at}, point{p.right, at}, grid)
			cv.text(point{p.left - 5, at}, a.label(v), label)
		}
	}
}

// colorOf is the color of a value's series.
func (p *plot) colorOf(v map[string]any) string {
	if p.c.color == "" {
		return palette[0]
	}
	return palette[p.seriesIndex[p.seriesOf(v)]%len(palette)]
}

// base is where a bar starts on a value axis.
func base(a *axis) float64 {
	if a.log {
		return a.pos(a.lo)
	}
	return a.pos(math.Max(a.lo, math.Min(0, a.hi)))
}

func (p *plot) drawHistogram(cv canvas) {
	b0 := base(&p.ys)
	for _, v := range p.values {
		x0, x1 := p.xs.pos(v[p.c.x].(float64)), p.xs.pos(v[p.c.x+" (end)"].(float64))
		n, _ := numericValue(v["Count"])
		y := p.ys.pos(n)
		cv.rect(box{x0, math.Min(y, b0), math.Max(x1-x0, 0.5), math.Abs(b0 - y)}, paint{fill: palette[0], stroke: "white", width: 0.5})
	}
}

// drawBars draws one bar per value; bars of one category share its band,
// side by side per series.
func (p *plot) drawBars(cv canvas) {
	nser := float64(max(len(p.series), 1))
	for _, v := range p.values {
		n, ok := numericValue(v[p.c.y])
		if !ok {
			continue
		}
		cat := p.catIndex[p.category(v)]
		k := 0.0
		if p.c.color != "" {
			k = float64(p.seriesIndex[p.seriesOf(v)])
		}
		if p.c.horiz {
			start, w := p.ys.band(cat)
			bw := w * 0.8 / nser
			b0, x := base(&p.xs), p.xs.pos(n)
			cv.rect(box{math.Min(x, b0), start + w*0.1 + k*bw, math.Abs(x - b0), bw}, paint{fill: p.colorOf(v)})
			continue
		}
		start, w := p.xs.band(cat)
		bw := w * 0.8 / nser
		b0, y := base(&p.ys), p.ys.pos(n)
		cv.rect(box{start + w*0.1 + k*bw, math.Min(y, b0), bw, math.Abs(y - b0)}, paint{fill: p.colorOf(v)})
	}
}

// drawPoints draws a scatter's points, or a line per series (with its
// points when there are at most 100).
func (p *plot) drawPoints(cv canvas) {
	lines := map[int][]point{}
	for _, v := range p.values {
		x, okx := p.xPos(v)
		y, oky := numericValue(v[p.c.y])
		if !okx || !oky {
			continue
		}
		at := point{x, p.ys.pos(y)}
		if p.c.mark == "line" {
			k := 0
			if p.c.color != "" {
				k = p.seriesIndex[p.seriesOf(v)]
			}
			lines[k] = append(lines[k], at)
			continue
		}
		cv.circle(at, 2.5, paint{fill: p.colorOf(v), opacity: 0.7})
	}
	keys := make([]int, 0, len(lines))
	for k := range lines {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		pts := lines[k]
		slices.SortStableFunc(pts, func(a, b point) int { return cmp.Compare(a.x, b.x) })
		color := palette[k%len(palette)]
		cv.polyline(pts, paint{stroke: color, width: 2})
		if len(pts) <= 100 {
			for _, at := range pts {
				cv.circle(at, 2.5, paint{fill: color})
			}
		}
	}
}

// xPos is the horizontal position of a line or scatter value.
func (p *plot) xPos(v map[string]any) (float64, bool) {
	if p.xs.bands != nil {
		start, w := p.xs.band(p.catIndex[p.category(v)])
		return start + w/2, true
	}
	x, ok := numericValue(v[p.c.x])
	return p.xs.pos(x), ok
}

func (p *plot) drawLegend(cv canvas) {
	if len(p.series) == 0 {
		return
	}
	lx := p.right + 16
	cv.text(point{lx, p.top + 4}, p.c.color, textStyle{size: fontSize, bold: true})
	shown := min(len(p.series), int((p.bottom-p.top-16)/16))
	for i := 0; i < shown; i++ {
		y := p.top + 20 + float64(i)*16
		cv.rect(box{lx, y - 9, 10, 10}, paint{fill: palette[i%len(palette)]})
		cv.text(point{lx + 14, y}, abbreviate(p.series[i], 24), textStyle{size: fontSize})
	}
	if shown < len(p.series) {
		cv.text(point{lx, p.top + 20 + float64(shown)*16}, fmt.Sprintf("… %d more", len(p.series)-shown), textStyle{size: fontSize})
	}
}
