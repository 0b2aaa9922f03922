package columnar

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// dictArray builds a dictionary array over {"a", "b", "c"} with the given
// codes; rows in nulls are null whatever their code.
func dictArray(t *testing.T, codes []int16, nulls map[int]bool) arrow.Array {
	t.Helper()
	mem := memory.NewGoAllocator()
	ib := array.NewInt16Builder(mem)
	defer ib.Release()
	valid := make([]bool, len(codes))
	for i := range codes {
		valid[i] = !nulls[i]
	}
	ib.AppendValues(codes, valid)
	idx := ib.NewArray()
	defer idx.Release()
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues([]string{"a", "b", "c"}, nil)
	dict := sb.NewArray()
	defer dict.Release()
	typ := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	return array.NewDictionaryArray(typ, idx, dict)
}

// TestFromArrowDictionaryCodes checks FromArrow's check of a category
// column's codes: a code outside the dictionary in a non-null row is an
// error naming the row, in a null row it is never read and is accepted.
func TestFromArrowDictionaryCodes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		codes   []int16
		nulls   map[int]bool
		wantErr string
	}{
		{"in range", []int16{0, 2, 1, 0}, nil, ""},
		{"empty", []int16{}, nil, ""},
		{"too large", []int16{0, 1, 3, 2}, nil, "row 2 has dictionary code 3 outside 0..2"},
		{"negative", []int16{-1, 1}, nil, "row 0 has dictionary code -1 outside 0..2"},
		{"too large in a null row", []int16{0, 1000, 2}, map[int]bool{1: true}, ""},
		{"negative in a null row, too large after it", []int16{-5, 0, 7}, map[int]bool{0: true}, "row 2 has dictionary code 7 outside 0..2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arr := dictArray(t, tc.codes, tc.nulls)
			defer arr.Release()
			c, err := FromArrow("State", arr)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("FromArrow: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("FromArrow: %v, want an error containing %q", err, tc.wantErr)
			case err == nil && (c.Kind != KindCategory || c.N != len(tc.codes)):
				t.Fatalf("FromArrow gave kind %v, %d rows", c.Kind, c.N)
			}
		})
	}
}

// TestNewTextDict checks the checks of a stored text dictionary: codes
// from -1 (null) to distinct-1, and packed values whose offsets run from
// 0 to the end of their bytes without going back.
func TestNewTextDict(t *testing.T) {
	for _, tc := range []struct {
		name     string
		codes    []int32
		distinct int
		offs     []int32 // nil: codes only
		data     string
		wantErr  string
	}{
		{"codes", []int32{0, -1, 2, 1, 2}, 3, nil, "", ""},
		{"no rows", nil, 0, nil, "", ""},
		{"code too large", []int32{0, 1, 2, 3, 0}, 3, nil, "", "row 3 has code 3 outside -1..2"},
		{"code below -1", []int32{0, 1, -2}, 3, nil, "", "row 2 has code -2 outside -1..2"},
		{"largest code", []int32{0, math.MaxInt32}, 3, nil, "", "row 1 has code 2147483647 outside -1..2"},
		{"negative distinct", []int32{-1}, -1, nil, "", "-1 distinct values"},
		{"packed", []int32{1, 0, -1, 1}, 2, []int32{0, 4, 6}, "acmeco", ""},
		{"packed, too few offsets", []int32{1, 0}, 2, []int32{0, 3}, "acm", "2 packed offsets from 0 to 3 for 2 values in 3 bytes, want 3 from 0 to 3"},
		{"packed, not from 0", []int32{1, 0}, 2, []int32{1, 3, 5}, "acmeco", "want 3 from 0 to 6"},
		{"packed, short of the bytes", []int32{1, 0}, 2, []int32{0, 3, 5}, "acmecox", "want 3 from 0 to 7"},
		{"packed, going back", []int32{1, 0}, 2, []int32{0, 4, 2}, "ac", "packed value 1 ends at byte 2, before it starts at 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d *TextDict
			var err error
			if tc.offs == nil {
				d, err = NewTextDict(tc.codes, tc.distinct)
			} else {
				d, err = NewTextDictPacked(tc.codes, tc.distinct, tc.offs, []byte(tc.data))
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Packed() != (tc.offs != nil) {
				t.Fatalf("Packed() = %v", d.Packed())
			}
		})
	}
	// Packed values given are the ones gathers read: no copy is built.
	c := TextVector("Company", []string{"co", "acme", "", "co"})
	d, err := NewTextDictPacked([]int32{1, 0, -1, 1}, 2, []int32{0, 4, 6}, []byte("ACMECO"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetTextDictionary(d); err != nil {
		t.Fatal(err)
	}
	if offs, data := d.PackedValues(c); len(offs) != 3 || string(data) != "ACMECO" {
		t.Fatalf("PackedValues: %v %q, want the given ones", offs, data)
	}
}
