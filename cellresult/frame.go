package cellresult

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// ResourceMIME is the MIME type of a frame's table representation in a
// MIME bundle: a Frictionless Data Resource with a Table Schema, as
// pandas writes it with to_json(orient="table").
const ResourceMIME = "application/vnd.dataresource+json"

// Bounds on reading a table representation. The engine's own stay far
// inside them (its representations are at most 2 MiB); they bound what a
// cell that writes one itself can make the server do.
const (
	// maxFields is the most columns read; a representation with more
	// gives no frame.
	maxFields = 4096
	// maxCells is the most values read from one representation: rows
	// past it are left for the next page.
	maxCells = 50_000
	// maxResourceBytes bounds a representation given as raw JSON (in-process
	// callers); the sandbox's pipe hands over decoded values.
	maxResourceBytes = 4 << 20
	// maxNumberText is the longest number text accepted: a float64's
	// shortest form has at most 24 characters, an int64 20.
	maxNumberText = 40
)

// Frame is a frame's rows as exact, typed records: a window of the frame
// (Offset, and NextOffset for the next page) with every column.
type Frame struct {
	// Columns are the column names, in order.
	Columns []string `json:"columns" jsonschema:"column names, in order"`
	// Types are the columns' types, as Table Schema names them: integer,
	// number (float), string (text), category, datetime.
	Types []string `json:"types" jsonschema:"per column: integer, number (float), string (text), category or datetime"`
	// Index holds each record's row label: an award's position in the
	// data file, or a computed frame's row number.
	Index []int64 `json:"index" jsonschema:"each record's row label: for award rows their position in the data file, for computed frames the row number"`
	// Records are the rows, one object per row keyed by column name.
	Records []map[string]any `json:"records" jsonschema:"the rows, one object per row keyed by column name; values exact (integers whole, floats to the last digit, text whole, dates 2006-01-02T00:00:00.000), null for null, the strings NaN, Infinity, -Infinity for those floats"`
	// Rows is the frame's length.
	Rows int `json:"rows" jsonschema:"rows in the whole frame"`
	// Offset is the position of the first record in the frame.
	Offset int `json:"offset" jsonschema:"position of the first record in the frame (0-based)"`
	// NextOffset is where the next page starts, when rows follow the
	// records.
	NextOffset int `json:"next_offset,omitempty" jsonschema:"when the frame has rows after these records: the offset of the next page (run the same expression with offset set to it)"`
	// Truncated reports that the frame has rows the records leave out.
	Truncated bool `json:"truncated,omitempty" jsonschema:"true when the frame has more rows than the records; page with offset, or narrow it with Where, Select or Head"`
	// Note says why a page holds fewer rows than asked, when it does.
	Note string `json:"note,omitempty" jsonschema:"why the page holds fewer rows than asked, when it does"`
}

// frameOf reads a table representation (the decoded JSON value, or its
// text) into a Frame of at most maxRows records. It returns nil for
// anything that is not a table with named, typed columns and scalar
// values. Its work is bounded by maxFields and maxCells; numbers keep
// their text (only their length and range are checked).
func frameOf(v any, maxRows int) *Frame {
	if raw, ok := v.(json.RawMessage); ok {
		if len(raw) > maxResourceBytes {
			return nil
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&v) != nil {
			return nil
		}
	}
	r, _ := v.(map[string]any)
	schema, _ := r["schema"].(map[string]any)
	fields, _ := schema["fields"].([]any)
	data, _ := r["data"].([]any)
	if len(fields) == 0 || len(fields) > maxFields || (data == nil && r["data"] != nil) {
		return nil
	}
	index := ""
	if pk, _ := schema["primaryKey"].([]any); len(pk) == 1 {
		index, _ = pk[0].(string)
	}
	f, hasIndex := columnsOf(fields, index)
	if f == nil {
		return nil
	}
	meta, _ := r["frame"].(map[string]any)
	f.Rows, f.Offset = len(data), 0
	if n, ok := intOf(meta["rows"]); ok && n >= 0 {
		f.Rows = int(n)
	}
	if n, ok := intOf(meta["offset"]); ok && n >= 0 {
		f.Offset = int(n)
	}
	f.Truncated = meta["truncated"] == true
	if !f.readRecords(data, len(fields), index, hasIndex, maxRows) {
		return nil
	}
	return f
}

