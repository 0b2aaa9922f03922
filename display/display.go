package display

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"image/png"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/sbirtools/sbir-kernel/internal/wrapped"
)

// A Message is one output for the kernel: a MIME bundle to display or
// update, or a request to clear the cell's output.
//
// Data maps MIME types to content. Text types ("text/plain", "text/html",
// "text/markdown", "image/svg+xml") and base64-encoded images
// ("image/png") are strings; JSON types ("application/json" and every
// "…+json" type such as "application/vnd.vegalite.v5+json") are
// json.RawMessage holding valid JSON. Data always has "text/plain" unless
// Clear is set.
//
// Example (a sink in the kernel's worker):
//
//	display.SetSink(func(m display.Message) {
//		if m.Clear {
//			clearOutput(m.Wait)
//			return
//		}
//		send(m.Data, m.Metadata, m.DisplayID, m.Update)
//	})
type Message struct {
	Data      map[string]any
	Metadata  map[string]any
	DisplayID string // non-empty for outputs shown through a Handle
	Update    bool   // replace the output named DisplayID (update_display_data)
	Clear     bool   // clear the cell's output (clear_output); Data is nil
	Wait      bool   // with Clear: clear only when the next output arrives
}

var sink atomic.Pointer[func(Message)]

// SetSink installs the function that receives every Message; nil discards
// them. The kernel's worker calls it before running cells; cells cannot
// call it. The sink is called synchronously on the cell's goroutine.
//
// Example:
//
//	display.SetSink(func(m display.Message) { log.Println(m.Data["text/plain"]) })
func SetSink(f func(Message)) {
	if f == nil {
		sink.Store(nil)
		return
	}
	sink.Store(&f)
}

func emit(m Message) {
	if f := sink.Load(); f != nil {
		(*f)(m)
	}
}

// A Bundler is a value that knows how to show itself: award_data.Frame
// and award_data.Chart are Bundlers. MIMEBundle returns MIME type →
// content, following the conventions of Message.Data, with "text/plain"
// always present.
//
// Example:
//
//	type Money float64
//
//	func (m Money) MIMEBundle() map[string]any {
//		return map[string]any{"text/plain": fmt.Sprintf("$%.2f", float64(m)), "text/html": fmt.Sprintf("<b>$%.2f</b>", float64(m))}
//	}
type Bundler interface {
	MIMEBundle() map[string]any
}

// Show displays v: through its MIMEBundle method when it has one, else as
// the text fmt.Sprint(v) prints.
//
// Example:
//
//	display.Show(award_data.GroupBy("Agency").Sum("Award Amount"))
func Show(v any) { emit(Message{Data: bundleOf(v)}) }

func bundleOf(v any) map[string]any {
	if b, ok := v.(Bundler); ok {
		if m := b.MIMEBundle(); m != nil {
			out := make(map[string]any, len(m)+1)
			for k, x := range m {
				out[k] = x
			}
			if _, ok := out["text/plain"]; !ok {
				out["text/plain"] = plainText(v)
			}
			return out
		}
	}
	return map[string]any{"text/plain": plainText(v)}
}

// plainText is v as fmt prints it; a cell's own type arrives wrapped by
// the interpreter, whose wrapper fmt would print (see package wrapped).
func plainText(v any) string { return fmt.Sprint(wrapped.Printable(v)) }

// HTML displays an HTML fragment. Its plain-text fallback is the text of
// the fragment without tags.
//
// Example:
//
//	display.HTML("<b>219,500</b> awards")
func HTML(fragment string) { emit(Message{Data: htmlBundle(fragment)}) }

func htmlBundle(fragment string) map[string]any {
	return map[string]any{"text/html": fragment, "text/plain": htmlText(fragment)}
}

