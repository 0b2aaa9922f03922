package columnar

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Kind is the logical type of a column as cells see it.
type Kind uint8

const (
	KindText     Kind = iota // utf8
	KindCategory             // dictionary<int16, utf8>
	KindInt                  // int64
	KindFloat                // float64
	KindDate                 // date32
)

func (k Kind) String() string {
	switch k {
	case KindText:
		return "text"
	case KindCategory:
		return "category"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindDate:
		return "date"
	}
	return "unknown"
}

// Vector is one column of a table: either a zero-copy view of an Arrow
// array or a column built by an operation (group keys, aggregates). Only the
// slice that matches kind is set. Rows are addressed 0..n-1.
type Vector struct {
	Name string
	Kind Kind
	N    int

	// Valid is an Arrow-style validity bitmap (bit set = value present),
	// starting at bit validOff; nil means no nulls.
	Valid    []byte
	ValidOff int

	// kindText: value i is data[Offs[i]:Offs[i+1]] (absolute offsets).
	Offs []int32
	Data []byte

	// kindCategory: value i is dict[Codes[i]]. dict holds distinct values
	// (duplicates in the file's dictionary are remapped at load).
	Codes []int16
	Dict  []string

	Ints   []int64   // kindInt
	Floats []float64 // kindFloat
	Days   []int32   // kindDate: days since 1970-01-01

	// aggName names the aggregation that produced a result column; it
	// disambiguates a result named like a key column.
	AggName string

	// Ordered marks a category column whose dictionary is in its sort
	// order (the bins of a Cut), not to be sorted alphabetically.
	Ordered bool

	// Bool marks an int column of 0 and 1 that stands for false and true
	// (a comparison's result): it sums and averages as numbers, and
	// prints, exports and compares as booleans.
	Bool bool

	// tdict caches a dictionary encoding of a text column (textdict.go).
	tdict textDictState

	// bindex caches a bitmap index of a category or int column (index.go).
	bindex bitIndexState

	// span caches IntSpan of an int column (index.go).
	span intSpanState
}

func (c *Vector) IsNull(i int) bool {
	if c.Valid == nil {
		return false
	}
	j := c.ValidOff + i
	return c.Valid[j>>3]&(1<<(uint(j)&7)) == 0
}

func (c *Vector) HasNulls() bool { return c.Valid != nil }

// TextBytes returns the bytes of a text value (no copy).
func (c *Vector) TextBytes(i int) []byte { return c.Data[c.Offs[i]:c.Offs[i+1]] }

// Str returns the value of a text or category column as a string ("" for null).
func (c *Vector) Str(i int) string {
	if c.IsNull(i) {
		return ""
	}
	switch c.Kind {
	case KindText:
		return string(c.TextBytes(i))
	case KindCategory:
		return c.Dict[c.Codes[i]]
	}
	return c.FormatValue(i)
}

// Float returns a numeric value as float64 (NaN for null or non-numeric).
func (c *Vector) Float(i int) float64 {
	if c.IsNull(i) {
		return math.NaN()
	}
	switch c.Kind {
	case KindInt:
		return float64(c.Ints[i])
	case KindFloat:
		return c.Floats[i]
	}
	return math.NaN()
}

// FormatValue renders value i the way Strings does: "" for null, dates as
// 2006-01-02, numbers in Go's shortest form.
func (c *Vector) FormatValue(i int) string {
	if c.IsNull(i) {
		return ""
	}
	switch c.Kind {
	case KindText, KindCategory:
		return c.Str(i)
	case KindInt:
		if c.Bool {
			return strconv.FormatBool(c.Ints[i] != 0)
		}
		return strconv.FormatInt(c.Ints[i], 10)
	case KindFloat:
		return fmt.Sprint(c.Floats[i])
	case KindDate:
		return DayTime(c.Days[i]).Format(time.DateOnly)
	}
	return ""
}

func DayTime(d int32) time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

