package dataset

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Indexes stored in the Arrow file.
//
// What a query engine would otherwise build the first time a session uses
// a column — the bitmap index of a category or small-range int column
// (columnar.BitIndex) and the dictionary encoding of a text column that
// is usually grouped or sorted on (columnar.TextDict) — is built once by
// Convert and written after the data columns, so every session maps it
// like the data instead of building it (issue 14: the first query in a
// fresh kernel costs about what the second does).
//
// Each index is one more field of the record batch, recognised by its
// field metadata (a CSV column can never carry field metadata), after all
// data columns:
//
//   - a bitmap index is a struct of boolean children "0", "1", ... (one
//     bitmap each, the rows of code k, or of value ≤ base+k for an int
//     column) and "nulls" when the column has nulls;
//   - a text dictionary is an int32 column: each row's code, the
//     alphabetical rank of its value, -1 for null. Since format 3 it is
//     dictionary-encoded, as Arrow has it, when its distinct values are
//     few enough to pack (columnar.TextDict's bounds; Company, City and
//     Topic Code at full scale): the codes index the distinct values in
//     code order, which the query engine reads group names from. A
//     session then maps them instead of packing its own copy (~4 ms and
//     0.8 MB of heap per worker at full scale).
//
// Dataset.Record and Dataset.Schema leave them out; Dataset.Indexes
// returns them, zero-copy.

// Field metadata keys of an index field.
const (
	// MetaIndexOf names the data column an index field indexes.
	MetaIndexOf = "sbir-kernel.index_of"
	// MetaIndexKind is "bitmap" or "text_dictionary".
	MetaIndexKind = "sbir-kernel.index_kind"
	// MetaIndexBase is the value of bitmap 0 of an int column's index.
	MetaIndexBase = "sbir-kernel.index_base"
	// MetaIndexCounts lists the rows in each bitmap, comma-separated.
	MetaIndexCounts = "sbir-kernel.index_counts"
	// MetaIndexDistinct is the number of distinct values of a text dictionary.
	MetaIndexDistinct = "sbir-kernel.index_distinct"
)

// Index kinds (MetaIndexKind).
const (
	indexBitmap   = "bitmap"
	indexTextDict = "text_dictionary"
)

// textDictColumns are the text columns whose dictionary encoding Convert
// stores: the ones analysts group and sort by. Each costs conversion time
// (Company ~45 ms of CPU at full scale, UEI ~30, City and Topic Code
// ~10 each; BenchmarkBuildIndexes), so identifiers (UEI, Duns), titles,
// abstracts and contacts are left to be encoded on first use.
var textDictColumns = []string{ColCompany, ColCity, ColTopicCode}

// Index is one index stored in the Arrow file, its memory in the mapping.
// Exactly one of Bitmap and Text is set.
type Index struct {
	Column string             // the data column it indexes
	Bitmap *columnar.BitIndex // a category or int column's bitmap index
	Text   *columnar.TextDict // a text column's dictionary encoding
}

