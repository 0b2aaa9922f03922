package display

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"
)

// capture installs a sink that records messages for the test.
func capture(t *testing.T) *[]Message {
	t.Helper()
	var msgs []Message
	SetSink(func(m Message) { msgs = append(msgs, m) })
	t.Cleanup(func() { SetSink(nil) })
	return &msgs
}

type bundler struct{ m map[string]any }

func (b bundler) MIMEBundle() map[string]any { return b.m }
func (b bundler) String() string             { return "bundler" }

func pngBytes(t *testing.T, w, h int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBundles(t *testing.T) {
	msgs := capture(t)
	img := pngBytes(t, 3, 2)
	HTML("<p>Total: <b>219,500</b> &amp; more</p><script>x()</script>")
	Markdown("**bold**")
	JSON(map[string]int{"a": 1})
	JSON(json.RawMessage(`[1, 2]`))
	VegaLite(map[string]any{"mark": "bar", "title": "T"})
	PNG(img)
	SVG(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	Show(bundler{map[string]any{"text/html": "<i>x</i>"}})
	Show(42)
	want := []map[string]any{
		{"text/html": "<p>Total: <b>219,500</b> &amp; more</p><script>x()</script>", "text/plain": "Total: 219,500 & more"},
		{"text/markdown": "**bold**", "text/plain": "**bold**"},
		{"application/json": `{"a":1}`, "text/plain": "{\n  \"a\": 1\n}"},
		{"application/json": `[1, 2]`, "text/plain": "[\n  1,\n  2\n]"},
		{VegaLiteMIME: `{"$schema":"https://vega.github.io/schema/vega-lite/v5.json","mark":"bar","title":"T"}`, "text/plain": `<Vega-Lite bar chart "T": open in JupyterLab to see it>`},
		{"image/png": "", "text/plain": "<PNG image 3×2>"},
		{"image/svg+xml": `<svg xmlns="http://www.w3.org/2000/svg"/>`, "text/plain": "<SVG image>"},
		{"text/html": "<i>x</i>", "text/plain": "bundler"},
		{"text/plain": "42"},
	}
	if len(*msgs) != len(want) {
		t.Fatalf("%d messages, want %d", len(*msgs), len(want))
	}
	for i, m := range *msgs {
		if m.DisplayID != "" || m.Update || m.Clear {
			t.Errorf("message %d: unexpected flags %+v", i, m)
		}
		if len(m.Data) != len(want[i]) {
			t.Errorf("message %d: MIME types %v, want %v", i, keys(m.Data), keys(want[i]))
		}
		for mime, w := range want[i] {
			got := m.Data[mime]
			switch g := got.(type) {
			case json.RawMessage:
				got = string(g)
			case string:
			default:
				t.Errorf("message %d %s: value of type %T", i, mime, got)
			}
			if mime == "image/png" {
				continue
			}
			if got != w {
				t.Errorf("message %d %s = %q, want %q", i, mime, got, w)
			}
		}
	}
	if (*msgs)[5].Data["image/png"] == "" {
		t.Error("empty PNG data")
	}
	// Every message must survive encoding/json, as the worker sends it.
	for i, m := range *msgs {
		if _, err := json.Marshal(m); err != nil {
			t.Errorf("message %d does not marshal: %v", i, err)
		}
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestHandleAndClear(t *testing.T) {
	msgs := capture(t)
	h := NewHandle("")
	if len(h.ID()) != 32 {
		t.Errorf("generated id %q", h.ID())
	}
	h.Markdown("1")
	h.Markdown("2")
	h2 := NewHandle("fixed")
	h2.JSON([]int{1})
	h2.Show(7)
	Clear(false)
	Clear(true)
	m := *msgs
	if len(m) != 6 {
		t.Fatalf("%d messages", len(m))
	}
	if m[0].DisplayID != h.ID() || m[0].Update || m[1].DisplayID != h.ID() || !m[1].Update || m[1].Data["text/plain"] != "2" {
		t.Errorf("first handle: %+v / %+v", m[0], m[1])
	}
	if m[2].DisplayID != "fixed" || m[2].Update || !m[3].Update || m[3].Data["text/plain"] != "7" {
		t.Errorf("second handle: %+v / %+v", m[2], m[3])
	}
	if !m[4].Clear || m[4].Wait || !m[5].Clear || !m[5].Wait || m[5].Data != nil {
		t.Errorf("clear: %+v / %+v", m[4], m[5])
	}
	if a, b := NewHandle("").ID(), NewHandle("").ID(); a == b {
		t.Error("two random ids are equal")
	}
}

func TestBadInputPanics(t *testing.T) {
	msgs := capture(t)
	tests := []struct {
		call func()
		want string
	}{
		{func() { PNG([]byte("GIF89a")) }, "display: PNG: the data is not a PNG image"},
		{func() { JSON(func() {}) }, "display: JSON: json: unsupported type: func()"},
		{func() { JSON(json.RawMessage(`{`)) }, "display: JSON: the json.RawMessage is not valid JSON"},
		{func() { VegaLite([]int{1}) }, "display: VegaLite: the spec must be a JSON object"},
		{func() { VegaLite(map[string]any{"data": 1}) }, `display: VegaLite: the spec has no "mark"`},
		{func() { SVG("<p>no</p>") }, "display: SVG: the text has no <svg> element"},
		{func() { NewHandle("x").PNG(nil) }, "display: PNG: the data is not a PNG image"},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				err, ok := recover().(error)
				if !ok || !strings.HasPrefix(err.Error(), tt.want) {
					t.Errorf("panic %v, want prefix %q", err, tt.want)
				}
			}()
			tt.call()
		}()
	}
	if len(*msgs) != 0 {
		t.Errorf("bad input produced %d messages", len(*msgs))
	}
}

func TestNoSink(t *testing.T) {
	SetSink(nil)
	Markdown("dropped") // must not panic
}
