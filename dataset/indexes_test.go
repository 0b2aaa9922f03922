package dataset

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// convertToFile converts csv into an Arrow file under t.TempDir.
func convertToFile(t *testing.T, csv []byte) string {
	t.Helper()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "awards.csv")
	if err := os.WriteFile(csvPath, csv, 0o644); err != nil {
		t.Fatal(err)
	}
	arrowPath := filepath.Join(dir, "awards.arrow")
	if _, err := ConvertFile(context.Background(), csvPath, arrowPath, ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	return arrowPath
}

// TestIndexesStored: the file carries a bitmap index of every category
// and small-range int column and a dictionary of the usual text group
// keys, equal word for word to what the query engine would build, while
// Record and Schema show the data columns only.
func TestIndexesStored(t *testing.T) {
	for _, fx := range []struct {
		name string
		csv  []byte
	}{
		{"bulk42-5000", generated(t, GenerateOptions{Rows: 5000, Seed: 9})},
		{"legacy41-bom-1000", generated(t, GenerateOptions{Rows: 1000, Seed: 3, Shape: ShapeLegacy41, BOM: true})},
		{"quirks", mustRead(t, filepath.Join("testdata", "csv", "quirks.csv"))},
	} {
		t.Run(fx.name, func(t *testing.T) {
			d, err := OpenFile(convertToFile(t, fx.csv))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			rec := d.Record()
			if int(rec.NumCols()) != d.Report().Columns || len(d.Schema().Fields()) != d.Report().Columns {
				t.Fatalf("Record has %d columns, Schema %d; the file has %d data columns", rec.NumCols(), len(d.Schema().Fields()), d.Report().Columns)
			}
			for _, f := range d.Schema().Fields() {
				if isIndexField(f) {
					t.Fatalf("Schema shows index field %q", f.Name)
				}
			}
			indexes := d.Indexes()
			got := make(map[string]Index)
			for _, ix := range indexes {
				got[ix.Column] = ix
			}
			for i, f := range d.Schema().Fields() {
				v, err := columnar.FromArrow(f.Name, rec.Column(i))
				if err != nil {
					t.Fatal(err)
				}
				ix, stored := got[f.Name]
				switch {
				case v.Kind == columnar.KindCategory || v.Kind == columnar.KindInt:
					want := columnar.BuildBitIndex(v)
					if want == nil {
						if stored {
							t.Errorf("%s: stored an index the engine would not build", f.Name)
						}
						continue
					}
					if !stored || ix.Bitmap == nil {
						t.Errorf("%s: no stored bitmap index", f.Name)
						continue
					}
					if !reflect.DeepEqual(ix.Bitmap.Bitmaps(), want.Bitmaps()) || !slices.Equal(ix.Bitmap.Counts(), want.Counts()) ||
						!slices.Equal(ix.Bitmap.Nulls(), want.Nulls()) || ix.Bitmap.Base() != want.Base() {
						t.Errorf("%s: the stored bitmap index differs from the one built from the column", f.Name)
					}
					if err := v.SetIndex(ix.Bitmap); err != nil {
						t.Errorf("%s: %v", f.Name, err)
					}
				case v.Kind == columnar.KindText && slices.Contains(textDictColumns, f.Name):
					if !stored || ix.Text == nil {
						t.Errorf("%s: no stored text dictionary", f.Name)
						continue
					}
					want := columnar.BuildTextDict(v)
					if !slices.Equal(ix.Text.Codes(), want.Codes()) || ix.Text.Distinct() != want.Distinct() {
						t.Errorf("%s: the stored dictionary differs from the one built from the column", f.Name)
					}
					// Format 3: the distinct values too, mapped, when few
					// enough to pack; the engine then never packs its own.
					wantOffs, wantData := want.PackedValues(v)
					if ix.Text.Packed() != (wantOffs != nil) {
						t.Errorf("%s: stored values %v, want %v", f.Name, ix.Text.Packed(), wantOffs != nil)
					} else if gotOffs, gotData := ix.Text.PackedValues(v); !slices.Equal(gotOffs, wantOffs) || string(gotData) != string(wantData) {
						t.Errorf("%s: the stored values differ from the ones packed from the column", f.Name)
					} else if wantOffs != nil && !inMapping(d, gotData) {
						t.Errorf("%s: the stored values are a copy, not the mapping", f.Name)
					}
					if err := v.SetTextDictionary(ix.Text); err != nil {
						t.Errorf("%s: %v", f.Name, err)
					}
				case stored:
					t.Errorf("%s: unexpected stored index", f.Name)
				}
			}
		})
	}
}