// buildIndexes builds the indexes of the converted columns, in parallel,
// and returns them as fields and arrays to write after the data columns.
func buildIndexes(fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array, error) {
	type job struct {
		col  int
		text bool
	}
	var jobs []job
	for i, f := range fields {
		if i >= len(canonical) {
			break // extra CSV columns: no index
		}
		switch canonical[i].kind {
		case kindDict, kindInt:
			jobs = append(jobs, job{col: i})
		case kindText:
			for _, name := range textDictColumns {
				if f.Name == name {
					jobs = append(jobs, job{col: i, text: true})
				}
			}
		}
	}
	outFields := make([]arrow.Field, len(jobs))
	outCols := make([]arrow.Array, len(jobs))
	errs := make([]error, len(jobs))
	// The text dictionaries (hashing every value) dominate; bitmap indexes
	// take ~1 ms each and are parallel inside. Run the jobs on as many
	// goroutines as there are cores, longest first.
	next := make(chan int, len(jobs))
	for k, j := range jobs {
		if j.text {
			next <- k
		}
	}
	for k, j := range jobs {
		if !j.text {
			next <- k
		}
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				j := jobs[k]
				f := fields[j.col]
				v, err := columnar.FromArrow(f.Name, cols[j.col])
				if err != nil {
					errs[k] = err
					continue
				}
				if j.text {
					outFields[k], outCols[k] = textDictField(f.Name, v, columnar.BuildTextDict(v))
				} else if ix := columnar.BuildBitIndex(v); ix != nil {
					outFields[k], outCols[k] = bitmapField(f.Name, ix)
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, c := range outCols {
			if c != nil {
				c.Release()
			}
		}
		return nil, nil, fmt.Errorf("building indexes: %w", err)
	}
	// Columns without an index (too many distinct values) leave gaps.
	var fs []arrow.Field
	var cs []arrow.Array
	for k := range jobs {
		if outCols[k] != nil {
			fs = append(fs, outFields[k])
			cs = append(cs, outCols[k])
		}
	}
	return fs, cs, nil
}

// indexFieldName is the field name of an index; readers go by the field
// metadata, the name is for people looking at the file.
func indexFieldName(column, kind string) string {
	return "sbir-kernel." + kind + ": " + column
}

func bitmapField(column string, ix *columnar.BitIndex) (arrow.Field, arrow.Array) {
	maps := ix.Bitmaps()
	n := ix.Rows()
	children := make([]arrow.Field, 0, len(maps)+1)
	data := make([]arrow.ArrayData, 0, len(maps)+1)
	add := func(name string, words []uint64) {
		children = append(children, arrow.Field{Name: name, Type: arrow.FixedWidthTypes.Boolean})
		data = append(data, array.NewData(arrow.FixedWidthTypes.Boolean, n,
			[]*memory.Buffer{nil, memory.NewBufferBytes(wordBytes(words))}, nil, 0, 0))
	}
	for k, m := range maps {
		add(strconv.Itoa(k), m)
	}
	if nulls := ix.Nulls(); nulls != nil {
		add("nulls", nulls)
	}
	counts := make([]string, len(ix.Counts()))
	for k, c := range ix.Counts() {
		counts[k] = strconv.Itoa(c)
	}
	typ := arrow.StructOf(children...)
	arr := array.NewStructData(array.NewData(typ, n, []*memory.Buffer{nil}, data, 0, 0))
	for _, d := range data {
		d.Release()
	}
	md := arrow.NewMetadata(
		[]string{MetaIndexOf, MetaIndexKind, MetaIndexBase, MetaIndexCounts},
		[]string{column, indexBitmap, strconv.FormatInt(ix.Base(), 10), strings.Join(counts, ",")})
	return arrow.Field{Name: indexFieldName(column, indexBitmap), Type: typ, Metadata: md}, arr
}

// textDictField stores d, the dictionary of text column c: each row's
// code, and when they are few enough to pack (columnar.TextDict's
// bounds) the distinct values in code order, which the query engine reads
// group names from (format 3). With them the field is dictionary-encoded
// as Arrow has it: the codes index the values, a null row's code is -1.
// Without them it holds the codes alone.
func textDictField(column string, c *columnar.Vector, d *columnar.TextDict) (arrow.Field, arrow.Array) {
	codes := d.Codes()
	var b []byte
	if len(codes) > 0 {
		b = unsafe.Slice((*byte)(unsafe.Pointer(&codes[0])), 4*len(codes))
	}
	md := arrow.NewMetadata(
		[]string{MetaIndexOf, MetaIndexKind, MetaIndexDistinct},
		[]string{column, indexTextDict, strconv.Itoa(d.Distinct())})
	name := indexFieldName(column, indexTextDict)
	offs, data := d.PackedValues(c)
	if offs == nil {
		arr := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(codes),
			[]*memory.Buffer{nil, memory.NewBufferBytes(b)}, nil, 0, 0))
		return arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int32, Metadata: md}, arr
	}
	var valid *memory.Buffer
	nulls := 0
	for _, k := range codes {
		nulls += columnar.B2I(k < 0)
	}
	if nulls > 0 {
		bits := make([]byte, (len(codes)+7)/8)
		for i, k := range codes {
			if k >= 0 {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
		valid = memory.NewBufferBytes(bits)
	}
	values := array.NewStringData(array.NewData(arrow.BinaryTypes.String, d.Distinct(),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(data)}, nil, 0, 0))
	defer values.Release()
	typ := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	idx := array.NewData(arrow.PrimitiveTypes.Int32, len(codes), []*memory.Buffer{valid, memory.NewBufferBytes(b)}, nil, nulls, 0)
	defer idx.Release()
	dictData := array.NewData(typ, len(codes), idx.Buffers(), nil, nulls, 0)
	dictData.SetDictionary(values.Data())
	defer dictData.Release()
	return arrow.Field{Name: name, Type: typ, Metadata: md}, array.NewDictionaryData(dictData)
}

// wordBytes views words as bytes (little-endian, as Arrow's bitmaps).
func wordBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
}

// isIndexField reports whether f is an index written by buildIndexes.
func isIndexField(f arrow.Field) bool { return f.HasMetadata() && f.Metadata.FindKey(MetaIndexOf) >= 0 }

