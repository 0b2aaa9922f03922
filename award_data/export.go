package award_data

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// maxExportBytes bounds the text ToCSV and ToJSON build in memory; the
// full award data as CSV is about 400 MB, more than a session's heap can
// spare next to everything else.
const maxExportBytes = 256 << 20

// maxDownloadBytes bounds a Download: the file travels inside the
// notebook as a data URI.
const maxDownloadBytes = 8 << 20

// noFiles is the error for a path given to an export: cells have no file
// system.
func noFiles(op, path string) *Error {
	return errorf(op, "cells cannot write files (asked for %q): %s() with no path returns the text, fmt.Print(f.%s()) prints it, f.WriteCSV(os.Stdout) streams CSV to the cell's output, and f.Download(%q) shows a download link in the notebook", path, op, op, path)
}

// ToCSV returns f as CSV text (RFC 4180, a header line, "\n" line ends,
// nulls as empty fields, numbers in full precision, dates as
// 2006-01-02), like pandas' to_csv() without a path. Cells have no files:
// given a path, ToCSV panics with an error that names the alternatives.
//
// Example:
//
//	csv := award_data.GroupBy("Agency").Sum("Award Amount").ToCSV()
//	fmt.Print(csv)
func (f Frame) ToCSV(path ...string) string {
	if len(path) > 0 {
		panic(noFiles("ToCSV", path[0]))
	}
	f.must()
	var b strings.Builder
	if err := f.writeCSV(&b); err != nil {
		panic(err)
	}
	return b.String()
}

// WriteCSV writes f as CSV (as ToCSV) to w, e.g. os.Stdout, the cell's
// output; it returns w's error.
//
// Example:
//
//	award_data.ValueCounts("Phase").WriteCSV(os.Stdout)
func (f Frame) WriteCSV(w io.Writer) error {
	if f.err != nil {
		return f.err
	}
	if w == nil {
		return errorf("WriteCSV", "the writer is nil; pass os.Stdout to print")
	}
	return f.writeCSV(w)
}

func (f Frame) writeCSV(w io.Writer) error {
	if f.t == nil {
		return nil
	}
	cols := make([]*columnar.Vector, len(f.cols))
	for j, ci := range f.cols {
		cols[j] = f.t.Cols[ci]
	}
	buf := make([]byte, 0, 64<<10)
	for j, c := range cols {
		if j > 0 {
			buf = append(buf, ',')
		}
		buf = appendCSVField(buf, c.Name)
	}
	buf = append(buf, '\n')
	rows := f.rowList()
	// Large frames are formatted in parallel parts, written in order.
	parts := make([][]byte, columnar.MaxParts())
	var tooBig atomic.Bool
	used := columnar.Parts(len(rows), func(part, lo, hi int) {
		out := make([]byte, 0, (hi-lo)*16*len(cols))
		for _, r := range rows[lo:hi] {
			out = appendCSVRow(out, cols, int(r))
			if len(out) > maxExportBytes {
				tooBig.Store(true)
				return
			}
		}
		parts[part] = out
	})
	total := len(buf)
	for p := 0; p < used; p++ {
		total += len(parts[p])
	}
	if tooBig.Load() || total > maxExportBytes {
		return errorf("ToCSV", "the CSV is over %d MB; Select fewer columns or filter rows first", maxExportBytes>>20)
	}
	if _, err := w.Write(buf); err != nil {
		return err
	}
	for p := 0; p < used; p++ {
		if _, err := w.Write(parts[p]); err != nil {
			return err
		}
	}
	return nil
}

// appendCSVRow appends row i of cols as one CSV line.
func appendCSVRow(buf []byte, cols []*columnar.Vector, i int) []byte {
	for j, c := range cols {
		if j > 0 {
			buf = append(buf, ',')
		}
		if c.IsNull(i) {
			continue
		}
		switch c.Kind {
		case columnar.KindText:
			buf = appendCSVBytes(buf, c.TextBytes(i))
		case columnar.KindCategory:
			buf = appendCSVField(buf, c.Dict[c.Codes[i]])
		case columnar.KindInt:
			if c.Bool {
				buf = strconv.AppendBool(buf, c.Ints[i] != 0)
				break
			}
			buf = strconv.AppendInt(buf, c.Ints[i], 10)
		case columnar.KindFloat:
			if v := c.Floats[i]; !math.IsNaN(v) {
				buf = strconv.AppendFloat(buf, v, 'f', -1, 64)
			}
		case columnar.KindDate:
			buf = columnar.DayTime(c.Days[i]).AppendFormat(buf, "2006-01-02")
		}
	}
	return append(buf, '\n')
}

func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[0] == '\t' {
		return true
	}
	return strings.ContainsAny(s, ",\"\r\n")
}

func appendCSVField(buf []byte, s string) []byte {
	if !csvNeedsQuotes(s) {
		return append(buf, s...)
	}
	buf = append(buf, '"')
	buf = append(buf, strings.ReplaceAll(s, `"`, `""`)...)
	return append(buf, '"')
}

func appendCSVBytes(buf []byte, s []byte) []byte {
	if len(s) == 0 || (s[0] != ' ' && s[0] != '\t' && bytes.IndexAny(s, ",\"\r\n") < 0) {
		return append(buf, s...)
	}
	return appendCSVField(buf, string(s))
}

