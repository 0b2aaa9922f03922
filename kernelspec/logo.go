package kernelspec

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
)

// The logo is described once, as shapes on a 64×64 canvas, and rendered both
// as SVG and as PNG at any size, with 8×8 supersampling of the pixels on
// shape edges for smooth outlines:
// a Go-blue tile with a rising white bar chart and a gold coin (award
// dollars, analysed in Go).

const logoCanvas = 64

var (
	goBlueTop    = color.NRGBA{0x00, 0xAD, 0xD8, 0xFF} // Go's brand blue
	goBlueBottom = color.NRGBA{0x00, 0x7D, 0x9C, 0xFF} // a darker shade for depth
	white        = color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
	gold         = color.NRGBA{0xFD, 0xDD, 0x00, 0xFF} // Go's accent yellow
	goldDark     = color.NRGBA{0xE0, 0xA8, 0x00, 0xFF}
)

// shape is one filled figure of the logo.
type shape interface {
	contains(x, y float64) bool
	fill(y float64) color.NRGBA
	svg() string
}

// roundRect is an axis-aligned rectangle with rounded corners.
type roundRect struct {
	x0, y0, x1, y1, r float64
	col               color.NRGBA
	// gradTo, when set, makes the fill a vertical gradient from col at y0
	// to gradTo at y1.
	gradTo *color.NRGBA
	gradID string
}

func (s roundRect) contains(x, y float64) bool {
	if x < s.x0 || x > s.x1 || y < s.y0 || y > s.y1 {
		return false
	}
	// Distance from the nearest corner centre, for points in a corner box.
	cx := math.Max(s.x0+s.r, math.Min(x, s.x1-s.r))
	cy := math.Max(s.y0+s.r, math.Min(y, s.y1-s.r))
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= s.r*s.r
}

func (s roundRect) fill(y float64) color.NRGBA {
	if s.gradTo == nil {
		return s.col
	}
	t := (y - s.y0) / (s.y1 - s.y0)
	lerp := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + t*(float64(b)-float64(a)))) }
	return color.NRGBA{lerp(s.col.R, s.gradTo.R), lerp(s.col.G, s.gradTo.G), lerp(s.col.B, s.gradTo.B), 0xFF}
}

func (s roundRect) svg() string {
	fill := hex(s.col)
	if s.gradTo != nil {
		fill = "url(#" + s.gradID + ")"
	}
	return fmt.Sprintf(`<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s"/>`,
		s.x0, s.y0, s.x1-s.x0, s.y1-s.y0, s.r, fill)
}

// circle is a filled disc.
type circle struct {
	cx, cy, r float64
	col       color.NRGBA
}

func (c circle) contains(x, y float64) bool {
	dx, dy := x-c.cx, y-c.cy
	return dx*dx+dy*dy <= c.r*c.r
}

func (c circle) fill(float64) color.NRGBA { return c.col }

func (c circle) svg() string {
	return fmt.Sprintf(`<circle cx="%g" cy="%g" r="%g" fill="%s"/>`, c.cx, c.cy, c.r, hex(c.col))
}

// logoShapes lists the logo's shapes, back to front, on the 64×64 canvas.
func logoShapes() []shape {
	const baseline = 50.0
	bar := func(x, height float64) shape {
		// Bars reach below the baseline so the axis hides their lower corners.
		return roundRect{x0: x, y0: baseline - height, x1: x + 8, y1: baseline + 2, r: 2, col: white}
	}
	return []shape{
		roundRect{x0: 0, y0: 0, x1: 64, y1: 64, r: 13, col: goBlueTop, gradTo: &goBlueBottom, gradID: "tile"},
		bar(12, 12),
		bar(23, 20),
		bar(34, 29),
		bar(45, 38),
		roundRect{x0: 9, y0: 50, x1: 56, y1: 53.5, r: 1.75, col: white},
		circle{cx: 20, cy: 20, r: 8, col: gold},
		circle{cx: 20, cy: 20, r: 5.5, col: goldDark},
		circle{cx: 20, cy: 20, r: 4, col: gold},
	}
}

// LogoPNG renders the logo as a size×size PNG (Jupyter uses 32 and 64).
func LogoPNG(size int) ([]byte, error) {
	if size < 1 || size > 4096 {
		return nil, fmt.Errorf("logo size %d out of range 1..4096", size)
	}
	const ss = 8 // samples per pixel along each axis, on edges
	shapes := logoShapes()
	top := func(x, y float64) int { // index of the front shape at (x, y), -1 for none
		for i := len(shapes) - 1; i >= 0; i-- {
			if shapes[i].contains(x, y) {
				return i
			}
		}
		return -1
	}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	scale := float64(logoCanvas) / float64(size)
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			x0, y0 := float64(px)*scale, float64(py)*scale
			cy := y0 + scale/2
			// Inside one shape (corners and centre agree): one colour.
			i := top(x0+scale/2, cy)
			if i == top(x0, y0) && i == top(x0+scale, y0) && i == top(x0, y0+scale) && i == top(x0+scale, y0+scale) {
				if i >= 0 {
					img.SetNRGBA(px, py, shapes[i].fill(cy))
				}
				continue
			}
			// On an edge: average the premultiplied colour of sub-samples.
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				y := y0 + (float64(sy)+0.5)/ss*scale
				for sx := 0; sx < ss; sx++ {
					if j := top(x0+(float64(sx)+0.5)/ss*scale, y); j >= 0 {
						c := shapes[j].fill(y)
						r += float64(c.R)
						g += float64(c.G)
						b += float64(c.B)
						a += 255
					}
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{
				R: uint8(math.Round(r * 255 / a)),
				G: uint8(math.Round(g * 255 / a)),
				B: uint8(math.Round(b * 255 / a)),
				A: uint8(math.Round(a / (ss * ss))),
			})
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode %d×%d logo: %w", size, size, err)
	}
	return buf.Bytes(), nil
}

// LogoSVG returns the logo as a scalable SVG document.
func LogoSVG() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n",
		logoCanvas, logoCanvas, logoCanvas, logoCanvas)
	b.WriteString("<title>sbir-kernel: Go for SBIR awards</title>\n")
	b.WriteString("<defs>\n")
	for _, s := range logoShapes() {
		if rr, ok := s.(roundRect); ok && rr.gradTo != nil {
			fmt.Fprintf(&b, `<linearGradient id="%s" x1="0" y1="0" x2="0" y2="1">`+
				`<stop offset="0" stop-color="%s"/><stop offset="1" stop-color="%s"/></linearGradient>`+"\n",
				rr.gradID, hex(rr.col), hex(*rr.gradTo))
		}
	}
	b.WriteString("</defs>\n")
	for _, s := range logoShapes() {
		b.WriteString(s.svg())
		b.WriteByte('\n')
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func hex(c color.NRGBA) string {
	return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B)
}
