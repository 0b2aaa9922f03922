package award_data

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SVGMIME is the MIME type of the SVG drawing every chart's bundle
// carries, for clients that do not run Vega-Lite (nbconvert HTML,
// GitHub, the classic Notebook).
const SVGMIME = "image/svg+xml"

// palette is Vega-Lite's default categorical scheme (tableau10), so the
// SVG and the interactive chart color series alike.
var palette = [...]string{"#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac"}

// axis maps data values to pixels along one dimension: a linear or
// logarithmic scale over [lo, hi], or bands for categories.
type axis struct {
	lo, hi     float64
	log        bool
	bands      []string // categories in order; nil for a numeric axis
	from, to   float64  // pixel range
	year, date bool     // tick labels as years / dates
	percent    bool     // tick labels as percentages
}

func (a *axis) pos(v float64) float64 {
	if a.log {
		v, lo, hi := math.Log10(v), math.Log10(a.lo), math.Log10(a.hi)
		return a.from + (v-lo)/(hi-lo)*(a.to-a.from)
	}
	return a.from + (v-a.lo)/(a.hi-a.lo)*(a.to-a.from)
}

func (a *axis) band(i int) (start, width float64) {
	w := (a.to - a.from) / float64(max(len(a.bands), 1))
	return a.from + float64(i)*w, w
}

// niceTicks returns about n round tick values covering [lo, hi], and
// widens lo and hi to the outer ticks.
func niceTicks(lo, hi float64, n int) (ticks []float64, nlo, nhi float64) {
	if hi <= lo {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	nlo, nhi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if !(step > 0) || math.IsInf(step, 0) || math.IsNaN(nlo) || math.IsNaN(nhi) || (nhi-nlo)/step > 100 {
		return []float64{lo, hi}, lo, hi // extreme values: no round ticks
	}
	for v := nlo; v <= nhi+step/2; v += step {
		ticks = append(ticks, math.Round(v/step)*step)
	}
	return ticks, nlo, nhi
}

func (a *axis) ticks() []float64 {
	if a.log {
		var t []float64
		first, last := math.Floor(math.Log10(a.lo)), math.Ceil(math.Log10(a.hi))
		if math.IsNaN(first) || math.IsInf(first, 0) || math.IsNaN(last) || last-first > 60 {
			return nil
		}
		for e := first; e <= last; e++ {
			if v := math.Pow(10, e); v >= a.lo*0.999 && v <= a.hi*1.001 {
				t = append(t, v)
			}
		}
		return t
	}
	t, _, _ := niceTicks(a.lo, a.hi, 5)
	var out []float64
	for _, v := range t {
		if v >= a.lo-1e-9*math.Abs(a.hi-a.lo) && v <= a.hi+1e-9*math.Abs(a.hi-a.lo) {
			out = append(out, v)
		}
	}
	return out
}

func (a *axis) label(v float64) string {
	switch {
	case a.year:
		return strconv.FormatInt(int64(math.Round(v)), 10)
	case a.date:
		return time.Unix(int64(v)*86400, 0).UTC().Format("2006-01-02")
	case a.percent:
		return strconv.FormatFloat(v*100, 'f', -1, 64) + "%"
	}
	return shortNumber(v)
}

// shortNumber formats a tick value compactly: 1.5M, 250k, 0.25.
func shortNumber(v float64) string {
	abs := math.Abs(v)
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}} {
		if abs >= u.div {
			return strconv.FormatFloat(v/u.div, 'f', -1, 64) + u.unit
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// numeric converts a chart value to a position value: numbers as they
// are, dates ("2006-01-02") as days; ok is false otherwise.
func numericValue(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x)
	case int64:
		return float64(x), true
	case string:
		if t, err := time.Parse("2006-01-02", x); err == nil {
			return float64(t.Unix() / 86400), true
		}
	}
	return 0, false
}

// svgBuilder writes SVG elements.
type svgBuilder struct{ b strings.Builder }

