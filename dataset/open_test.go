package dataset

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// convertedBytes returns an Arrow file converted from a generated CSV.
func convertedBytes(t testing.TB, rows int) []byte {
	t.Helper()
	data := generated(t, GenerateOptions{Rows: rows, Seed: 11})
	var out bytes.Buffer
	if _, err := Convert(context.Background(), bytes.NewReader(data), int64(len(data)), &out, ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestOpenFileValid(t *testing.T) {
	good := convertedBytes(t, 300)
	d, err := OpenFile(writeFile(t, filepath.Join(t.TempDir(), "a.arrow"), string(good)))
	if err != nil {
		t.Fatal(err)
	}
	if d.NumRows() != 300 || d.Report().Rows != 300 || d.Record().NumCols() != 42 {
		t.Fatalf("rows %d report %d cols %d", d.NumRows(), d.Report().Rows, d.Record().NumCols())
	}
	// Every column reads back, including dictionaries from the mapping.
	for i, f := range d.Schema().Fields() {
		c := d.Record().Column(i)
		if c.Len() != 300 || !arrow.TypeEqual(c.DataType(), f.Type) {
			t.Errorf("column %s: len %d type %s", f.Name, c.Len(), c.DataType())
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestOpenFileInvalid(t *testing.T) {
	good := convertedBytes(t, 200)
	dir := t.TempDir()

	// An Arrow file with an unrelated schema, and one from another format version.
	foreign := func(meta map[string]string) []byte {
		md := arrow.MetadataFrom(meta)
		schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, &md)
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.Append(1)
		arr := b.NewArray()
		rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 1)
		return arrowFile(t, schema, []arrow.RecordBatch{rec})
	}
	flipped := bytes.Clone(good)
	for i := len(flipped) - 400; i < len(flipped)-10; i++ {
		flipped[i] ^= 0x5A // the footer
	}
	headerFlipped := bytes.Clone(good)
	for i := 8; i < 300; i++ {
		headerFlipped[i] ^= 0xA5 // the schema message
	}

	tests := []struct {
		name    string
		content []byte
		want    string
	}{
		{"empty", nil, "too short"},
		{"truncated", good[:len(good)/2], "no Arrow file magic"},
		{"truncated by one byte", good[:len(good)-1], "no Arrow file magic"},
		{"CSV instead of Arrow", []byte(bulkHeader + "\n" + strings.Repeat("x,", 41) + "\n"), "no Arrow file magic"},
		{"corrupt footer", flipped, ""},
		{"corrupt schema message", headerFlipped, ""},
		{"foreign schema", foreign(nil), "no format version"},
		{"other format version", foreign(map[string]string{MetaFormatVersion: "0"}), "format version 0, want " + strconv.Itoa(FormatVersion)},
		{"format version 1 (no indexes)", foreign(map[string]string{MetaFormatVersion: "1"}), "format version 1, want " + strconv.Itoa(FormatVersion)},
		{"no load report", foreign(map[string]string{MetaFormatVersion: strconv.Itoa(FormatVersion)}), "no load report"},
		{"wrong columns", foreign(map[string]string{MetaFormatVersion: strconv.Itoa(FormatVersion), MetaLoadReport: `{"rows":1}`}), "columns, want at least 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".arrow"), string(tt.content))
			d, err := OpenFile(path)
			if err == nil {
				d.Close()
				t.Fatal("OpenFile succeeded on a bad file")
			}
			if !errors.Is(err, ErrInvalidArrow) {
				t.Errorf("err = %v, want ErrInvalidArrow", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want it to name the file and contain %q", err, tt.want)
			}
		})
	}
}

func TestOpenFileNotAFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenFile(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: err = %v", err)
	}
	if _, err := OpenFile(filepath.Join(dir, "missing.arrow")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want ErrNotExist", err)
	}
}

// TestOpenMapsAnOpenFile: a process that may open no file maps the
// descriptor it inherited; the mapping outlives the descriptor, and errors
// name the file by the name given.
func TestOpenMapsAnOpenFile(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "a.arrow"), string(convertedBytes(t, 120)))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(f, "fd 5")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.NumRows() != 120 || d.Path() != "fd 5" {
		t.Fatalf("rows %d path %q", d.NumRows(), d.Path())
	}
	if n := d.Record().Column(0).Len(); n != 120 {
		t.Errorf("first column after closing the descriptor: %d rows", n)
	}
	short := writeFile(t, filepath.Join(t.TempDir(), "b.arrow"), "ARROW1")
	g, err := os.Open(short)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := Open(g, "fd 5"); !errors.Is(err, ErrInvalidArrow) || !strings.Contains(err.Error(), "fd 5") {
		t.Errorf("Open of a short file: %v; want ErrInvalidArrow naming fd 5", err)
	}
}
