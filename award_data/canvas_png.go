package award_data

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"sync"

	"golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/f64"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// PNGMIME is the MIME type of the raster drawing every chart's bundle
// carries (base64, as Jupyter wants images): the one picture every
// client shows, GitHub's notebook view and nbconvert's HTML exports
// (6.5 strips SVG to its text) included.
const PNGMIME = "image/png"

// goFonts parses the Go fonts (embedded, so that a chart needs no file)
// once per process: the parsed fonts are read-only; each drawing makes
// faces of its own.
var goFonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	bold, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{regular, bold}, err
})

// pngCanvas rasterises a chart's drawing: shapes with x/image/vector
// (anti-aliased), text with the Go fonts.
type pngCanvas struct {
	img   *image.RGBA
	layer *image.RGBA          // while clipping: marks go here, then into img within clipR
	clipR image.Rectangle      // the clip rectangle
	faces map[[2]int]font.Face // by size and weight
	r     *vector.Rasterizer
}

func newPNGCanvas(w, h int) *pngCanvas {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	return &pngCanvas{img: img, faces: map[[2]int]font.Face{}, r: vector.NewRasterizer(1, 1)}
}

// dst is where shapes go: the clip layer while clipping.
func (cv *pngCanvas) dst() *image.RGBA {
	if cv.layer != nil {
		return cv.layer
	}
	return cv.img
}

// parseColor reads "#rrggbb" or "white"; opacity scales its alpha.
func parseColor(s string, opacity float64) color.RGBA {
	c := color.RGBA{A: 255}
	switch {
	case s == "white":
		c = color.RGBA{255, 255, 255, 255}
	case len(s) == 7 && s[0] == '#':
		v, _ := strconv.ParseUint(s[1:], 16, 32)
		c = color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
	case len(s) == 4 && s[0] == '#': // #rgb: each digit doubled
		v, _ := strconv.ParseUint(s[1:], 16, 16)
		c = color.RGBA{uint8(v>>8&0xf) * 17, uint8(v>>4&0xf) * 17, uint8(v&0xf) * 17, 255}
	}
	if opacity > 0 && opacity < 1 {
		// Premultiplied, as image.RGBA holds colors.
		c = color.RGBA{uint8(float64(c.R) * opacity), uint8(float64(c.G) * opacity), uint8(float64(c.B) * opacity), uint8(255 * opacity)}
	}
	return c
}

// fill rasterises polygons and paints them with col. The rasteriser
// covers only the polygons' bounding box (within the image), so a small
// mark costs its own area, not the image's.
func (cv *pngCanvas) fill(col color.RGBA, polys ...[]point) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, poly := range polys {
		for _, at := range poly {
			minX, minY = math.Min(minX, at.x), math.Min(minY, at.y)
			maxX, maxY = math.Max(maxX, at.x), math.Max(maxY, at.y)
		}
	}
	if math.IsInf(minX, 0) || math.IsNaN(minX+minY+maxX+maxY) {
		return
	}
	area := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(cv.img.Bounds())
	if area.Empty() {
		return
	}
	cv.r.Reset(area.Dx(), area.Dy())
	cv.r.DrawOp = draw.Over
	ox, oy := float64(area.Min.X), float64(area.Min.Y)
	for _, poly := range polys {
		for i, at := range poly {
			x, y := float32(at.x-ox), float32(at.y-oy)
			if i == 0 {
				cv.r.MoveTo(x, y)
			} else {
				cv.r.LineTo(x, y)
			}
		}
		cv.r.ClosePath()
	}
	cv.r.Draw(cv.dst(), area, image.NewUniform(col), image.Point{})
}

func (cv *pngCanvas) rect(b box, p paint) {
	if p.fill != "" {
		cv.fill(parseColor(p.fill, p.opacity), []point{{b.x, b.y}, {b.x + b.w, b.y}, {b.x + b.w, b.y + b.h}, {b.x, b.y + b.h}})
	}
	if p.stroke != "" && p.width > 0 {
		tl, tr := point{b.x, b.y}, point{b.x + b.w, b.y}
		bl, br := point{b.x, b.y + b.h}, point{b.x + b.w, b.y + b.h}
		for _, side := range [][2]point{{tl, tr}, {tr, br}, {br, bl}, {bl, tl}} {
			cv.line(side[0], side[1], p)
		}
	}
}

func (cv *pngCanvas) line(a, b point, p paint) {
	w := p.width
	if w <= 0 {
		w = 1
	}
	if seg := segment(a, b, w); seg != nil {
		cv.fill(parseColor(p.stroke, 0), seg)
	}
}