// inMapping reports whether b lies in d's mapping of the file.
func inMapping(d *Dataset, b []byte) bool {
	if len(b) == 0 {
		return true
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(d.data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return lo <= p && p+uintptr(len(b)) <= lo+uintptr(len(d.data))
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rewriteArrow writes the data columns of the Arrow file at path
// back to it, without the stored indexes, with the schema metadata
// changed by edit and the fields extra returns: the layout of format
// version 1, or a file with damaged indexes.
func rewriteArrow(t *testing.T, path string, edit func(md map[string]string), extra func(fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array)) {
	t.Helper()
	d, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := make(map[string]string)
	for i, k := range d.meta.Keys() {
		md[k] = d.meta.Values()[i]
	}
	edit(md)
	meta := arrow.MetadataFrom(md)
	fields := d.Schema().Fields()
	cols := d.Record().Columns()
	if extra != nil {
		fields, cols = extra(fields, cols)
	}
	schema := arrow.NewSchema(fields, &meta)
	rec := array.NewRecordBatch(schema, cols, int64(d.NumRows()))
	data := arrowFile(t, schema, []arrow.RecordBatch{rec})
	rec.Release()
	d.Close()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLocateRebuildsFormat1: a cache written by format version 1 (the
// same data columns, no indexes) for the very same CSV is converted again,
// and the new file carries the indexes.
func TestLocateRebuildsFormat1(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "awards.csv")
	if err := os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 500, Seed: 4}), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{CacheDir: filepath.Join(dir, "cache"), CSVPath: csvPath}
	src, err := Locate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !src.Converted {
		t.Fatal("first Locate did not convert")
	}
	rewriteArrow(t, src.ArrowPath, func(md map[string]string) { md[MetaFormatVersion] = "1" }, nil)
	if _, err := OpenFile(src.ArrowPath); err == nil {
		t.Fatal("a format 1 file opens")
	}
	again, err := Locate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Converted {
		t.Fatal("a format 1 cache was used, not rebuilt")
	}
	d, err := OpenFile(again.ArrowPath)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if len(d.Indexes()) == 0 {
		t.Fatal("rebuilt file has no indexes")
	}
	if v, _ := d.Metadata(MetaFormatVersion); v != strconv.Itoa(FormatVersion) {
		t.Errorf("rebuilt file has format version %s", v)
	}
}

// TestIndexesDamaged: a file whose index fields are damaged, or with a
// data column after an index, is invalid (so Locate converts again), with
// an error naming the file and what is wrong.
func TestIndexesDamaged(t *testing.T) {
	csv := generated(t, GenerateOptions{Rows: 300, Seed: 2})
	codes := func(vals []int32) arrow.Array {
		b := array.NewInt32Builder(memory.DefaultAllocator)
		defer b.Release()
		b.AppendValues(vals, nil)
		return b.NewArray()
	}
	textIndex := func(distinct string, vals []int32) func([]arrow.Field, []arrow.Array) ([]arrow.Field, []arrow.Array) {
		return func(fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array) {
			md := arrow.NewMetadata([]string{MetaIndexOf, MetaIndexKind, MetaIndexDistinct}, []string{ColCompany, indexTextDict, distinct})
			return append(fields, arrow.Field{Name: "ix", Type: arrow.PrimitiveTypes.Int32, Metadata: md}), append(cols, codes(vals))
		}
	}
	// packedIndex is a format-3 dictionary field: codes indexing values
	// given as raw offsets and bytes (so that they can be wrong).
	packedIndex := func(distinct string, vals []int32, offs []int32, data string) func([]arrow.Field, []arrow.Array) ([]arrow.Field, []arrow.Array) {
		return func(fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array) {
			md := arrow.NewMetadata([]string{MetaIndexOf, MetaIndexKind, MetaIndexDistinct}, []string{ColCompany, indexTextDict, distinct})
			values := array.NewData(arrow.BinaryTypes.String, len(offs)-1,
				[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes([]byte(data))}, nil, 0, 0)
			typ := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
			d := array.NewData(typ, len(vals), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(vals))}, nil, 0, 0)
			d.SetDictionary(values)
			return append(fields, arrow.Field{Name: "ix", Type: typ, Metadata: md}), append(cols, array.NewDictionaryData(d))
		}
	}
	tests := []struct {
		name  string
		extra func([]arrow.Field, []arrow.Array) ([]arrow.Field, []arrow.Array)
		open  string // error from OpenFile
	}{
		{"code out of range", nil, "row 17 has code 5 outside -1..1"},
		{"bad distinct count", textIndex("many", make([]int32, 300)), `distinct values "many"`},
		{"data column after an index", func(fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array) {
			f, c := textIndex("1", make([]int32, 300))(fields, cols)
			return append(f, arrow.Field{Name: "late", Type: arrow.BinaryTypes.String, Nullable: true}), append(c, cols[0])
		}, "follows an index"},
		{"stored values fewer than the distinct count", packedIndex("2", make([]int32, 300), []int32{0, 3}, "abc"), "want int32 codes of 2 distinct utf8 values"},
		{"stored values out of order", packedIndex("2", make([]int32, 300), []int32{0, 3, 1}, "abc"), `column "ix": dictionary: row 1: string offsets decrease (1 after 3)`},
	}
	tests[0].extra = func(fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array) {
		vals := make([]int32, 300)
		vals[17] = 5
		return textIndex("2", vals)(fields, cols)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := convertToFile(t, csv)
			// Drop the stored indexes, then add the damaged one.
			rewriteArrow(t, path, func(map[string]string) {}, tt.extra)
			_, err := OpenFile(path)
			if err == nil || !errors.Is(err, ErrInvalidArrow) || !strings.Contains(err.Error(), tt.open) || !strings.Contains(err.Error(), path) {
				t.Fatalf("OpenFile: %v, want ErrInvalidArrow naming the file and containing %q", err, tt.open)
			}
		})
	}
}

