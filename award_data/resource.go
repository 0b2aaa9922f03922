package award_data

import (
	"math"
	"strconv"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
	"github.com/sbirtools/sbir-kernel/internal/jsontext"
)

// A frame's table representation is the third form of its MIMEBundle,
// beside the text and HTML tables: the rows as data, for programs. It is
// the JSON pandas writes with to_json(orient="table") (a Frictionless Data
// Resource: a Table Schema and the rows as records), under the MIME type
// Jupyter tools know for it, so pandas.read_json(..., orient="table")
// reads it back. Unlike the text and HTML tables its values are exact:
//
//   - int columns: JSON integers, every digit; the field says
//     "type": "integer", "extDtype": "Int64" (pandas' nullable integer)
//   - float columns: the shortest decimal that reads back as the same
//     float64 (always with a decimal point or exponent, as pandas writes
//     floats); NaN, +Inf and -Inf, which JSON has no numbers for, are the
//     strings "NaN", "Infinity" and "-Infinity", which Python's float(),
//     JavaScript's Number() and pandas read back as those values
//   - text: the whole value, as a JSON string (invalid UTF-8 as U+FFFD)
//   - category columns: "type": "any" with the column's values as
//     constraints.enum (pandas' categorical), or "string" past 1,000 values
//   - dates: "type": "datetime", "2006-01-02T00:00:00.000" (pandas' form)
//   - null: null
//
// A field "index" (or "level_0" when a column is called "index") holds the
// row labels the tables print: an award's position in the data file, or
// a computed frame's row number. The rows are a window of the frame,
// bounded in rows and bytes (256 KiB for the default window, which
// notebooks keep; 2 MiB for one the host asks for); "frame" says which: {"rows": the frame's
// length, "offset": the first row's position, "truncated": whether rows
// after the window exist or were left out for size}.

// dataResourceMIME is the MIME type of the table representation.
const dataResourceMIME = "application/vnd.dataresource+json"

// Bounds of the table representation.
const (
	// maxRecordRows is the most rows a window may ask for.
	maxRecordRows = maxDisplayRows
	// maxResourceBytes bounds one representation of a window the host
	// asked for: rows that would take it past this are left out (the
	// window says truncated). A frame whose schema alone is larger has no
	// representation.
	maxResourceBytes = 2 << 20
	// maxDefaultResourceBytes bounds it for the default window, which
	// every frame shown in a notebook carries: the notebook keeps it.
	maxDefaultResourceBytes = 256 << 10
	// maxEnumValues bounds the category values listed in a field.
	maxEnumValues = 1000
	// tableSchemaVersion is the pandas table schema version written: the
	// one that knows extDtype.
	tableSchemaVersion = "1.4.0"
)

// recordWindow is the part of a frame its table representation carries:
// limit rows from position offset; limit 0 means the display settings'
// Rows from offset.
type recordWindow struct {
	offset, limit int
}

// SetRecordWindow chooses which rows of a frame its table representation
// (MIMEBundle's "application/vnd.dataresource+json") carries from now on:
// limit rows from position offset, at most 10,000 rows and 2 MiB. SetRecordWindow(0, 0)
// restores the default, the first DisplayOptions.Rows rows (20 unless
// SetDisplay says otherwise). The sandbox worker sets it around each cell
// from its caller's request (run_go's offset and max_rows); cells cannot
// call it. It returns an error, and changes nothing, for a negative value
// or more rows than the limit.
//
// Example (in the worker):
//
//	if err := award_data.SetRecordWindow(100, 50); err != nil {
//		return err
//	}
//	defer award_data.SetRecordWindow(0, 0)
func SetRecordWindow(offset, limit int) error {
	if offset < 0 || limit < 0 || limit > maxRecordRows {
		return errorf("SetRecordWindow", "offset %d, limit %d: give an offset of 0 or more and a limit from 0 (the display settings' rows) to %d", offset, limit, maxRecordRows)
	}
	setSession(func(s *session) { s.records = recordWindow{offset, limit} })
	return nil
}

