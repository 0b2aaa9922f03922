package worker

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// valuesBundle renders values unless there is nothing worth showing (no
// values, or only nils such as a nil error).
func valuesBundle(vals []any) map[string]any {
	allNil := true
	for _, x := range vals {
		if x != nil {
			allNil = false
		}
	}
	if len(vals) == 0 || allNil {
		return nil
	}
	return renderValues(vals)
}

// maxRenderElems bounds how many elements of a slice or map are rendered.
const maxRenderElems = 100

// maxRenderBytes bounds text/plain of a value.
const maxRenderBytes = 64 << 10

// renderValues returns the MIME bundle of the last expression's values.
func renderValues(vals []any) map[string]any {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = renderPlain(v)
	}
	text := strings.Join(parts, " ")
	if len(text) > maxRenderBytes {
		text = text[:maxRenderBytes] + " …"
	}
	bundle := map[string]any{"text/plain": text}
	if len(vals) == 1 {
		addRich(bundle, vals[0])
	}
	return bundle
}

// addRich adds the richer MIME types a value offers.
func addRich(bundle map[string]any, v any) {
	if m, ok := v.(interface{ MIMEBundle() map[string]any }); ok {
		for k, x := range m.MIMEBundle() {
			bundle[k] = x
		}
		return
	}
	if h, ok := v.(interface{ HTML() string }); ok {
		bundle["text/html"] = h.HTML()
	}
	if h, ok := v.(interface{ Markdown() string }); ok {
		bundle["text/markdown"] = h.Markdown()
	}
}

// renderPlain formats one value for text/plain: strings quoted, errors and
// Stringers as text, big slices and maps shortened.
func renderPlain(v any) string {
	switch x := v.(type) {
	case nil:
		return "<nil>"
	case string:
		if len(x) > maxRenderBytes {
			return strconv.Quote(x[:maxRenderBytes]) + "…"
		}
		return strconv.Quote(x)
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Len() > maxRenderElems {
			head := rv.Slice(0, maxRenderElems)
			if rv.Kind() == reflect.Array {
				head = reflect.Value{}
			}
			if head.IsValid() {
				s := fmt.Sprintf("%v", head.Interface())
				return strings.TrimSuffix(s, "]") + fmt.Sprintf(" … (%d more; %d in all)]", rv.Len()-maxRenderElems, rv.Len())
			}
			return fmt.Sprintf("[%d elements of %s]", rv.Len(), rv.Type().Elem())
		}
	case reflect.Map:
		if rv.Len() > maxRenderElems {
			return fmt.Sprintf("map of %d entries (%s)", rv.Len(), rv.Type())
		}
	}
	return fmt.Sprintf("%v", v)
}