// FuzzOpenFileCorrupt changes bytes of the record batch's body of a small
// converted file (the columns' and the stored indexes' buffers): OpenFile
// must fail with an error or return a Dataset whose stored indexes are
// safe to use (codes in range), never panic. Damage to the metadata is
// FuzzOpenFileCorruptMetadata's (fbcheck_test.go): this one aims at the
// bodies, where the indexes' checks are.
func FuzzOpenFileCorrupt(f *testing.F) {
	var good bytes.Buffer
	// Enough rows that some text dictionaries store their values (format
	// 3: a dictionary batch each), whose bodies are fuzzed too.
	csv := generated(f, GenerateOptions{Rows: 600, Seed: 6})
	if _, err := Convert(context.Background(), bytes.NewReader(csv), int64(len(csv)), &good, ConvertOptions{}); err != nil {
		f.Fatal(err)
	}
	// The bodies of the dictionary batches and of the record batch: after
	// the schema message, before the end-of-stream marker and the footer.
	msgs, err := checkArrowMetadata(good.Bytes())
	if err != nil {
		f.Fatal(err)
	}
	type span struct{ start, len uint32 }
	var spans []span
	var total uint32
	for _, m := range msgs {
		if (m.header == fbHeaderRecordBatch || m.header == fbHeaderDictionaryBatch) && m.bodyLen > 0 {
			spans = append(spans, span{uint32(m.offset + m.metaLen), uint32(m.bodyLen)})
			total += uint32(m.bodyLen)
		}
	}
	// at maps a position in the bodies laid end to end to the file.
	at := func(pos uint32) uint32 {
		pos %= total
		for _, s := range spans {
			if pos < s.len {
				return s.start + pos
			}
			pos -= s.len
		}
		panic("unreachable")
	}
	dir := f.TempDir()
	goodPath := filepath.Join(dir, "good.arrow")
	if err := os.WriteFile(goodPath, good.Bytes(), 0o644); err != nil {
		f.Fatal(err)
	}
	d, err := OpenFile(goodPath)
	if err != nil {
		f.Fatal(err)
	}
	packed := 0
	for _, ix := range d.Indexes() {
		if ix.Text != nil && ix.Text.Packed() {
			packed++
		}
	}
	d.Close()
	if packed == 0 {
		f.Fatal("no stored text dictionary holds its values: the fuzzer would not reach them")
	}
	for _, off := range []uint32{0, 16, total / 3, total / 2, total - 600, total - 64, total - 8} {
		f.Add(off, byte(0xff), uint8(1))
		f.Add(off, byte(0x01), uint8(4))
	}
	f.Fuzz(func(t *testing.T, off uint32, val byte, n uint8) {
		data := bytes.Clone(good.Bytes())
		for k := uint32(0); k < uint32(n%16)+1; k++ {
			data[at(off+k)] ^= val
		}
		path := filepath.Join(dir, "fuzz.arrow")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := OpenFile(path)
		if err != nil {
			return
		}
		defer d.Close()
		for _, ix := range d.Indexes() {
			if ix.Bitmap != nil {
				for _, m := range ix.Bitmap.Bitmaps() {
					_ = m[len(m)-1]
				}
				_ = ix.Bitmap.Nulls()
			}
			if ix.Text != nil {
				for _, c := range ix.Text.Codes() {
					if c < -1 || int(c) >= ix.Text.Distinct() {
						t.Fatalf("code %d outside -1..%d", c, ix.Text.Distinct()-1)
					}
				}
				if ix.Text.Packed() {
					offs, data := ix.Text.PackedValues(nil)
					for k := range ix.Text.Distinct() {
						_ = data[offs[k]:offs[k+1]]
					}
				}
			}
		}
		// What Verify passes (what Locate uses) is safe to read, every
		// value of every column.
		if d.Verify() != nil {
			return
		}
		rec := d.Record()
		for i := range int(rec.NumCols()) {
			c := rec.Column(i)
			for r := range c.Len() {
				_ = c.ValueStr(r)
			}
		}
	})
}