// Records returns f's rows as maps from column name to value: string for
// text and categories, int64, float64, time.Time for dates, nil for a
// null. It panics with f's error or over 1,000,000 rows (use ToCSV or
// aggregate first).
//
// Example:
//
//	for _, r := range award_data.ValueCounts("Phase").Records() {
//		fmt.Println(r["Phase"], r["Count"])
//	}
func (f Frame) Records() []map[string]any {
	f.must()
	if f.Len() > 1_000_000 {
		panic(errorf("Records", "%d rows is too many maps; aggregate or filter first, or use ToCSV", f.Len()))
	}
	out := make([]map[string]any, f.Len())
	for k := range out {
		m := make(map[string]any, len(f.cols))
		i := f.row(k)
		for _, ci := range f.cols {
			m[f.t.Cols[ci].Name] = goValue(f.t.Cols[ci], i)
		}
		out[k] = m
	}
	return out
}

// goValue is row i of c as a Go value (nil for null).
func goValue(c *columnar.Vector, i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch c.Kind {
	case columnar.KindInt:
		if c.Bool {
			return c.Ints[i] != 0
		}
		return c.Ints[i]
	case columnar.KindFloat:
		if math.IsNaN(c.Floats[i]) {
			return nil
		}
		return c.Floats[i]
	case columnar.KindDate:
		return columnar.DayTime(c.Days[i])
	}
	return c.Str(i)
}

// ToJSON returns f as a JSON array with one object per row (column name
// → value; numbers as numbers, dates as "2006-01-02", nulls as null),
// like pandas' to_json(orient="records"). Given a path it panics, as
// ToCSV does.
//
// Example:
//
//	award_data.ValueCounts("Phase").ToJSON()
func (f Frame) ToJSON(path ...string) string {
	if len(path) > 0 {
		panic(noFiles("ToJSON", path[0]))
	}
	f.must()
	var b bytes.Buffer
	b.WriteByte('[')
	names := make([][]byte, len(f.cols))
	for j, ci := range f.cols {
		names[j], _ = json.Marshal(f.t.Cols[ci].Name)
	}
	for k := 0; k < f.Len(); k++ {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		i := f.row(k)
		for j, ci := range f.cols {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(names[j])
			b.WriteByte(':')
			c := f.t.Cols[ci]
			switch v := goValue(c, i).(type) {
			case nil:
				b.WriteString("null")
			case int64:
				b.WriteString(strconv.FormatInt(v, 10))
			case bool:
				b.WriteString(strconv.FormatBool(v))
			case float64:
				if math.IsInf(v, 0) {
					b.WriteString("null")
				} else {
					b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
				}
			default:
				s, _ := json.Marshal(c.FormatValue(i))
				b.Write(s)
			}
		}
		b.WriteByte('}')
		if b.Len() > maxExportBytes {
			panic(errorf("ToJSON", "the JSON is over %d MB; Select fewer columns or filter rows first", maxExportBytes>>20))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// A File is an export offered for download in the notebook; Download
// makes one. Shown as a cell's value (or with display.Show) it is a link
// that saves the file, its data carried in the link as a data URI, so it
// works without a server-side file.
type File struct {
	name string
	mime string
	data []byte
	err  error
}

// Download returns f as a file to download from the notebook: CSV when
// filename ends in .csv, JSON (records) for .json. The file travels in
// the notebook, so it may be at most 8 MB.
//
// Example:
//
//	award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").Download("dollars.csv")
func (f Frame) Download(filename string) File {
	if f.err != nil {
		return File{err: f.err}
	}
	base := filename
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	var data []byte
	var mime string
	switch strings.ToLower(base[strings.LastIndex(base, ".")+1:]) {
	case "csv":
		var b bytes.Buffer
		if err := f.writeCSV(&b); err != nil {
			return File{err: err}
		}
		data, mime = b.Bytes(), "text/csv"
	case "json":
		data, mime = []byte(f.ToJSON()), "application/json"
	default:
		return File{err: errorf("Download", "filename %q: end it in .csv or .json to choose the format", filename)}
	}
	if len(data) > maxDownloadBytes {
		return File{err: errorf("Download", "%s is %s; a download may be at most %d MB (Select fewer columns or filter rows)", base, byteSize(len(data)), maxDownloadBytes>>20)}
	}
	return File{name: base, mime: mime, data: data}
}

// Err returns the error that made the file, or nil.
//
// Example:
//
//	fmt.Println(award_data.Head(3).Download("x.xlsx").Err())
func (d File) Err() error { return d.err }

// Bytes returns the file's content.
//
// Example:
//
//	n := len(award_data.Head(3).Download("x.csv").Bytes())
func (d File) Bytes() []byte { return d.data }

// String describes the file (or its error).
//
// Example:
//
//	fmt.Println(award_data.Head(3).Download("x.csv"))
func (d File) String() string {
	if d.err != nil {
		return d.err.Error()
	}
	return fmt.Sprintf("%s (%s, %s): a download link in notebooks", d.name, d.mime, byteSize(len(d.data)))
}

// MIMEBundle returns the download link as HTML (the data as a base64 data
// URI) and String as "text/plain".
//
// Example:
//
//	bundle := award_data.Head(3).Download("x.csv").MIMEBundle()
func (d File) MIMEBundle() map[string]any {
	if d.err != nil {
		return map[string]any{"text/plain": d.String()}
	}
	uri := "data:" + d.mime + ";base64," + base64.StdEncoding.EncodeToString(d.data)
	link := fmt.Sprintf(`<a download="%s" href="%s">Download %s</a> (%s)`, html.EscapeString(d.name), uri, html.EscapeString(d.name), byteSize(len(d.data)))
	return map[string]any{"text/plain": d.String(), "text/html": link}
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}