// readRecords takes at most maxRows records from data, each an object of
// at most nfields scalar values, the row label under index taken out into
// f.Index when hasIndex. It returns false for anything else, and sets
// NextOffset and Note for a page that leaves rows out.
func (f *Frame) readRecords(data []any, nfields int, index string, hasIndex bool, maxRows int) bool {
	f.Index, f.Records = []int64{}, []map[string]any{}
	cells := 0
	for _, d := range data {
		if len(f.Records) == maxRows || cells+len(f.Columns) > maxCells {
			f.Truncated = true
			break
		}
		rec, ok := d.(map[string]any)
		if !ok || len(rec) > nfields {
			return false
		}
		if hasIndex {
			label, ok := intOf(rec[index])
			if !ok {
				return false
			}
			f.Index = append(f.Index, label)
		}
		// A copy: the bundle the record came from is the caller's.
		out := make(map[string]any, len(rec))
		for k, x := range rec {
			if !scalar(x) {
				return false
			}
			if k != index || !hasIndex {
				out[k] = x
			}
		}
		cells += len(f.Columns)
		f.Records = append(f.Records, out)
	}
	if !hasIndex {
		f.Index = nil
	}
	if f.Truncated && f.Offset+len(f.Records) < f.Rows {
		switch {
		case len(f.Records) == 0:
			f.Note = "the row at offset alone is over the 2 MiB limit of a page of records: Select fewer columns (long text such as Abstract takes the most)"
		case len(f.Records) < maxRows && cells+len(f.Columns) <= maxCells:
			f.Note = "fewer rows than asked: a page of records is at most 2 MiB; page on from next_offset, or Select fewer columns (long text such as Abstract takes the most)"
			f.NextOffset = f.Offset + len(f.Records)
		default:
			f.NextOffset = f.Offset + len(f.Records)
		}
	}
	return true
}

// columnsOf reads the fields of a table schema: every field but the
// index becomes a column with its type. It returns nil for a field
// without a name or type, or two fields of one name.
func columnsOf(fields []any, index string) (f *Frame, hasIndex bool) {
	f = &Frame{Columns: make([]string, 0, len(fields)), Types: make([]string, 0, len(fields))}
	seen := make(map[string]bool, len(fields))
	for _, x := range fields {
		fl, _ := x.(map[string]any)
		name, _ := fl["name"].(string)
		typ, _ := fl["type"].(string)
		if name == "" || typ == "" || seen[name] {
			return nil, false
		}
		seen[name] = true
		if name == index {
			hasIndex = true
			continue
		}
		if c, _ := fl["constraints"].(map[string]any); typ == "any" && c["enum"] != nil {
			typ = "category" // pandas' categorical
		}
		f.Columns = append(f.Columns, name)
		f.Types = append(f.Types, typ)
	}
	return f, hasIndex
}

// intOf reads a JSON integer.
func intOf(x any) (int64, bool) {
	switch n := x.(type) {
	case json.Number:
		if len(n) > maxNumberText {
			return 0, false
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		return i, err == nil
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
			return 0, false
		}
		return int64(n), true
	}
	return 0, false
}

// scalar reports whether x is a value a record may hold: null, a
// boolean, a string, or a number of at most maxNumberText characters
// whose exponent a float64 can hold. The pipe's decoder has checked the
// number's syntax; its digits are never converted.
func scalar(x any) bool {
	switch v := x.(type) {
	case nil, bool, string:
		return true
	case json.Number:
		return len(v) <= maxNumberText && exponentFits(string(v))
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	return false
}

// exponentFits reports whether a JSON number's exponent, if it has one,
// is one a float64 can hold without overflowing (|e| ≤ 308, plus the
// digits before it); a smaller number rounds to zero, as JSON readers
// read it. Only a number near the limit is parsed.
func exponentFits(n string) bool {
	i := strings.IndexAny(n, "eE")
	if i < 0 {
		return true
	}
	e, err := strconv.Atoi(strings.TrimPrefix(n[i+1:], "+"))
	switch {
	case err != nil:
		return false
	case e < 290:
		return true
	}
	_, err = strconv.ParseFloat(n, 64)
	return err == nil
}