// segment is a stroke of width w from a to b, as a rectangle; nil when a
// and b are one point.
func segment(a, b point, w float64) []point {
	dx, dy := b.x-a.x, b.y-a.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return nil
	}
	ox, oy := -dy/n*w/2, dx/n*w/2
	return []point{{a.x + ox, a.y + oy}, {b.x + ox, b.y + oy}, {b.x - ox, b.y - oy}, {a.x - ox, a.y - oy}}
}

// disc is a circle as a polygon.
func disc(c point, radius float64) []point {
	const steps = 20
	out := make([]point, steps)
	for i := range out {
		a := 2 * math.Pi * float64(i) / steps
		out[i] = point{c.x + radius*math.Cos(a), c.y + radius*math.Sin(a)}
	}
	return out
}

func (cv *pngCanvas) polyline(pts []point, p paint) {
	col := parseColor(p.stroke, 0)
	for i := 1; i < len(pts); i++ {
		if seg := segment(pts[i-1], pts[i], p.width); seg != nil {
			cv.fill(col, seg)
		}
	}
	// Round joins: a disc at each inner point.
	for i := 1; i+1 < len(pts); i++ {
		cv.fill(col, disc(pts[i], p.width/2))
	}
}

func (cv *pngCanvas) circle(c point, radius float64, p paint) {
	cv.fill(parseColor(p.fill, p.opacity), disc(c, radius))
}

// face returns the Go font at a size and weight.
func (cv *pngCanvas) face(size float64, bold bool) font.Face {
	key := [2]int{int(size * 10), int(b2f(bold))}
	if f, ok := cv.faces[key]; ok {
		return f
	}
	fonts, err := goFonts()
	if err != nil {
		return nil
	}
	f, err := opentype.NewFace(fonts[int(b2f(bold))], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil
	}
	cv.faces[key] = f
	return f
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// text draws text into a mask of its own, then composites it at its
// point: anchored, and rotated about the point when asked.
func (cv *pngCanvas) text(at point, s string, st textStyle) {
	face := cv.face(st.size, st.bold)
	if face == nil || s == "" {
		return
	}
	m := face.Metrics()
	ascent, descent := m.Ascent.Ceil(), m.Descent.Ceil()
	width := font.MeasureString(face, s).Ceil()
	mask := image.NewAlpha(image.Rect(0, 0, width+2, ascent+descent+2))
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.P(1, ascent+1)}
	d.DrawString(s)
	// The point in the mask that goes at `at`.
	ox := 1.0
	switch st.anchor {
	case anchorMiddle:
		ox += float64(width) / 2
	case anchorEnd:
		ox += float64(width)
	}
	oy := float64(ascent + 1)
	if st.middle {
		oy -= float64(m.CapHeight.Round()) / 2
	}
	src := image.NewRGBA(mask.Bounds())
	draw.DrawMask(src, src.Bounds(), image.NewUniform(color.RGBA{0x22, 0x22, 0x22, 255}), image.Point{}, mask, image.Point{}, draw.Src)
	// dst = rotation about `at` of (src - origin).
	sin, cos := math.Sincos(st.rotate * math.Pi / 180)
	aff := f64.Aff3{
		cos, -sin, at.x - cos*ox + sin*oy,
		sin, cos, at.y - sin*ox - cos*oy,
	}
	draw.BiLinear.Transform(cv.dst(), aff, src, src.Bounds(), draw.Over, nil)
}

func (cv *pngCanvas) clip(b box) {
	cv.clipR = image.Rect(int(math.Floor(b.x)), int(math.Floor(b.y)), int(math.Ceil(b.x+b.w)), int(math.Ceil(b.y+b.h)))
	cv.layer = image.NewRGBA(cv.img.Bounds())
}

func (cv *pngCanvas) unclip() {
	if cv.layer == nil {
		return
	}
	draw.Draw(cv.img, cv.clipR, cv.layer, cv.clipR.Min, draw.Over)
	cv.layer = nil
}

// png draws the laid-out chart as a PNG image.
func (p *plot) png() []byte {
	w, h := int(math.Ceil(p.width)), int(math.Ceil(p.height))
	cv := newPNGCanvas(w, h)
	p.draw(cv)
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, cv.img); err != nil {
		return nil
	}
	return b.Bytes()
}

// PNG draws the chart as a PNG image, in Go (no browser): the same
// drawing as SVG, rasterised. It is the image/png part of MIMEBundle (as
// base64), shown by every client that does not run Vega-Lite.
//
// Example:
//
//	img := award_data.ValueCounts("Phase").Bar("Phase", "Count").PNG()
func (c Chart) PNG() []byte {
	if c.err != nil {
		return nil
	}
	return c.layout().png()
}
