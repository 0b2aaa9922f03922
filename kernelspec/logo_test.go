package kernelspec

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"testing"
)

// TestLogosAreWhatJupyterExpects checks the embedded logos: PNGs of the
// sizes their names promise (Jupyter picks a logo by its name) with a
// transparent corner (the tile is rounded), and a well-formed SVG.
func TestLogosAreWhatJupyterExpects(t *testing.T) {
	files, err := logoFiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("%d logos, want 3", len(files))
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			switch f.name {
			case logo32, logo64:
				img, err := png.Decode(bytes.NewReader(f.data))
				if err != nil {
					t.Fatalf("not a PNG: %v", err)
				}
				want := map[string]int{logo32: 32, logo64: 64}[f.name]
				if b := img.Bounds(); b.Dx() != want || b.Dy() != want {
					t.Errorf("size %v, want %d×%d", b, want, want)
				}
				if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
					t.Errorf("corner alpha %d, want transparent (rounded tile)", a)
				}
				if _, _, _, a := img.At(want/2, want/8).RGBA(); a == 0 {
					t.Error("the tile's top middle is transparent; the logo is blank")
				}
			case logoSVG:
				checkSVG(t, f.data)
			default:
				t.Errorf("unexpected logo %q", f.name)
			}
		})
	}
}

func checkSVG(t *testing.T, svg []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var root xml.Name
	shapes := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root.Local == "" {
				root = se.Name
			}
			if se.Name.Local == "rect" || se.Name.Local == "circle" {
				shapes++
			}
		}
	}
	if root.Local != "svg" || root.Space != "http://www.w3.org/2000/svg" {
		t.Errorf("root element %v, want svg in the SVG namespace", root)
	}
	if shapes == 0 {
		t.Error("the SVG draws nothing")
	}
}
