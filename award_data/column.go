package award_data

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// kind is the logical type of a column as cells see it.
type kind uint8

const (
	kindText     kind = iota // utf8
	kindCategory             // dictionary<int16, utf8>
	kindInt                  // int64
	kindFloat                // float64
	kindDate                 // date32
)

func (k kind) String() string {
	switch k {
	case kindText:
		return "text"
	case kindCategory:
		return "category"
	case kindInt:
		return "int"
	case kindFloat:
		return "float"
	case kindDate:
		return "date"
	}
	return "unknown"
}

// vector is one column of a table: either a zero-copy view of an Arrow
// array or a column built by an operation (group keys, aggregates). Only the
// slice that matches kind is set. Rows are addressed 0..n-1.
type vector struct {
	name string
	kind kind
	n    int

	// valid is an Arrow-style validity bitmap (bit set = value present),
	// starting at bit validOff; nil means no nulls.
	valid    []byte
	validOff int

	// kindText: value i is data[offs[i]:offs[i+1]] (absolute offsets).
	offs []int32
	data []byte

	// kindCategory: value i is dict[codes[i]]. dict holds distinct values
	// (duplicates in the file's dictionary are remapped at load).
	codes []int16
	dict  []string

	ints   []int64   // kindInt
	floats []float64 // kindFloat
	days   []int32   // kindDate: days since 1970-01-01

	// aggName names the aggregation that produced a result column; it
	// disambiguates a result named like a key column.
	aggName string

	// tdict caches a dictionary encoding of a text column (textdict.go).
	tdict textDictState

	// bindex caches a bitmap index of a category or int column (index.go).
	bindex bitIndexState
}

func (c *vector) isNull(i int) bool {
	if c.valid == nil {
		return false
	}
	j := c.validOff + i
	return c.valid[j>>3]&(1<<(uint(j)&7)) == 0
}

func (c *vector) hasNulls() bool { return c.valid != nil }

// textBytes returns the bytes of a text value (no copy).
func (c *vector) textBytes(i int) []byte { return c.data[c.offs[i]:c.offs[i+1]] }

// str returns the value of a text or category column as a string ("" for null).
func (c *vector) str(i int) string {
	if c.isNull(i) {
		return ""
	}
	switch c.kind {
	case kindText:
		return string(c.textBytes(i))
	case kindCategory:
		return c.dict[c.codes[i]]
	}
	return c.format(i)
}

// float returns a numeric value as float64 (NaN for null or non-numeric).
func (c *vector) float(i int) float64 {
	if c.isNull(i) {
		return math.NaN()
	}
	switch c.kind {
	case kindInt:
		return float64(c.ints[i])
	case kindFloat:
		return c.floats[i]
	}
	return math.NaN()
}

// format renders value i the way Strings does: "" for null, dates as
// 2006-01-02, numbers in Go's shortest form.
func (c *vector) format(i int) string {
	if c.isNull(i) {
		return ""
	}
	switch c.kind {
	case kindText, kindCategory:
		return c.str(i)
	case kindInt:
		return fmt.Sprint(c.ints[i])
	case kindFloat:
		return fmt.Sprint(c.floats[i])
	case kindDate:
		return dayTime(c.days[i]).Format(time.DateOnly)
	}
	return ""
}

func dayTime(d int32) time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

func timeDay(t time.Time) int32 {
	y, m, d := t.Date()
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func (c *vector) numeric() bool {
	return c.kind == kindInt || c.kind == kindFloat
}

func (c *vector) textual() bool { return c.kind == kindText || c.kind == kindCategory }

// columnFromArrow wraps an Arrow array without copying values. It accepts
// the types of the award_data schema and reports anything else.
func columnFromArrow(name string, arr arrow.Array) (*vector, error) {
	c := &vector{name: name, n: arr.Len()}
	if arr.NullN() > 0 {
		c.valid = arr.NullBitmapBytes()
		c.validOff = arr.Data().Offset()
	}
	switch a := arr.(type) {
	case *array.String:
		c.kind = kindText
		c.offs = a.ValueOffsets()
		if bufs := a.Data().Buffers(); len(bufs) > 2 && bufs[2] != nil {
			c.data = bufs[2].Bytes()
		}
	case *array.Int64:
		c.kind = kindInt
		c.ints = a.Int64Values()
	case *array.Float64:
		c.kind = kindFloat
		c.floats = a.Float64Values()
	case *array.Date32:
		c.kind = kindDate
		vals := a.Date32Values()
		c.days = make([]int32, 0)
		if len(vals) > 0 {
			c.days = date32AsInt32(vals)
		}
	case *array.Dictionary:
		c.kind = kindCategory
		idx, ok := a.Indices().(*array.Int16)
		if !ok {
			return nil, fmt.Errorf("column %q: dictionary indices are %s, want int16", name, a.Indices().DataType())
		}
		dict, ok := a.Dictionary().(*array.String)
		if !ok {
			return nil, fmt.Errorf("column %q: dictionary values are %s, want utf8", name, a.Dictionary().DataType())
		}
		c.codes, c.dict = dedupeDictionary(idx.Int16Values(), dict, c)
		for i, k := range c.codes {
			if (int(k) < 0 || int(k) >= len(c.dict)) && !c.isNull(i) {
				return nil, fmt.Errorf("column %q: row %d has dictionary code %d outside 0..%d", name, i, k, len(c.dict)-1)
			}
		}
	default:
		return nil, fmt.Errorf("column %q: unsupported Arrow type %s", name, arr.DataType())
	}
	return c, nil
}

// dedupeDictionary returns codes and a dictionary of distinct values. When
// the file's dictionary already holds distinct values (the normal case) the
// codes are used as they are; otherwise they are remapped into a copy.
// Codes of null rows are set to 0 in the copy; they are never read.
func dedupeDictionary(codes []int16, dict *array.String, c *vector) ([]int16, []string) {
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
		if c.isNull(i) || int(k) < 0 || int(k) >= len(remap) {
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
