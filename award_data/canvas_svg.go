package award_data

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// SVGMIME is the MIME type of Chart.SVG's drawing, for display.SVG or a
// bundle of your own (a chart's bundle carries the PNG instead: see
// Chart.MIMEBundle).
const SVGMIME = "image/svg+xml"

// svgCanvas writes a chart's drawing as SVG elements.
type svgCanvas struct{ b strings.Builder }

// num formats a coordinate to a tenth of a pixel, without trailing zeros.
func svgNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return strconv.FormatFloat(float64(int64(v*10+0.5*sign(v)))/10, 'f', -1, 64)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func (p paint) attrs() string {
	var b strings.Builder
	fill := p.fill
	if fill == "" {
		fill = "none"
	}
	b.WriteString(` fill="` + fill + `"`)
	if p.opacity != 0 && p.opacity != 1 {
		b.WriteString(` fill-opacity="` + svgNum(p.opacity) + `"`)
	}
	if p.stroke != "" {
		b.WriteString(` stroke="` + p.stroke + `"`)
		if p.width != 1 {
			b.WriteString(` stroke-width="` + svgNum(p.width) + `"`)
		}
	}
	return b.String()
}

func (s *svgCanvas) rect(r box, p paint) {
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s"%s/>`, svgNum(r.x), svgNum(r.y), svgNum(r.w), svgNum(r.h), p.attrs())
}

func (s *svgCanvas) line(a, b point, p paint) {
	fmt.Fprintf(&s.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, svgNum(a.x), svgNum(a.y), svgNum(b.x), svgNum(b.y), p.stroke)
}

func (s *svgCanvas) polyline(pts []point, p paint) {
	var d strings.Builder
	for i, at := range pts {
		if i > 0 {
			d.WriteByte(' ')
		}
		d.WriteString(svgNum(at.x) + "," + svgNum(at.y))
	}
	fmt.Fprintf(&s.b, `<polyline points="%s"%s/>`, d.String(), p.attrs())
}

func (s *svgCanvas) circle(c point, r float64, p paint) {
	fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s"%s/>`, svgNum(c.x), svgNum(c.y), svgNum(r), p.attrs())
}

func (s *svgCanvas) text(at point, text string, st textStyle) {
	fmt.Fprintf(&s.b, `<text x="%s" y="%s"`, svgNum(at.x), svgNum(at.y))
	if st.size != fontSize {
		fmt.Fprintf(&s.b, ` font-size="%s"`, svgNum(st.size))
	}
	if st.bold {
		s.b.WriteString(` font-weight="bold"`)
	}
	switch st.anchor {
	case anchorMiddle:
		s.b.WriteString(` text-anchor="middle"`)
	case anchorEnd:
		s.b.WriteString(` text-anchor="end"`)
	}
	if st.middle {
		s.b.WriteString(` dominant-baseline="middle"`)
	}
	if st.rotate != 0 {
		fmt.Fprintf(&s.b, ` transform="rotate(%s %s %s)"`, svgNum(st.rotate), svgNum(at.x), svgNum(at.y))
	}
	s.b.WriteString(">" + html.EscapeString(text) + "</text>")
}

func (s *svgCanvas) clip(r box) {
	fmt.Fprintf(&s.b, `<clipPath id="plot"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath><g clip-path="url(#plot)">`, svgNum(r.x), svgNum(r.y), svgNum(r.w), svgNum(r.h))
}

func (s *svgCanvas) unclip() { s.b.WriteString(`</g>`) }

// svg draws the laid-out chart as an SVG document.
func (p *plot) svg() string {
	var s svgCanvas
	w, h := svgNum(p.width), svgNum(p.height)
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%s">`, w, h, w, h, svgNum(fontSize))
	p.draw(&s)
	s.b.WriteString(`</svg>`)
	return s.b.String()
}

// SVG draws the chart as a standalone SVG image, in Go, with no
// JavaScript: axes with ticks, the marks, a legend for Color and the
// title, as PNG does in pixels. display.SVG(c.SVG()) shows it.
//
// Example:
//
//	svg := award_data.ValueCounts("Phase").Bar("Phase", "Count").SVG()
func (c Chart) SVG() string {
	if c.err != nil {
		return ""
	}
	return c.layout().svg()
}
