package dataset

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// colBuilder accumulates one column in plain Go slices (no per-value
// allocation) and wraps them as an Arrow array at the end.
type colBuilder interface {
	// add appends a value; an empty field must go to addNull instead.
	add(v []byte, line int64)
	addNull()
	// reserve grows capacity for about rows more rows and bytes more bytes
	// of text.
	reserve(rows, bytes int)
	// textBytes is the text stored so far, for capacity estimates.
	textBytes() int
	finish() (arrow.Array, error)
}

// validAdder is implemented by the text builders: addValid is add for a
// value already known to be valid UTF-8.
type validAdder interface {
	addValid(v []byte, line int64)
}

// validity is a validity bitmap with its null count.
type validity struct {
	mem   *columnMemory
	bits  []byte
	n     int
	nulls int
}

func (v *validity) push(valid bool) {
	if v.n%8 == 0 {
		v.bits = append(v.bits, 0)
	}
	if valid {
		v.bits[v.n/8] |= 1 << (v.n % 8)
	} else {
		v.nulls++
	}
	v.n++
}

func (v *validity) reserve(rows int) {
	v.bits = grow(v.mem, v.bits, rows/8+1)
}

func (v *validity) buffer() *memory.Buffer {
	if v.nulls == 0 {
		return nil
	}
	return memory.NewBufferBytes(v.bits)
}

// utf8Fixer makes text valid UTF-8 and counts what it replaced, per column.
type utf8Fixer struct {
	report *LoadReport
	name   string
	buf    []byte
}

// fix returns v as valid UTF-8, replacing each invalid byte by U+FFFD and
// counting the replacements.
func (f *utf8Fixer) fix(v []byte, line int64) []byte {
	if utf8.Valid(v) {
		return v
	}
	f.buf = f.buf[:0]
	bad := int64(0)
	for len(v) > 0 {
		r, size := utf8.DecodeRune(v)
		if r == utf8.RuneError && size == 1 {
			f.buf = append(f.buf, "\uFFFD"...)
			bad++
		} else {
			f.buf = append(f.buf, v[:size]...)
		}
		v = v[size:]
	}
	f.report.InvalidUTF8Fields++
	f.report.InvalidUTF8Bytes += bad
	f.report.issue(f.name, line, f.buf).InvalidUTF8++
	return f.buf
}

type textBuilder struct {
	fix     utf8Fixer
	valid   validity
	offsets []int32
	data    []byte
	err     error
}

func newTextBuilder(name string, r *LoadReport, mem *columnMemory) *textBuilder {
	return &textBuilder{fix: utf8Fixer{report: r, name: name}, valid: validity{mem: mem}, offsets: []int32{0}}
}

func (b *textBuilder) add(v []byte, line int64) {
	b.addValid(b.fix.fix(v, line), line)
}

func (b *textBuilder) addValid(v []byte, line int64) {
	b.data = append(b.data, v...)
	if len(b.data) > math.MaxInt32 && b.err == nil {
		b.err = fmt.Errorf("column %q holds more than 2 GiB of text", b.fix.name)
	}
	b.offsets = append(b.offsets, int32(len(b.data)))
	b.valid.push(true)
}

func (b *textBuilder) addNull() {
	b.offsets = append(b.offsets, int32(len(b.data)))
	b.valid.push(false)
}

func (b *textBuilder) reserve(rows, bytes int) {
	b.offsets = grow(b.valid.mem, b.offsets, rows)
	b.data = grow(b.valid.mem, b.data, bytes)
	b.valid.reserve(rows)
}

func (b *textBuilder) textBytes() int { return len(b.data) }

func (b *textBuilder) finish() (arrow.Array, error) {
	if b.err != nil {
		return nil, b.err
	}
	n := len(b.offsets) - 1
	data := array.NewData(arrow.BinaryTypes.String, n,
		[]*memory.Buffer{b.valid.buffer(), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(b.offsets)), memory.NewBufferBytes(b.data)},
		nil, b.valid.nulls, 0)
	defer data.Release()
	return array.NewStringData(data), nil
}

// dictBuilder stores low-cardinality text as int16 indices into a
// dictionary of distinct values.
type dictBuilder struct {
	fix     utf8Fixer
	valid   validity
	indices []int16
	lookup  map[string]int16
	values  []string
}

func newDictBuilder(name string, r *LoadReport, mem *columnMemory) *dictBuilder {
	return &dictBuilder{fix: utf8Fixer{report: r, name: name}, valid: validity{mem: mem}, lookup: make(map[string]int16)}
}