// readIndex decodes index field f, array arr, of a file of n rows. The
// bitmaps and codes stay in the mapping.
func readIndex(f arrow.Field, arr arrow.Array, n int) (Index, error) {
	column, _ := f.Metadata.GetValue(MetaIndexOf)
	kind, _ := f.Metadata.GetValue(MetaIndexKind)
	ix := Index{Column: column}
	// A text dictionary with its values marks the null rows (code -1).
	_, packed := arr.(*array.Dictionary)
	if arr.Len() != n || (arr.NullN() != 0 && !packed) {
		return ix, fmt.Errorf("index %q: %d rows and %d nulls, want %d rows and none", f.Name, arr.Len(), arr.NullN(), n)
	}
	switch kind {
	case indexBitmap:
		st, ok := arr.(*array.Struct)
		if !ok {
			return ix, fmt.Errorf("index %q is %s, want a struct of bitmaps", f.Name, arr.DataType())
		}
		base, err := strconv.ParseInt(metaValue(f, MetaIndexBase), 10, 64)
		if err != nil {
			return ix, fmt.Errorf("index %q: base: %w", f.Name, err)
		}
		var counts []int
		for _, s := range strings.Split(metaValue(f, MetaIndexCounts), ",") {
			c, err := strconv.Atoi(s)
			if err != nil {
				return ix, fmt.Errorf("index %q: counts: %w", f.Name, err)
			}
			counts = append(counts, c)
		}
		var maps [][]uint64
		var nulls []uint64
		for k := 0; k < st.NumField(); k++ {
			words, err := bitmapWords(st.Field(k), n)
			if err != nil {
				return ix, fmt.Errorf("index %q: bitmap %d: %w", f.Name, k, err)
			}
			if st.DataType().(*arrow.StructType).Field(k).Name == "nulls" {
				nulls = words
				continue
			}
			maps = append(maps, words)
		}
		if ix.Bitmap, err = columnar.NewBitIndex(n, maps, counts, nulls, base); err != nil {
			return ix, fmt.Errorf("index %q: %w", f.Name, err)
		}
	case indexTextDict:
		distinct, err := strconv.Atoi(metaValue(f, MetaIndexDistinct))
		if err != nil || distinct < 0 {
			return ix, fmt.Errorf("index %q: distinct values %q", f.Name, metaValue(f, MetaIndexDistinct))
		}
		if ix.Text, err = readTextDict(f, arr, distinct); err != nil {
			return ix, fmt.Errorf("index %q: %w", f.Name, err)
		}
	default:
		return ix, fmt.Errorf("index %q: unknown kind %q", f.Name, kind)
	}
	return ix, nil
}

// readTextDict decodes a text dictionary field: int32 codes, or the codes
// indexing the packed values (textDictField), both left in the mapping.
func readTextDict(f arrow.Field, arr arrow.Array, distinct int) (*columnar.TextDict, error) {
	switch a := arr.(type) {
	case *array.Int32:
		return columnar.NewTextDict(a.Int32Values(), distinct)
	case *array.Dictionary:
		codes, ok := a.Indices().(*array.Int32)
		values, ok2 := a.Dictionary().(*array.String)
		if !ok || !ok2 || a.Data().Offset() != 0 || values.Data().Offset() != 0 || values.NullN() != 0 || values.Len() != distinct {
			return nil, fmt.Errorf("is %s of %d values, want int32 codes of %d distinct utf8 values", arr.DataType(), a.Dictionary().Len(), distinct)
		}
		// The query engine reads the codes alone (-1 for null); the
		// validity bitmap is for other readers of the file.
		offs := values.ValueOffsets()
		var data []byte
		if bufs := values.Data().Buffers(); len(bufs) > 2 && bufs[2] != nil {
			data = bufs[2].Bytes()
		}
		if len(offs) > 0 && int(offs[len(offs)-1]) <= len(data) {
			data = data[:offs[len(offs)-1]] // not the buffer's padding
		}
		return columnar.NewTextDictPacked(codes.Int32Values(), distinct, offs, data)
	}
	return nil, fmt.Errorf("is %s, want int32 codes", arr.DataType())
}

func metaValue(f arrow.Field, key string) string {
	v, _ := f.Metadata.GetValue(key)
	return v
}

// bitmapWords returns a boolean array's bits as the words of a bitmap of
// n rows, without copying. Arrow pads buffers to 8 bytes, so the last
// word is readable even when the buffer's length stops short of it.
func bitmapWords(a arrow.Array, n int) ([]uint64, error) {
	b, ok := a.(*array.Boolean)
	if !ok || a.Len() != n || a.NullN() != 0 || a.Data().Offset() != 0 {
		return nil, fmt.Errorf("want %d booleans without nulls or offset, got %s of %d", n, a.DataType(), a.Len())
	}
	bufs := b.Data().Buffers()
	if len(bufs) < 2 || bufs[1] == nil {
		return nil, errors.New("no data buffer")
	}
	bytes := bufs[1].Bytes()
	w := columnar.WordCount(n)
	if w == 0 {
		return []uint64{}, nil
	}
	if cap(bytes) < 8*w || len(bytes) < (n+7)/8 {
		return nil, fmt.Errorf("%d bytes for %d rows", len(bytes), n)
	}
	bytes = bytes[:8*w]
	p := unsafe.Pointer(unsafe.SliceData(bytes))
	if uintptr(p)%8 != 0 {
		return nil, errors.New("bitmap not aligned to 8 bytes")
	}
	return unsafe.Slice((*uint64)(p), w), nil
}