// dataResource returns f's table representation, or nil when f has an
// error, two columns of one name (records are keyed by name), or a schema
// over the size limit.
func (f Frame) dataResource() []byte {
	if f.err != nil {
		return nil
	}
	var cols []*columnar.Vector
	if f.t != nil {
		cols = make([]*columnar.Vector, len(f.cols))
		for j, ci := range f.cols {
			cols[j] = f.t.Cols[ci]
		}
	}
	names := make(map[string]bool, len(cols))
	for _, c := range cols {
		if names[c.Name] {
			return nil
		}
		names[c.Name] = true
	}
	index := "index"
	for i := 0; names[index]; i++ {
		index = "level_" + strconv.Itoa(i)
	}
	w := current().records
	limit := maxResourceBytes
	if w.limit == 0 {
		w.limit, limit = f.options(false).Rows, maxDefaultResourceBytes
	}
	b := make([]byte, 0, 4096)
	b = appendTableSchema(b, index, cols)
	if len(b) > limit {
		return nil
	}
	n := f.Len()
	from := min(w.offset, n)
	to := from + min(w.limit, n-from)
	keys := make([][]byte, len(cols))
	for j, c := range cols {
		keys[j] = append(jsontext.Append(nil, c.Name), ':')
	}
	b = append(b, `,"data":[`...)
	shown := from
	for k := from; k < to; k++ {
		mark := len(b)
		if k > from {
			b = append(b, ',')
		}
		b = f.appendRecord(b, index, k, cols, keys)
		if len(b)+128 > limit {
			b = b[:mark]
			break
		}
		shown = k + 1
	}
	b = append(b, `],"frame":{"rows":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(from), 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, shown < n)
	return append(b, "}}"...)
}

// appendTableSchema appends the opening brace and the "schema" member.
func appendTableSchema(b []byte, index string, cols []*columnar.Vector) []byte {
	b = append(b, `{"schema":{"fields":[{"name":`...)
	b = jsontext.Append(b, index)
	b = append(b, `,"type":"integer"}`...)
	for _, c := range cols {
		b = append(b, `,{"name":`...)
		b = jsontext.Append(b, c.Name)
		switch c.Kind {
		case columnar.KindInt:
			b = append(b, `,"type":"integer","extDtype":"Int64"}`...)
		case columnar.KindFloat:
			b = append(b, `,"type":"number"}`...)
		case columnar.KindDate:
			b = append(b, `,"type":"datetime"}`...)
		case columnar.KindCategory:
			if len(c.Dict) > maxEnumValues {
				b = append(b, `,"type":"string"}`...)
				continue
			}
			b = append(b, `,"type":"any","constraints":{"enum":[`...)
			for i, v := range c.Dict {
				if i > 0 {
					b = append(b, ',')
				}
				b = jsontext.Append(b, v)
			}
			b = append(b, `]},"ordered":false}`...)
		default:
			b = append(b, `,"type":"string"}`...)
		}
	}
	b = append(b, `],"primaryKey":[`...)
	b = jsontext.Append(b, index)
	b = append(b, `],"pandas_version":"`+tableSchemaVersion+`"}`...)
	return b
}

// appendRecord appends the row at position k of f as a JSON object.
func (f Frame) appendRecord(b []byte, index string, k int, cols []*columnar.Vector, keys [][]byte) []byte {
	i := f.row(k)
	label := k
	if f.t.Source {
		label = i
	}
	b = append(b, '{')
	b = jsontext.Append(b, index)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(label), 10)
	for j, c := range cols {
		b = append(b, ',')
		b = append(b, keys[j]...)
		b = appendJSONValue(b, c, i)
	}
	return append(b, '}')
}

// appendJSONValue appends row i of c as its exact JSON value.
func appendJSONValue(b []byte, c *columnar.Vector, i int) []byte {
	if c.IsNull(i) {
		return append(b, "null"...)
	}
	switch c.Kind {
	case columnar.KindInt:
		return strconv.AppendInt(b, c.Ints[i], 10)
	case columnar.KindFloat:
		return appendJSONFloat(b, c.Floats[i])
	case columnar.KindDate:
		b = append(b, '"')
		b = columnar.DayTime(c.Days[i]).AppendFormat(b, "2006-01-02T15:04:05.000")
		return append(b, '"')
	case columnar.KindCategory:
		return jsontext.Append(b, c.Dict[c.Codes[i]])
	}
	return jsontext.Append(b, c.TextBytes(i))
}

// appendJSONFloat appends v as the shortest decimal that parses back to
// v, in encoding/json's notation, with ".0" on whole numbers so that
// readers see a float (as pandas writes them); the values JSON has no
// number for as the strings "NaN", "Infinity" and "-Infinity".
func appendJSONFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Infinity"`...)
	}
	format := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		// e-07 → e-7, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b
	}
	for _, ch := range b[start:] {
		if ch == '.' {
			return b
		}
	}
	return append(b, ".0"...)
}
