package symbols

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"reflect"

	"github.com/sbirtools/sbir-kernel/display"
)

// mapTypes tells yaegi which interfaces an interpreted value passed to
// these compiled functions as `any` should be wrapped to satisfy, so
// that fmt sees an interpreted type's String, Format or Error method and
// json and xml its marshalling methods (yaegi's own stdlib table carries
// the same list; the extracted table does not). fmt.Errorf also gets
// error, so that %w wraps an interpreted error type.
func mapTypes() map[reflect.Value][]reflect.Type {
	formatter := reflect.TypeFor[fmt.Formatter]()
	stringer := reflect.TypeFor[fmt.Stringer]()
	errorType := reflect.TypeFor[error]()
	mt := []reflect.Type{formatter, stringer}
	m := map[reflect.Value][]reflect.Type{
		reflect.ValueOf(fmt.Errorf): {formatter, stringer, errorType},
	}
	for _, f := range []any{fmt.Fprint, fmt.Fprintf, fmt.Fprintln, fmt.Print, fmt.Printf, fmt.Println,
		fmt.Sprint, fmt.Sprintf, fmt.Sprintln, fmt.Append, fmt.Appendf, fmt.Appendln} {
		m[reflect.ValueOf(f)] = mt
	}
	scanner := []reflect.Type{reflect.TypeFor[fmt.Scanner]()}
	for _, f := range []any{fmt.Scan, fmt.Scanf, fmt.Scanln, fmt.Sscan, fmt.Sscanf, fmt.Sscanln, fmt.Fscan, fmt.Fscanf, fmt.Fscanln} {
		m[reflect.ValueOf(f)] = scanner
	}
	// display.Show sees a cell type's MIMEBundle method (the Bundler
	// example in display's docs), or its String, as compiled code would.
	m[reflect.ValueOf(display.Show)] = ValueInterfaces()
	m[reflect.ValueOf(json.Marshal)] = []reflect.Type{reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()}
	m[reflect.ValueOf(json.MarshalIndent)] = []reflect.Type{reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()}
	m[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{reflect.TypeFor[json.Unmarshaler](), reflect.TypeFor[encoding.TextUnmarshaler]()}
	m[reflect.ValueOf(xml.Marshal)] = []reflect.Type{reflect.TypeFor[xml.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()}
	// yaegi patch 36 names a cell's struct types for the functions marked
	// with xml.Marshaler first, as gc's encoding/xml does from the type.
	m[reflect.ValueOf(xml.MarshalIndent)] = m[reflect.ValueOf(xml.Marshal)]
	m[reflect.ValueOf(xml.Unmarshal)] = []reflect.Type{reflect.TypeFor[xml.Unmarshaler](), reflect.TypeFor[encoding.TextUnmarshaler]()}
	return m
}

// ValueInterfaces are the interfaces through which a value of a cell's
// own type shows itself, most specific first: as a MIME bundle, through
// fmt.Formatter, as a string. (An error type needs no entry: yaegi wraps
// a value with an Error method by itself.) Compiled code that displays a
// value passed to it as `any` (display.Show, the worker's catcher of a
// cell's last value) lists them in yaegi's MapTypes, so that the value
// arrives wrapped with the methods it has; otherwise compiled code sees
// only the underlying data and a Money(3) with a MIMEBundle method shows
// as "3".
func ValueInterfaces() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[display.Bundler](), reflect.TypeFor[fmt.Formatter](),
		reflect.TypeFor[fmt.Stringer]()}
}