func (s *svgBuilder) f(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

func esc(s string) string { return html.EscapeString(s) }

// SVG draws the chart as a standalone SVG image, in Go, with no
// JavaScript: axes with ticks, the marks, a legend for Color and the
// title. It is the image/svg+xml part of MIMEBundle, shown wherever
// Vega-Lite is not.
//
// Example:
//
//	svg := award_data.ValueCounts("Phase").Bar("Phase", "Count").SVG()
func (c Chart) SVG() string {
	if c.err != nil {
		return ""
	}
	const (
		top, bottom, right = 34.0, 44.0, 16.0
		legendWidth        = 170.0
	)
	width, height := float64(c.width), float64(c.height)
	left := 64.0
	var xs, ys axis
	// The categorical axis of a bar chart: x for vertical bars, y for
	// horizontal ones.
	var cats []string
	catIndex := map[string]int{}
	if c.mark == "bar" && !c.binned {
		for _, v := range c.values {
			s := fmt.Sprint(displayAny(v[c.x], c.yearX))
			if _, ok := catIndex[s]; !ok {
				catIndex[s] = len(cats)
				cats = append(cats, s)
			}
		}
	}
	if c.horiz {
		longest := 0
		for _, s := range cats {
			longest = max(longest, len([]rune(abbreviate(s, maxCellText))))
		}
		left = math.Min(12+6.5*float64(longest), 300)
		if !c.sized {
			height = top + bottom + 20*float64(max(len(cats), 1))
		}
	}
	// Series for Color.
	var series []string
	seriesIndex := map[string]int{}
	if c.color != "" {
		for _, v := range c.values {
			s := fmt.Sprint(displayAny(v[c.color], false))
			if _, ok := seriesIndex[s]; !ok {
				seriesIndex[s] = len(series)
				series = append(series, s)
			}
		}
		if c.cType != "nominal" {
			slices.SortFunc(series, func(a, b string) int {
				fa, ea := strconv.ParseFloat(strings.ReplaceAll(a, ",", ""), 64)
				fb, eb := strconv.ParseFloat(strings.ReplaceAll(b, ",", ""), 64)
				if ea == nil && eb == nil {
					return cmp.Compare(fa, fb)
				}
				return strings.Compare(a, b)
			})
			for i, s := range series {
				seriesIndex[s] = i
			}
		}
	}
	plotRight := width - right
	if len(series) > 0 {
		plotRight -= legendWidth
	}
	plotBottom := height - bottom
	// Value axes.
	valueRange := func(key string, log bool, fixed *[2]float64, zero bool) (float64, float64, bool) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range c.values {
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
		}
		if log && fixed != nil && lo <= 0 {
			// A log axis cannot start at or below zero: start where the
			// positive values do.
			lo = math.Min(hi/1000, 1)
		}
		if lo > hi || (log && hi <= 0) {
			if log {
				return 1, 10, false
			}
			return 0, 1, false
		}
		if lo == hi {
			if log {
				lo, hi = lo/10, hi*10
			} else {
				lo, hi = lo-1, hi+1
			}
		}
		if !log && fixed == nil {
			_, lo, hi = niceTicks(lo, hi, 5)
		}
		if log && fixed == nil {
			lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
		}
		return lo, hi, true
	}
	isDate := c.xType == "temporal"
	switch {
	case c.horiz:
		ys = axis{bands: cats, from: top, to: plotBottom}
		lo, hi, _ := valueRange(c.y, c.logY, c.yRange, true)
		xs = axis{lo: lo, hi: hi, log: c.logY, from: left, to: plotRight, percent: c.y == "Share"}
	case c.mark == "bar" && !c.binned:
		xs = axis{bands: cats, from: left, to: plotRight}
		lo, hi, _ := valueRange(c.y, c.logY, c.yRange, true)
		ys = axis{lo: lo, hi: hi, log: c.logY, from: plotBottom, to: top, percent: c.y == "Share"}
	default:
		if c.xType == "nominal" || c.xType == "ordinal" {
			for _, v := range c.values {
				s := fmt.Sprint(displayAny(v[c.x], c.yearX))
				if _, ok := catIndex[s]; !ok {
					catIndex[s] = len(cats)
					cats = append(cats, s)
				}
			}
			xs = axis{bands: cats, from: left, to: plotRight}
		} else {
			lo, hi, _ := valueRange(c.x, c.logX, c.xRange, false)
			if c.binned && c.histRange == nil {
				lo, hi = math.Inf(1), math.Inf(-1)
				for _, v := range c.values {
					lo = math.Min(lo, v[c.x].(float64))
					hi = math.Max(hi, v[c.x+" (end)"].(float64))
				}
			}
			if c.histRange != nil {
				lo, hi = c.histRange[0], c.histRange[1]
			}
			xs = axis{lo: lo, hi: hi, log: c.logX, from: left, to: plotRight, year: c.yearX, date: isDate}
		}
		lo, hi, _ := valueRange(c.y, c.logY, c.yRange, c.binned)
		ys = axis{lo: lo, hi: hi, log: c.logY, from: plotBottom, to: top, percent: c.y == "Share"}
	}
	var s svgBuilder
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="11">`, width, height, width, height)
	s.f(`<rect width="100%%" height="100%%" fill="white"/>`)
	if t := c.fullTitle(); t != "" {
		s.f(`<text x="%g" y="18" font-size="13" font-weight="bold">%s</text>`, left, esc(t))
	}
	// Grid, ticks and labels.
	numericTicks := func(a *axis, horizontal bool) {
		for _, v := range a.ticks() {
			p := a.pos(v)
			if horizontal {
				s.f(`<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#ddd"/>`, p, top, p, plotBottom)
				s.f(`<text x="%.1f" y="%g" text-anchor="middle">%s</text>`, p, plotBottom+15, esc(a.label(v)))
			} else {
				s.f(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#ddd"/>`, left, p, plotRight, p)
				s.f(`<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, left-5, p, esc(a.label(v)))
			}
		}
	}
	bandTicks := func(a *axis, horizontal bool) {
		step := max(1, len(a.bands)/20)
		for i, name := range a.bands {
			if i%step != 0 {
				continue
			}
			start, w := a.band(i)
			label := esc(abbreviate(name, maxCellText))
			if horizontal {
				s.f(`<text x="%.1f" y="%g" text-anchor="end" transform="rotate(-40 %.1f %g)">%s</text>`, start+w/2, plotBottom+14, start+w/2, plotBottom+14, label)
			} else {
				s.f(`<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, left-6, start+w/2, label)
			}
		}
	}
	if xs.bands != nil {
		bandTicks(&xs, true)
	} else {
		numericTicks(&xs, true)
	}
	if ys.bands != nil {
		bandTicks(&ys, false)
	} else {
		numericTicks(&ys, false)
	}
	s.f(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#888"/>`, left, plotBottom, plotRight, plotBottom)
	s.f(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#888"/>`, left, top, left, plotBottom)
	xTitle, yTitle := c.x, c.y
	if c.horiz {
		xTitle, yTitle = c.y, c.x
	}
	if c.binned {
		yTitle = "Count"
	}
	s.f(`<text x="%g" y="%g" text-anchor="middle" font-weight="bold">%s</text>`, (left+plotRight)/2, height-6, esc(xTitle))
	if !c.horiz {
		s.f(`<text x="12" y="%g" text-anchor="middle" font-weight="bold" transform="rotate(-90 12 %g)">%s</text>`, (top+plotBottom)/2, (top+plotBottom)/2, esc(yTitle))
	}
	s.f(`<clipPath id="plot"><rect x="%g" y="%g" width="%g" height="%g"/></clipPath><g clip-path="url(#plot)">`, left, top, plotRight-left, plotBottom-top)
	colorOf := func(v map[string]any) string {
		if c.color == "" {
			return palette[0]
		}
		return palette[seriesIndex[fmt.Sprint(displayAny(v[c.color], false))]%len(palette)]
	}
	// base is where a bar starts on the value axis.
	base := func(a *axis) float64 {
		if a.log {
			return a.pos(a.lo)
		}
		return a.pos(math.Max(a.lo, math.Min(0, a.hi)))
	}
	valid := func(a *axis, v float64) bool { return !a.log || v > 0 }
	switch {
	case c.binned:
		b0 := base(&ys)
		for _, v := range c.values {
			x0, x1 := xs.pos(v[c.x].(float64)), xs.pos(v[c.x+" (end)"].(float64))
			n, _ := numericValue(v["Count"])
			if !valid(&ys, n) {
				continue
			}
			y := ys.pos(n)
			s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="white" stroke-width="0.5"/>`, x0, math.Min(y, b0), math.Max(x1-x0, 0.5), math.Abs(b0-y), palette[0])
		}
	case c.mark == "bar":
		// Bars of one category share its band, side by side per series.
		nser := max(len(series), 1)
		for _, v := range c.values {
			n, ok := numericValue(v[c.y])
			if !ok || !valid(ternary(c.horiz, &xs, &ys), n) {
				continue
			}
			cat := catIndex[fmt.Sprint(displayAny(v[c.x], c.yearX))]
			k := 0
			if c.color != "" {
				k = seriesIndex[fmt.Sprint(displayAny(v[c.color], false))]
			}
			if c.horiz {
				start, w := ys.band(cat)
				bw := w * 0.8 / float64(nser)
				b0, x := base(&xs), xs.pos(n)
				s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, math.Min(x, b0), start+w*0.1+float64(k)*bw, math.Abs(x-b0), bw, colorOf(v))
			} else {
				start, w := xs.band(cat)
				bw := w * 0.8 / float64(nser)
				b0, y := base(&ys), ys.pos(n)
				s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, start+w*0.1+float64(k)*bw, math.Min(y, b0), bw, math.Abs(y-b0), colorOf(v))
			}
		}
	default:
		xpos := func(v map[string]any) (float64, bool) {
			if xs.bands != nil {
				start, w := xs.band(catIndex[fmt.Sprint(displayAny(v[c.x], c.yearX))])
				return start + w/2, true
			}
			x, ok := numericValue(v[c.x])
			return xs.pos(x), ok && valid(&xs, x)
		}
		type pt struct{ x, y float64 }
		lines := make(map[int][]pt)
		for _, v := range c.values {
			x, okx := xpos(v)
			y, oky := numericValue(v[c.y])
			if !okx || !oky || !valid(&ys, y) {
				continue
			}
			k := 0
			if c.color != "" {
				k = seriesIndex[fmt.Sprint(displayAny(v[c.color], false))]
			}
			p := pt{x, ys.pos(y)}
			if c.mark == "line" {
				lines[k] = append(lines[k], p)
				continue
			}
			s.f(`<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s" fill-opacity="0.7"/>`, p.x, p.y, colorOf(v))
		}
		keys := make([]int, 0, len(lines))
		for k := range lines {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			pts := lines[k]
			slices.SortStableFunc(pts, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
			var d strings.Builder
			for i, p := range pts {
				if i > 0 {
					d.WriteByte(' ')
				}
				fmt.Fprintf(&d, "%.1f,%.1f", p.x, p.y)
			}
			s.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, d.String(), palette[k%len(palette)])
			if len(pts) <= 100 {
				for _, p := range pts {
					s.f(`<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`, p.x, p.y, palette[k%len(palette)])
				}
			}
		}
	}
	s.f(`</g>`)
	if len(series) > 0 {
		lx := plotRight + 16
		s.f(`<text x="%g" y="%g" font-weight="bold">%s</text>`, lx, top+4, esc(c.color))
		shown := min(len(series), int((plotBottom-top-16)/16))
		for i := 0; i < shown; i++ {
			y := top + 20 + float64(i)*16
			s.f(`<rect x="%g" y="%g" width="10" height="10" fill="%s"/><text x="%g" y="%g">%s</text>`, lx, y-9, palette[i%len(palette)], lx+14, y, esc(abbreviate(series[i], 24)))
		}
		if shown < len(series) {
			s.f(`<text x="%g" y="%g">… %d more</text>`, lx, top+20+float64(shown)*16, len(series)-shown)
		}
	}
	s.f(`</svg>`)
	return s.b.String()
}

func ternary[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}
