package dataset

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A file changed after Convert wrote it (a flipped byte on disk, a stray
// write) made every worker start, or every cell, panic in arrow-go with a
// Go stack trace, and Locate kept using it. What arrow-go and the query
// engine read without bounds checks is checked at two depths:
//
//   - OpenFile (every worker's start): every buffer long enough for its
//     rows, the first and last string offsets within their text, and the
//     whole of each category dictionary (a few hundred values); O(columns).
//   - Verify (Locate, once per process, before it uses a cached file):
//     besides, every string offset (non-decreasing) and every dictionary
//     index (within its dictionary); O(rows), about 10 ms on the
//     full-scale file's pages in memory (BenchmarkVerify).
//
// A file failing either is not used: OpenFile fails naming the column,
// and Locate converts the CSV again.

// checkDepth says how much of the data a check reads.
type checkDepth int

const (
	checkShape checkDepth = iota // buffers' sizes, the ends of offsets
	checkRows                    // every offset and dictionary index too
)

// validateColumns checks the columns of rec to depth.
func validateColumns(rec arrow.RecordBatch, depth checkDepth) error {
	for i, f := range rec.Schema().Fields() {
		if err := validateData(rec.Column(i).Data(), depth); err != nil {
			return fmt.Errorf("column %q: %w", f.Name, err)
		}
	}
	return nil
}

// validateData checks one array's data, and its children's and
// dictionary's.
func validateData(d arrow.ArrayData, depth checkDepth) error {
	n, off := d.Len(), d.Offset()
	if n < 0 || off < 0 {
		return fmt.Errorf("length %d at offset %d", n, off)
	}
	bufs := d.Buffers()
	if len(bufs) == 0 {
		return fmt.Errorf("no buffers")
	}
	if v := bufs[0]; v != nil && v.Len()*8 < off+n {
		return fmt.Errorf("validity bitmap of %d bytes for %d rows", v.Len(), off+n)
	} else if v == nil && d.NullN() > 0 {
		return fmt.Errorf("%d nulls without a validity bitmap", d.NullN())
	}
	switch t := d.DataType().(type) {
	case *arrow.StringType:
		return validateOffsets(bufs, off, n, depth)
	case *arrow.DictionaryType: // before FixedWidthDataType, which it is too
		return validateDictionary(d, t, depth)
	case *arrow.BooleanType:
		return bufferFits(bufs, 1, (off+n+7)/8)
	case arrow.FixedWidthDataType:
		return bufferFits(bufs, 1, (off+n)*t.BitWidth()/8)
	case *arrow.StructType:
		for k, c := range d.Children() {
			if c.Len() < off+n {
				return fmt.Errorf("field %q: %d rows, want %d", t.Field(k).Name, c.Len(), off+n)
			}
			if err := validateData(c, depth); err != nil {
				return fmt.Errorf("field %q: %w", t.Field(k).Name, err)
			}
		}
		return nil
	}
	return fmt.Errorf("unexpected type %s", d.DataType())
}

// bufferFits checks that buffer i holds at least size bytes.
func bufferFits(bufs []*memory.Buffer, i, size int) error {
	if size == 0 {
		return nil
	}
	if i >= len(bufs) || bufs[i] == nil {
		return fmt.Errorf("no values buffer")
	}
	if bufs[i].Len() < size {
		return fmt.Errorf("values buffer of %d bytes, want %d", bufs[i].Len(), size)
	}
	return nil
}

// validateOffsets checks a utf8 array's off+n+1 offsets: the first not
// negative, the last within the text, and, with checkRows, each not below
// the one before.
func validateOffsets(bufs []*memory.Buffer, off, n int, depth checkDepth) error {
	if n == 0 {
		return nil
	}
	if err := bufferFits(bufs, 1, 4*(off+n+1)); err != nil {
		return fmt.Errorf("offsets: %w", err)
	}
	if !aligned(bufs[1].Bytes(), 4) {
		return fmt.Errorf("offsets not aligned to 4 bytes")
	}
	text := 0
	if len(bufs) > 2 && bufs[2] != nil {
		text = bufs[2].Len()
	}
	offsets := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+n+1]
	first, last := offsets[0], offsets[n]
	if first < 0 || first > last || int(last) > text {
		return fmt.Errorf("string offsets from %d to %d, outside the %d bytes of text", first, last, text)
	}
	if depth < checkRows {
		return nil
	}
	prev := first
	for i, o := range offsets {
		if o < prev {
			return fmt.Errorf("row %d: string offsets decrease (%d after %d)", off+i-1, o, prev)
		}
		prev = o
	}
	return nil
}

// validateDictionary checks a dictionary array's values (all of them: a
// dictionary is small, and the engine reads every value of a category
// column's at a worker's start) and, with checkRows, that every valid
// row's index points into them.
func validateDictionary(d arrow.ArrayData, t *arrow.DictionaryType, depth checkDepth) error {
	dict := d.Dictionary()
	if dict == nil {
		return fmt.Errorf("dictionary column without a dictionary")
	}
	if err := validateData(dict, checkRows); err != nil {
		return fmt.Errorf("dictionary: %w", err)
	}
	n, off := d.Len(), d.Offset()
	bufs := d.Buffers()
	width := t.IndexType.(arrow.FixedWidthDataType).BitWidth() / 8
	if err := bufferFits(bufs, 1, (off+n)*width); err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	if depth < checkRows || n == 0 {
		return nil
	}
	b, size := bufs[1].Bytes(), int64(dict.Len())
	if !aligned(b, width) {
		return fmt.Errorf("indices not aligned to %d bytes", width)
	}
	var valid []byte
	if bufs[0] != nil {
		valid = bufs[0].Bytes()
	}
	bad := -1
	switch width {
	case 1:
		bad = outOfRange(arrow.Int8Traits.CastFromBytes(b)[off:off+n], size, valid, off)
	case 2:
		bad = outOfRange(arrow.Int16Traits.CastFromBytes(b)[off:off+n], size, valid, off)
	case 4:
		bad = outOfRange(arrow.Int32Traits.CastFromBytes(b)[off:off+n], size, valid, off)
	default:
		bad = outOfRange(arrow.Int64Traits.CastFromBytes(b)[off:off+n], size, valid, off)
	}
	if bad >= 0 {
		return fmt.Errorf("row %d: dictionary index outside its %d values", off+bad, size)
	}
	return nil
}

// outOfRange returns the first of indices, a valid row (by the validity
// bitmap valid, from bit off; nil: all valid), not in [0, size), or -1.
func outOfRange[T int8 | int16 | int32 | int64](indices []T, size int64, valid []byte, off int) int {
	for i, ix := range indices {
		if (int64(ix) < 0 || int64(ix) >= size) && (valid == nil || bitutil.BitIsSet(valid, off+i)) {
			return i
		}
	}
	return -1
}

// aligned reports whether b starts on a multiple of width bytes, as Arrow
// buffers do (8 bytes in an IPC file): the checks read them as typed
// slices.
func aligned(b []byte, width int) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(width) == 0
}
