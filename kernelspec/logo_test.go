package kernelspec

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden logos in testdata/")

func decodePNG(t *testing.T, data []byte) *image.NRGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	n := image.NewNRGBA(img.Bounds())
	draw.Draw(n, n.Bounds(), img, img.Bounds().Min, draw.Src)
	return n
}

// TestLogoPNGGolden compares the rendered logos pixel by pixel with the
// golden files (refresh with go test ./kernelspec -run Golden -update, and
// look at them).
func TestLogoPNGGolden(t *testing.T) {
	for _, name := range []string{logo32, logo64} {
		t.Run(name, func(t *testing.T) {
			size := 32
			if name == logo64 {
				size = 64
			}
			got, err := LogoPNG(size)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name)
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			g, w := decodePNG(t, got), decodePNG(t, want)
			if g.Bounds() != w.Bounds() {
				t.Fatalf("bounds %v, golden %v", g.Bounds(), w.Bounds())
			}
			if !bytes.Equal(g.Pix, w.Pix) {
				t.Errorf("%s differs from the golden file; if the change is intended, run with -update and look at the result", name)
			}
		})
	}
}

func TestLogoPNGShape(t *testing.T) {
	img := decodePNG(t, must(LogoPNG(64)))
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 {
		t.Fatalf("size %v, want 64×64", b)
	}
	checks := []struct {
		name string
		x, y int
		want func(color.NRGBA) bool
	}{
		{"corner is transparent (rounded tile)", 0, 0, func(c color.NRGBA) bool { return c.A == 0 }},
		{"tile is opaque Go blue", 60, 5, func(c color.NRGBA) bool { return c.A == 255 && c.B > 0xB0 && c.R < 0x10 }},
		{"tallest bar is white", 49, 30, func(c color.NRGBA) bool { return c == white }},
		{"axis is white", 30, 51, func(c color.NRGBA) bool { return c == white }},
		{"coin is gold", 20, 20, func(c color.NRGBA) bool { return c == gold }},
		{"coin ring is darker", 20, 15, func(c color.NRGBA) bool { return c == goldDark }},
	}
	for _, c := range checks {
		if got := img.NRGBAAt(c.x, c.y); !c.want(got) {
			t.Errorf("%s: pixel (%d,%d) = %v", c.name, c.x, c.y, got)
		}
	}
	// Edges are anti-aliased: some pixels are partly transparent.
	partial := 0
	for i := 3; i < len(img.Pix); i += 4 {
		if a := img.Pix[i]; a > 0 && a < 255 {
			partial++
		}
	}
	if partial == 0 {
		t.Error("no partially transparent pixels: edges are not anti-aliased")
	}
}

func TestLogoPNGSizes(t *testing.T) {
	for _, size := range []int{-1, 0, 4097} {
		if _, err := LogoPNG(size); err == nil {
			t.Errorf("LogoPNG(%d) succeeded, want an error", size)
		}
	}
	for _, size := range []int{1, 16, 32, 64, 128} {
		img := decodePNG(t, must(LogoPNG(size)))
		if img.Bounds().Dx() != size {
			t.Errorf("LogoPNG(%d) is %v", size, img.Bounds())
		}
	}
}

func TestLogoSVG(t *testing.T) {
	svg := LogoSVG()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var root string
	elements := map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("logo-svg.svg is not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
				if se.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root namespace %q", se.Name.Space)
				}
			}
			elements[se.Name.Local]++
		}
	}
	if root != "svg" || elements["rect"] != 6 || elements["circle"] != 3 || elements["linearGradient"] != 1 {
		t.Errorf("root %q, elements %v; want svg with 6 rects, 3 circles, 1 gradient", root, elements)
	}
	for _, c := range []string{hex(goBlueTop), hex(goBlueBottom), hex(gold), `viewBox="0 0 64 64"`, `fill="url(#tile)"`} {
		if !strings.Contains(string(svg), c) {
			t.Errorf("SVG lacks %s", c)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func BenchmarkLogoPNG64(b *testing.B) {
	for b.Loop() {
		if _, err := LogoPNG(64); err != nil {
			b.Fatal(err)
		}
	}
}
