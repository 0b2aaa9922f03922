// Package valuefmt formats the value of a cell's last expression as a
// MIME bundle: text/plain as fmt's %v, bounded in size and depth (strings
// quoted, long slices and maps shortened, huge math/big numbers named
// rather than printed), plus the richer types a value offers through its
// MIMEBundle, HTML or Markdown method. The interpreter's worker and a
// compiled cell's runtime both use it, so that a value shows the same
// whichever ran the cell. It calls the value's methods: callers that run
// untrusted methods bound the call themselves.
package valuefmt

import (
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
	"github.com/sbirtools/sbir-kernel/internal/wrapped"
)

// maxRenderElems bounds how many elements of a slice or map are rendered.
const maxRenderElems = 100

// MaxBytes bounds text/plain of a value.
const MaxBytes = 64 << 10

// maxRenderDepth bounds how deeply nested values are followed: a slice
// that contains itself must not recurse until the stack overflows.
const maxRenderDepth = 64

// maxBigBits is the largest math/big number formatted in full; converting
// a larger one to decimal takes longer than the render deadline.
const maxBigBits = 1 << 20

// Bundle renders values unless there is nothing worth showing (no
// values, or only nils such as a nil error).
func Bundle(vals []any) map[string]any {
	allNil := true
	for _, x := range vals {
		if x != nil {
			allNil = false
		}
	}
	if len(vals) == 0 || allNil {
		return nil
	}
	return bundleOf(vals)
}

// bundleOf returns the MIME bundle of the last expression's values.
func bundleOf(vals []any) map[string]any {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = Plain(v)
	}
	text := strings.Join(parts, " ")
	if len(text) > MaxBytes {
		text = textcut.Prefix(text, MaxBytes) + " …"
	}
	bundle := map[string]any{"text/plain": text}
	if len(vals) == 1 {
		addRich(bundle, vals[0])
	}
	return bundle
}

// addRich adds the richer MIME types a value offers. A method that panics
// adds nothing.
func addRich(bundle map[string]any, v any) {
	defer func() { _ = recover() }()
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

// Plain formats one value for text/plain: strings quoted, errors and
// Stringers as text, big slices and maps shortened, and everything bounded
// in size. Methods are called through fmt, which recovers their panics
// (a nil receiver shows as <nil>).
func Plain(v any) string {
	// A cell's own type arrives wrapped by the interpreter with its display
	// methods (see package wrapped).
	v = wrapped.Printable(v)
	switch x := v.(type) {
	case nil:
		return "<nil>"
	case string:
		if len(x) > MaxBytes {
			return strconv.Quote(x[:MaxBytes]) + "…"
		}
		return strconv.Quote(x)
	case *big.Int:
		if x != nil && x.BitLen() > maxBigBits {
			return fmt.Sprintf("<a %d-bit big.Int, too large to show>", x.BitLen())
		}
	case *big.Rat:
		if x != nil && x.Num().BitLen()+x.Denom().BitLen() > maxBigBits {
			return fmt.Sprintf("<a big.Rat of %d bits, too large to show>", x.Num().BitLen()+x.Denom().BitLen())
		}
	case error, fmt.Stringer:
		return textcut.Prefix(fmt.Sprint(x), MaxBytes+1)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Len() > maxRenderElems {
			if rv.Kind() == reflect.Array {
				return fmt.Sprintf("[%d elements of %s]", rv.Len(), rv.Type().Elem())
			}
			s := boundedSprint(rv.Slice(0, maxRenderElems))
			return strings.TrimSuffix(s, "]") + fmt.Sprintf(" … (%d more; %d in all)]", rv.Len()-maxRenderElems, rv.Len())
		}
	case reflect.Map:
		if rv.Len() > maxRenderElems {
			return fmt.Sprintf("map of %d entries (%s)", rv.Len(), rv.Type())
		}
	}
	return boundedSprint(rv)
}

// boundedSprint formats v as %v does when the result is small, and with a
// bounded walk of its own otherwise (fmt builds the whole text first, so a
// value holding a million strings would cost its full size).
func boundedSprint(v reflect.Value) string {
	budget := MaxBytes
	if fits(v, 0, &budget) {
		if !v.CanInterface() {
			return "?"
		}
		return fmt.Sprintf("%v", v.Interface())
	}
	w := &limitedText{max: MaxBytes}
	writeValue(w, v, 0)
	return w.String()
}

// methodCost is what a value with a String or Error method is assumed to
// print when estimating a value's size.
const methodCost = 64

// fits reports whether %v of v stays within *budget bytes, spending it.
// Nothing is formatted and no method is called.
func fits(v reflect.Value, depth int, budget *int) bool {
	if *budget < 0 || depth > maxRenderDepth {
		return false
	}
	if !v.IsValid() {
		*budget -= 5
		return *budget >= 0
	}
	if depth > 0 && v.CanInterface() && hasMethods(v.Type()) {
		*budget -= methodCost
		return *budget >= 0
	}
	switch v.Kind() {
	case reflect.String:
		*budget -= v.Len()
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() {
			switch v.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				*budget--
				return fits(v.Elem(), depth+1, budget)
			}
		}
		*budget -= 14
	case reflect.Interface:
		if v.IsNil() {
			*budget -= 5
		} else {
			return fits(v.Elem(), depth+1, budget)
		}
	case reflect.Slice, reflect.Array:
		*budget -= 2
		for i := 0; i < v.Len() && *budget >= 0; i++ {
			*budget--
			if !fits(v.Index(i), depth+1, budget) {
				return false
			}
		}
	case reflect.Map:
		*budget -= 5
		if v.Len() > maxRenderElems {
			return false
		}
		it := v.MapRange()
		for it.Next() && *budget >= 0 {
			*budget -= 2
			if !fits(it.Key(), depth+1, budget) || !fits(it.Value(), depth+1, budget) {
				return false
			}
		}
	case reflect.Struct:
		*budget -= 2
		for i := 0; i < v.NumField() && *budget >= 0; i++ {
			*budget--
			if !fits(v.Field(i), depth+1, budget) {
				return false
			}
		}
	default:
		*budget -= 24
	}
	return *budget >= 0
}