func TimeDay(t time.Time) int32 {
	y, m, d := t.Date()
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func (c *Vector) Numeric() bool {
	return c.Kind == KindInt || c.Kind == KindFloat
}

func (c *Vector) Textual() bool { return c.Kind == KindText || c.Kind == KindCategory }

// FromArrow wraps an Arrow array without copying values. It accepts
// the types of the award_data schema and reports anything else.
func FromArrow(name string, arr arrow.Array) (*Vector, error) {
	c := &Vector{Name: name, N: arr.Len()}
	if arr.NullN() > 0 {
		c.Valid = arr.NullBitmapBytes()
		c.ValidOff = arr.Data().Offset()
	}
	switch a := arr.(type) {
	case *array.String:
		c.Kind = KindText
		c.Offs = a.ValueOffsets()
		if bufs := a.Data().Buffers(); len(bufs) > 2 && bufs[2] != nil {
			c.Data = bufs[2].Bytes()
		}
	case *array.Int64:
		c.Kind = KindInt
		c.Ints = a.Int64Values()
	case *array.Float64:
		c.Kind = KindFloat
		c.Floats = a.Float64Values()
	case *array.Date32:
		c.Kind = KindDate
		vals := a.Date32Values()
		c.Days = make([]int32, 0)
		if len(vals) > 0 {
			c.Days = date32AsInt32(vals)
		}
	case *array.Dictionary:
		c.Kind = KindCategory
		idx, ok := a.Indices().(*array.Int16)
		if !ok {
			return nil, fmt.Errorf("column %q: dictionary indices are %s, want int16", name, a.Indices().DataType())
		}
		dict, ok := a.Dictionary().(*array.String)
		if !ok {
			return nil, fmt.Errorf("column %q: dictionary values are %s, want utf8", name, a.Dictionary().DataType())
		}
		c.Codes, c.Dict = dedupeDictionary(idx.Int16Values(), dict, c)
		// The row-by-row check (a null row's code may be anything) only
		// when some code is out of range: the largest code alone takes a
		// fraction of its time, and every worker start checks all ~10
		// category columns.
		if maxUnsigned(c.Codes, 0) >= uint64(len(c.Dict)) {
			for i, k := range c.Codes {
				if (int(k) < 0 || int(k) >= len(c.Dict)) && !c.IsNull(i) {
					return nil, fmt.Errorf("column %q: row %d has dictionary code %d outside 0..%d", name, i, k, len(c.Dict)-1)
				}
			}
		}
	default:
		return nil, fmt.Errorf("column %q: unsupported Arrow type %s", name, arr.DataType())
	}
	return c, nil
}

// maxUnsigned returns the largest of code+plus over codes, each read as
// an unsigned number, so that a negative one (or one that overflows)
// counts as larger than any dictionary; 0 for none. Four running maxima
// let the loop run without waiting on one.
func maxUnsigned[T int16 | int32](codes []T, plus T) uint64 {
	var m0, m1, m2, m3 uint64
	i := 0
	for ; i+4 <= len(codes); i += 4 {
		m0 = max(m0, uint64(codes[i]+plus))
		m1 = max(m1, uint64(codes[i+1]+plus))
		m2 = max(m2, uint64(codes[i+2]+plus))
		m3 = max(m3, uint64(codes[i+3]+plus))
	}
	for ; i < len(codes); i++ {
		m0 = max(m0, uint64(codes[i]+plus))
	}
	return max(m0, m1, m2, m3)
}

// dedupeDictionary returns codes and a dictionary of distinct values. When
// the file's dictionary already holds distinct values (the normal case) the
// codes are used as they are; otherwise they are remapped into a copy.
// Codes of null rows are set to 0 in the copy; they are never read.
func dedupeDictionary(codes []int16, dict *array.String, c *Vector) ([]int16, []string) {
	values := make([]string, dict.Len())
	first := make(map[string]int16, dict.Len())
	remap := make([]int16, dict.Len())
	var out []string
	dup := false
	for i := range values {
		v := dict.Value(i)
		if dict.IsNull(i) {
			v = ""
		}
		if j, ok := first[v]; ok {
			remap[i] = j
			dup = true
			continue
		}
		first[v] = int16(len(out))
		remap[i] = int16(len(out))
		out = append(out, v)
	}
	if !dup {
		return codes, out
	}
	fixed := make([]int16, len(codes))
	for i, k := range codes {
		if c.IsNull(i) || int(k) < 0 || int(k) >= len(remap) {
			continue
		}
		fixed[i] = remap[k]
	}
	return fixed, out
}

// date32AsInt32 reinterprets Arrow date32 values (defined as int32) without copying.
func date32AsInt32(v []arrow.Date32) []int32 {
	return unsafe.Slice((*int32)(unsafe.Pointer(&v[0])), len(v))
}

// TextVector builds a text column from strings; "" becomes null.
func TextVector(name string, vals []string) *Vector {
	c := &Vector{Name: name, Kind: KindText, N: len(vals), Offs: make([]int32, len(vals)+1)}
	for i, v := range vals {
		c.Data = append(c.Data, v...)
		c.Offs[i+1] = int32(len(c.Data))
	}
	for i, v := range vals {
		if v == "" {
			c.SetNull(i)
		}
	}
	return c
}