var (
	tagRE   = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>|<[^>]*>`)
	spaceRE = regexp.MustCompile(`[ \t]+`)
)

// htmlText is a readable plain-text rendering of an HTML fragment.
func htmlText(fragment string) string {
	s := tagRE.ReplaceAllString(fragment, "")
	s = html.UnescapeString(s)
	s = spaceRE.ReplaceAllString(s, " ")
	return strings.TrimSpace(s)
}

// Markdown displays Markdown text (JupyterLab renders it; other clients
// show the text itself).
//
// Example:
//
//	display.Markdown("**Top agency:** Department of Defense")
func Markdown(text string) { emit(Message{Data: markdownBundle(text)}) }

func markdownBundle(text string) map[string]any {
	return map[string]any{"text/markdown": text, "text/plain": text}
}

// JSON displays v as JSON (an interactive tree in JupyterLab, indented
// text elsewhere). v is marshalled with encoding/json; a json.RawMessage
// is shown as it is. JSON panics when v cannot be marshalled or a
// RawMessage is not valid JSON.
//
// Example:
//
//	display.JSON(map[string]int{"Phase I": 151000, "Phase II": 68500})
func JSON(v any) { emit(Message{Data: mustBundle(jsonBundle("application/json", v, "JSON"))}) }

// VegaLite displays a Vega-Lite v5 chart specification: a JSON object
// given as a Go value (e.g. a map) or a json.RawMessage. JupyterLab draws
// it; other clients show a one-line description. Charts made by
// award_data (Frame.Bar, ...) are shown with Show or as a cell's last
// expression. VegaLite panics when spec is not a JSON object or has no
// "mark" or "layer"-like view ("mark", "layer", "concat", "hconcat",
// "vconcat", "facet", "repeat").
//
// Example:
//
//	display.VegaLite(map[string]any{
//		"data":     map[string]any{"values": []map[string]any{{"x": 1, "y": 2}, {"x": 2, "y": 3}}},
//		"mark":     "line",
//		"encoding": map[string]any{"x": map[string]any{"field": "x"}, "y": map[string]any{"field": "y"}},
//	})
func VegaLite(spec any) { emit(Message{Data: mustBundle(vegaLiteBundle(spec))}) }

// VegaLiteMIME is the MIME type of Vega-Lite v5 specifications.
const VegaLiteMIME = "application/vnd.vegalite.v5+json"

func vegaLiteBundle(spec any) (map[string]any, error) {
	raw, err := toJSON(spec, "VegaLite")
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, errors.New("display: VegaLite: the spec must be a JSON object")
	}
	views := []string{"mark", "layer", "concat", "hconcat", "vconcat", "facet", "repeat"}
	found := false
	for _, k := range views {
		if _, ok := obj[k]; ok {
			found = true
		}
	}
	if !found {
		return nil, errors.New(`display: VegaLite: the spec has no "mark" (or layer, concat, facet, repeat); see https://vega.github.io/vega-lite/docs/spec.html`)
	}
	if _, ok := obj["$schema"]; !ok {
		obj["$schema"] = "https://vega.github.io/schema/vega-lite/v5.json"
		raw, _ = json.Marshal(obj)
	}
	title := "chart"
	if t, ok := obj["title"].(string); ok && t != "" {
		title = fmt.Sprintf("chart %q", t)
	}
	mark := ""
	switch m := obj["mark"].(type) {
	case string:
		mark = m + " "
	case map[string]any:
		if t, ok := m["type"].(string); ok {
			mark = t + " "
		}
	}
	plain := fmt.Sprintf("<Vega-Lite %s%s: open in JupyterLab to see it>", mark, title)
	return map[string]any{VegaLiteMIME: json.RawMessage(raw), "text/plain": plain}, nil
}

func jsonBundle(mime string, v any, op string) (map[string]any, error) {
	raw, err := toJSON(v, op)
	if err != nil {
		return nil, err
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("display: %s: %w", op, err)
	}
	return map[string]any{mime: json.RawMessage(raw), "text/plain": indented.String()}, nil
}

func toJSON(v any, op string) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		if !json.Valid(raw) {
			return nil, fmt.Errorf("display: %s: the json.RawMessage is not valid JSON", op)
		}
		return append(json.RawMessage(nil), raw...), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("display: %s: %w", op, err)
	}
	return raw, nil
}

// PNG displays a PNG image given as its file bytes. The plain-text
// fallback names the image's size. PNG panics when data is not a PNG.
//
// Example:
//
//	display.PNG(pngBytes) // pngBytes from image/png.Encode into a bytes.Buffer
func PNG(data []byte) { emit(Message{Data: mustBundle(pngBundle(data))}) }