func (b *dictBuilder) add(v []byte, line int64) {
	b.addValid(b.fix.fix(v, line), line)
}

func (b *dictBuilder) addValid(v []byte, line int64) {
	idx, ok := b.lookup[string(v)]
	if !ok {
		if len(b.values) > math.MaxInt16 {
			// The int16 index space is exhausted; the value cannot be stored.
			b.fix.report.issue(b.fix.name, line, v).Unparseable++
			b.addNull()
			return
		}
		idx = int16(len(b.values))
		s := string(v)
		b.values = append(b.values, s)
		b.lookup[s] = idx
	}
	b.indices = append(b.indices, idx)
	b.valid.push(true)
}

func (b *dictBuilder) addNull() {
	b.indices = append(b.indices, 0)
	b.valid.push(false)
}

func (b *dictBuilder) reserve(rows, _ int) {
	b.indices = grow(b.valid.mem, b.indices, rows)
	b.valid.reserve(rows)
}

func (b *dictBuilder) textBytes() int { return 0 }

func (b *dictBuilder) finish() (arrow.Array, error) {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	defer sb.Release()
	sb.AppendValues(b.values, nil)
	dict := sb.NewArray()
	defer dict.Release()
	idata := array.NewData(arrow.PrimitiveTypes.Int16, len(b.indices),
		[]*memory.Buffer{b.valid.buffer(), memory.NewBufferBytes(arrow.Int16Traits.CastToBytes(b.indices))},
		nil, b.valid.nulls, 0)
	defer idata.Release()
	indices := array.NewInt16Data(idata)
	defer indices.Release()
	return array.NewDictionaryArray(dictType, indices, dict), nil
}

// numBuilder stores int64, float64 or date32 values parsed from text.
type numBuilder[T int64 | float64 | int32] struct {
	report  *LoadReport
	name    string
	typ     arrow.DataType
	parse   func(v []byte, scratch []byte) (T, []byte, bool)
	scratch []byte
	valid   validity
	vals    []T
}

func (b *numBuilder[T]) add(v []byte, line int64) {
	x, scratch, ok := b.parse(v, b.scratch)
	b.scratch = scratch
	if !ok {
		if len(trimSpace(v)) > 0 {
			b.report.issue(b.name, line, v).Unparseable++
		}
		b.addNull()
		return
	}
	b.vals = append(b.vals, x)
	b.valid.push(true)
}

func (b *numBuilder[T]) addNull() {
	var zero T
	b.vals = append(b.vals, zero)
	b.valid.push(false)
}

func (b *numBuilder[T]) reserve(rows, _ int) {
	b.vals = grow(b.valid.mem, b.vals, rows)
	b.valid.reserve(rows)
}

func (b *numBuilder[T]) textBytes() int { return 0 }

func (b *numBuilder[T]) finish() (arrow.Array, error) {
	data := array.NewData(b.typ, len(b.vals),
		[]*memory.Buffer{b.valid.buffer(), memory.NewBufferBytes(castToBytes(b.vals))},
		nil, b.valid.nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

func castToBytes[T int64 | float64 | int32](s []T) []byte {
	switch v := any(s).(type) {
	case []int64:
		return arrow.Int64Traits.CastToBytes(v)
	case []float64:
		return arrow.Float64Traits.CastToBytes(v)
	case []int32:
		return arrow.Int32Traits.CastToBytes(v)
	}
	return nil
}

// newColBuilder returns the builder for a column of the given kind; its
// large buffers come from mem, which must outlive every use of the array
// it finishes.
func newColBuilder(name string, kind colKind, r *LoadReport, mem *columnMemory) colBuilder {
	valid := validity{mem: mem}
	switch kind {
	case kindDict:
		return newDictBuilder(name, r, mem)
	case kindInt:
		return &numBuilder[int64]{report: r, name: name, typ: arrow.PrimitiveTypes.Int64, valid: valid,
			parse: func(v, s []byte) (int64, []byte, bool) { x, ok := parseInt(v); return x, s, ok }}
	case kindFloat:
		return &numBuilder[float64]{report: r, name: name, typ: arrow.PrimitiveTypes.Float64, valid: valid, parse: parseAmount}
	case kindDate:
		return &numBuilder[int32]{report: r, name: name, typ: arrow.FixedWidthTypes.Date32, valid: valid,
			parse: func(v, s []byte) (int32, []byte, bool) { x, ok := parseDate(v); return x, s, ok }}
	default:
		return newTextBuilder(name, r, mem)
	}
}
