package award_data

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// TestChartPNG checks that every kind of chart draws a PNG of its size in
// its colors, and that the bundle carries it as base64.
func TestChartPNG(t *testing.T) {
	loadFixture(t)
	for name, c := range map[string]Chart{
		"bar":       GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount").Bar("Agency", "Award Amount"),
		"bar years": GroupBy("Award Year").Count().Bar("Award Year", "Count"),
		"histogram": Histogram("Award Amount", 8),
		"line":      GroupBy("Award Year", "Phase").Sum("Award Amount").Line("Award Year", "Award Amount").Color("Phase"),
		"scatter":   Scatter("Number Employees", "Award Amount").LogX(),
	} {
		data := c.PNG()
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: the PNG does not decode: %v", name, err)
		}
		p := c.layout()
		if b := img.Bounds(); b.Dx() != int(p.width) || b.Dy() != int(p.height) {
			t.Errorf("%s: %v, want %v × %v", name, b, p.width, p.height)
		}
		if n := countBlue(img); n < 50 {
			t.Errorf("%s: %d pixels in the first series' blue (%s); the marks are missing", name, n, palette[0])
		}
		if dark := countDark(img); dark < 100 {
			t.Errorf("%s: %d dark pixels; the text is missing", name, dark)
		}
		if got, _ := c.MIMEBundle()[PNGMIME].(string); got != base64.StdEncoding.EncodeToString(data) {
			t.Errorf("%s: the bundle's image/png is not the PNG in base64", name)
		}
	}
}

// countBlue counts the pixels of the first series' blue (#4c78a8),
// plain or blended with white (a scatter's translucent points).
func countBlue(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if int(c.B) > int(c.R)+40 && int(c.B) > int(c.G)+20 {
				n++
			}
		}
	}
	return n
}

// countDark counts nearly black pixels (text).
func countDark(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0x5000 && g < 0x5000 && bl < 0x5000 {
				n++
			}
		}
	}
	return n
}

// TestLogAxisRule checks the one rule for values at or below zero on a
// log axis: Vega-Lite's data, the SVG and the PNG leave the same rows out,
// and the title says how many.
func TestLogAxisRule(t *testing.T) {
	f := NewFrame(Col("Year", []int{2019, 2020, 2021, 2022}), Col("Dollars", []float64{0, 100, -5, 1000}))
	c := f.Line("Year", "Dollars").LogY()
	var spec struct {
		Title string
		Data  struct{ Values []map[string]any }
	}
	if err := json.Unmarshal([]byte(c.Spec()), &spec); err != nil {
		t.Fatal(err)
	}
	if len(spec.Data.Values) != 2 {
		t.Errorf("Vega-Lite gets %d values, want the 2 above zero: %v", len(spec.Data.Values), spec.Data.Values)
	}
	const note = "2 rows at or below 0 left out of the log axis"
	if !strings.Contains(spec.Title, note) || !strings.Contains(c.String(), note) || !strings.Contains(c.SVG(), note) {
		t.Errorf("the title does not say %q: spec %q, text %q", note, spec.Title, c.String())
	}
	if n := strings.Count(c.SVG(), "<circle"); n != 2 {
		t.Errorf("the SVG draws %d points, want 2", n)
	}
	if d := f.Line("Year", "Dollars").Spec(); !strings.Contains(d, "-5") {
		t.Errorf("without LogY every value is drawn: %s", d)
	}
}