func pngBundle(data []byte) (map[string]any, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("display: PNG: the data is not a PNG image: %w", err)
	}
	return map[string]any{
		"image/png":  base64.StdEncoding.EncodeToString(data),
		"text/plain": fmt.Sprintf("<PNG image %d×%d>", cfg.Width, cfg.Height),
	}, nil
}

// SVG displays an SVG image given as its XML text. SVG panics when the
// text has no <svg> element.
//
// Example:
//
//	display.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="8"/></svg>`)
func SVG(markup string) { emit(Message{Data: mustBundle(svgBundle(markup))}) }

func svgBundle(markup string) (map[string]any, error) {
	if !strings.Contains(markup, "<svg") {
		return nil, errors.New("display: SVG: the text has no <svg> element")
	}
	return map[string]any{"image/svg+xml": markup, "text/plain": "<SVG image>"}, nil
}

func mustBundle(b map[string]any, err error) map[string]any {
	if err != nil {
		panic(err)
	}
	return b
}

// Clear clears the cell's output so far. With wait, the output is cleared
// only when the next output arrives, which avoids flicker when redrawing.
//
// Example:
//
//	display.Clear(true)
//	display.Markdown("fresh output")
func Clear(wait bool) { emit(Message{Clear: true, Wait: wait}) }

// A Handle names one output so that it can be replaced in place. The
// first call of a show method displays the output; every later call
// replaces it (update_display_data), in this cell or a later one.
//
// Example:
//
//	h := display.NewHandle("")
//	h.Markdown("working...")
//	h.Markdown("done")
type Handle struct {
	id    string
	shown atomic.Bool
}

// NewHandle returns a Handle for the display id; an empty id gets a
// random one. Two Handles with the same id update the same output.
//
// Example:
//
//	progress := display.NewHandle("progress")
func NewHandle(id string) *Handle {
	if id == "" {
		id = fmt.Sprintf("%016x%016x", rand.Uint64(), rand.Uint64())
	}
	return &Handle{id: id}
}

// ID returns the handle's display id.
//
// Example:
//
//	fmt.Println(display.NewHandle("progress").ID()) // progress
func (h *Handle) ID() string { return h.id }

func (h *Handle) emit(data map[string]any) {
	update := h.shown.Swap(true)
	emit(Message{Data: data, DisplayID: h.id, Update: update})
}

// Show displays v (see the package-level Show) or replaces the output.
//
// Example:
//
//	h := display.NewHandle("")
//	h.Show(award_data.Head(3))
func (h *Handle) Show(v any) { h.emit(bundleOf(v)) }

// HTML displays an HTML fragment or replaces the output with it.
//
// Example:
//
//	h := display.NewHandle("")
//	h.HTML("<progress value='30' max='100'></progress>")
func (h *Handle) HTML(fragment string) { h.emit(htmlBundle(fragment)) }

// Markdown displays Markdown or replaces the output with it.
//
// Example:
//
//	h := display.NewHandle("")
//	h.Markdown("*50%* done")
func (h *Handle) Markdown(text string) { h.emit(markdownBundle(text)) }

// JSON displays v as JSON or replaces the output with it (see JSON).
//
// Example:
//
//	h := display.NewHandle("")
//	h.JSON(map[string]int{"rows": 10})
func (h *Handle) JSON(v any) { h.emit(mustBundle(jsonBundle("application/json", v, "JSON"))) }

// VegaLite displays a Vega-Lite spec or replaces the output with it (see
// VegaLite).
//
// Example:
//
//	h := display.NewHandle("")
//	h.VegaLite(spec)
func (h *Handle) VegaLite(spec any) { h.emit(mustBundle(vegaLiteBundle(spec))) }

// PNG displays a PNG image or replaces the output with it (see PNG).
//
// Example:
//
//	h := display.NewHandle("")
//	h.PNG(pngBytes)
func (h *Handle) PNG(data []byte) { h.emit(mustBundle(pngBundle(data))) }

// SVG displays an SVG image or replaces the output with it (see SVG).
//
// Example:
//
//	h := display.NewHandle("")
//	h.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`)
func (h *Handle) SVG(markup string) { h.emit(mustBundle(svgBundle(markup))) }