// hasMethods reports whether fmt would call a method of t instead of
// printing its structure.
func hasMethods(t reflect.Type) bool {
	return t.Implements(stringerType) || t.Implements(errorType) || t.Implements(formatterType)
}

var (
	stringerType  = reflect.TypeFor[fmt.Stringer]()
	errorType     = reflect.TypeFor[error]()
	formatterType = reflect.TypeFor[fmt.Formatter]()
)

// limitedText collects at most max bytes; what does not fit is dropped
// and marked with one ellipsis.
type limitedText struct {
	b    strings.Builder
	max  int
	full bool
}

func (w *limitedText) WriteString(s string) {
	if w.full {
		return
	}
	if room := w.max - w.b.Len(); len(s) > room {
		w.b.WriteString(textcut.Prefix(s, room))
		w.b.WriteString(" …")
		w.full = true
		return
	}
	w.b.WriteString(s)
}

func (w *limitedText) String() string { return w.b.String() }

// writeValue writes v the way %v would, stopping once w is full.
func writeValue(w *limitedText, v reflect.Value, depth int) {
	if w.full {
		return
	}
	if depth > maxRenderDepth {
		w.WriteString("…")
		return
	}
	if !v.IsValid() {
		w.WriteString("<nil>")
		return
	}
	if v.CanInterface() && (depth > 0 && hasMethods(v.Type()) || !isComposite(v.Kind())) {
		x := v.Interface()
		if b, ok := x.(*big.Int); ok && b != nil && b.BitLen() > maxBigBits {
			w.WriteString(Plain(b))
			return
		}
		w.WriteString(textcut.Prefix(fmt.Sprint(x), w.max-w.b.Len()+1))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() {
			w.WriteString("&")
			writeValue(w, v.Elem(), depth+1)
			return
		}
		w.WriteString(fmt.Sprintf("%#x", v.Pointer()))
	case reflect.Interface:
		writeValue(w, v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		w.WriteString("[")
		for i := 0; i < v.Len() && !w.full; i++ {
			if i > 0 {
				w.WriteString(" ")
			}
			writeValue(w, v.Index(i), depth+1)
		}
		w.WriteString("]")
	case reflect.Map:
		if v.Len() > maxRenderElems {
			w.WriteString(fmt.Sprintf("map of %d entries (%s)", v.Len(), v.Type()))
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		w.WriteString("map[")
		for i, k := range keys {
			if i > 0 {
				w.WriteString(" ")
			}
			writeValue(w, k, depth+1)
			w.WriteString(":")
			writeValue(w, v.MapIndex(k), depth+1)
		}
		w.WriteString("]")
	case reflect.Struct:
		w.WriteString("{")
		for i := 0; i < v.NumField() && !w.full; i++ {
			if i > 0 {
				w.WriteString(" ")
			}
			writeValue(w, v.Field(i), depth+1)
		}
		w.WriteString("}")
	case reflect.String:
		w.WriteString(v.String())
	default:
		w.WriteString("?")
	}
}

func isComposite(k reflect.Kind) bool {
	switch k {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Array, reflect.Map, reflect.Struct:
		return true
	}
	return false
}
