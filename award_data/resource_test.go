package award_data

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// exactFrame is a frame with a column of every kind holding the values
// that are hard to carry exactly: the extremes of int64 and float64, the
// floats JSON has no number for, -0, subnormals, text that needs
// escaping or is long or not UTF-8, dates before 1970, and nulls.
func exactFrame() Frame {
	ints := []int64{math.MinInt64, math.MaxInt64, 0, -1, 1 << 53, 1<<53 + 1, 0, 42}
	floats := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64, math.Copysign(0, -1), 0.1, 0}
	floats2 := []float64{1e21, 1e-7, 123456789.12345678, 1 << 53, -2.2250738585072014e-308, 1e20, 0.30000000000000004, 148309}
	texts := []string{
		strings.Repeat("long abstract text é ", 5000),
		"quote \" backslash \\ tab \t newline \n cr \r nul \x00 unit \x1f bell \b feed \f",
		"é漢字🙂 \u2028 \u2029 <&>",
		"invalid \xff\xfe utf-8 \xc3",
		"", // null
		"plain",
		" leading space",
		"{\"json\": [1, 2]}",
	}
	n := len(ints)
	iv := &columnar.Vector{Name: "i", Kind: columnar.KindInt, N: n, Ints: ints}
	iv.SetNull(6)
	fv := &columnar.Vector{Name: "f", Kind: columnar.KindFloat, N: n, Floats: floats}
	fv.SetNull(7)
	fv2 := &columnar.Vector{Name: "g", Kind: columnar.KindFloat, N: n, Floats: floats2}
	tv := &columnar.Vector{Name: "t", Kind: columnar.KindText, N: n, Offs: make([]int32, n+1)}
	for i, s := range texts {
		tv.Data = append(tv.Data, s...)
		tv.Offs[i+1] = int32(len(tv.Data))
	}
	tv.SetNull(4)
	cv := &columnar.Vector{Name: "c", Kind: columnar.KindCategory, N: n, Dict: []string{"Phase I", "Phase II", `odd "one"`}, Codes: []int16{0, 1, 2, 0, 1, 2, 0, 0}}
	cv.SetNull(3)
	dv := &columnar.Vector{Name: "d", Kind: columnar.KindDate, N: n, Days: []int32{0, -1, -719162, 2932896, columnar.TimeDay(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)), 0, 19000, 1}}
	dv.SetNull(5)
	return frameOf(columnar.NewTable([]*columnar.Vector{iv, fv, fv2, tv, cv, dv}, false))
}

// decodeResource decodes a table representation as a reader would: JSON
// numbers as their text.
func decodeResource(t *testing.T, b []byte) map[string]any {
	t.Helper()
	if !json.Valid(b) {
		t.Fatalf("not valid JSON: %.300s", b)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var r map[string]any
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDataResourceExact checks every value of the table representation
// against the column it came from: integers digit for digit, floats to the
// bit (NaN and the infinities as their strings), text as encoding/json
// writes it, dates to the day, nulls as null.
func TestDataResourceExact(t *testing.T) {
	f := exactFrame()
	SetRecordWindow(0, 100)
	defer SetRecordWindow(0, 0)
	r := decodeResource(t, f.dataResource())
	data := r["data"].([]any)
	if len(data) != f.Len() {
		t.Fatalf("%d records, want %d", len(data), f.Len())
	}
	for k, rec := range data {
		rec := rec.(map[string]any)
		if rec["index"] != json.Number(strconv.Itoa(k)) {
			t.Errorf("row %d: index %v", k, rec["index"])
		}
		for _, ci := range f.cols {
			c := f.t.Cols[ci]
			checkExact(t, c, k, rec[c.Name])
		}
	}
}

func checkExact(t *testing.T, c *columnar.Vector, i int, got any) {
	t.Helper()
	where := c.Name + "[" + strconv.Itoa(i) + "]"
	if c.IsNull(i) {
		if got != nil {
			t.Errorf("%s: %#v, want null", where, got)
		}
		return
	}
	switch c.Kind {
	case columnar.KindInt:
		if got != json.Number(strconv.FormatInt(c.Ints[i], 10)) {
			t.Errorf("%s: %#v, want %d", where, got, c.Ints[i])
		}
	case columnar.KindFloat:
		v := c.Floats[i]
		switch {
		case math.IsNaN(v):
			if got != "NaN" {
				t.Errorf("%s: %#v, want \"NaN\"", where, got)
			}
		case math.IsInf(v, 0):
			want := map[bool]string{true: "Infinity", false: "-Infinity"}[v > 0]
			if got != want {
				t.Errorf("%s: %#v, want %q", where, got, want)
			}
		default:
			n, ok := got.(json.Number)
			back, err := strconv.ParseFloat(string(n), 64)
			if !ok || err != nil || math.Float64bits(back) != math.Float64bits(v) || !strings.ContainsAny(string(n), ".e") {
				t.Errorf("%s: %#v, want a float that reads back as %v", where, got, v)
			}
		}
	case columnar.KindDate:
		want := columnar.DayTime(c.Days[i]).Format("2006-01-02") + "T00:00:00.000"
		if got != want {
			t.Errorf("%s: %#v, want %q", where, got, want)
		}
	default:
		enc, _ := json.Marshal(c.Str(i))
		var want string
		json.Unmarshal(enc, &want)
		if got != want {
			t.Errorf("%s: %.80q, want %.80q", where, got, want)
		}
	}
}

// TestDataResourceSchema checks the fields pandas reads: types, the
// category's values, the index and the version.
func TestDataResourceSchema(t *testing.T) {
	r := decodeResource(t, exactFrame().dataResource())
	schema := r["schema"].(map[string]any)
	got, _ := json.Marshal(schema)
	want := `{"fields":[{"name":"index","type":"integer"},{"extDtype":"Int64","name":"i","type":"integer"},{"name":"f","type":"number"},{"name":"g","type":"number"},{"name":"t","type":"string"},{"constraints":{"enum":["Phase I","Phase II","odd \"one\""]},"name":"c","ordered":false,"type":"any"},{"name":"d","type":"datetime"}],"pandas_version":"1.4.0","primaryKey":["index"]}`
	if string(got) != want {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
	frame, _ := json.Marshal(r["frame"])
	if string(frame) != `{"offset":0,"rows":8,"truncated":false}` {
		t.Errorf("frame %s", frame)
	}
}

// TestDataResourceWindow checks which rows the representation carries:
// the display settings' rows by default, SetRecordWindow's otherwise,
// fewer when they would pass the size limit, and the labels the tables
// print (positions in the data file for award rows).
func TestDataResourceWindow(t *testing.T) {
	loadFixture(t)
	defer SetRecordWindow(0, 0)
	big := strings.Repeat("x", 700<<10)
	mid := strings.Repeat("y", 100<<10)
	cases := []struct {
		name      string
		f         Frame
		offset    int
		limit     int
		index     []int
		truncated bool
	}{
		{"default 20 rows", Select("Company"), 0, 0, seq(0, 20), true},
		{"display rows", Select("Company").Display(DisplayOptions{Rows: 3}), 0, 0, seq(0, 3), true},
		{"window", Select("Company"), 5, 3, seq(5, 8), true},
		{"file positions", Where("Phase", "==", "Phase II").Select("Company").Slice(0, 2), 0, 0, nil, false},
		{"last page", Select("Company").Head(10), 8, 5, seq(8, 10), false},
		{"past the end", Select("Company").Head(10), 50, 5, []int{}, false},
		{"bytes of a window", NewFrame(Col("t", []string{big, big, big, big})), 0, 4, seq(0, 2), true},
		{"bytes by default", NewFrame(Col("t", []string{mid, mid, mid, mid})), 0, 0, seq(0, 2), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := SetRecordWindow(c.offset, c.limit); err != nil {
				t.Fatal(err)
			}
			b := c.f.dataResource()
			if limit := map[bool]int{true: maxDefaultResourceBytes, false: maxResourceBytes}[c.limit == 0]; len(b) > limit {
				t.Errorf("%d bytes, over the %d limit", len(b), limit)
			}
			r := decodeResource(t, b)
			var index []int
			for _, rec := range r["data"].([]any) {
				n, _ := strconv.Atoi(string(rec.(map[string]any)["index"].(json.Number)))
				index = append(index, n)
			}
			want := c.index
			if want == nil { // award rows: their positions in the file
				for k := 0; k < c.f.Len(); k++ {
					want = append(want, c.f.row(k))
				}
			}
			if strconv.Quote(fmtInts(index)) != strconv.Quote(fmtInts(want)) {
				t.Errorf("index %v, want %v", index, want)
			}
			fr := r["frame"].(map[string]any)
			if fr["truncated"] != c.truncated || fr["rows"] != json.Number(strconv.Itoa(c.f.Len())) || fr["offset"] != json.Number(strconv.Itoa(min(c.offset, c.f.Len()))) {
				t.Errorf("frame %v, want truncated %v, rows %d, offset %d", fr, c.truncated, c.f.Len(), c.offset)
			}
		})
	}
}

func seq(from, to int) []int {
	out := []int{}
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func fmtInts(v []int) string {
	var b strings.Builder
	for _, x := range v {
		b.WriteString(strconv.Itoa(x) + " ")
	}
	return b.String()
}

// TestDataResourceAbsent: frames whose rows cannot be keyed by column
// name, or whose schema alone is over the limit, carry no representation;
// their text and HTML tables are unchanged.
func TestDataResourceAbsent(t *testing.T) {
	loadFixture(t)
	long := strings.Repeat("n", 1<<20)
	for name, f := range map[string]Frame{
		"same name twice": Select("Company", "Company"),
		"schema too big":  NewFrame(Col(long+"1", []int{1}), Col(long+"2", []int{1}), Col(long+"3", []int{1})),
		"error":           Where("Agncy", "==", "x"),
	} {
		t.Run(name, func(t *testing.T) {
			if f.Err() == nil && len(f.Columns()) < 2 {
				t.Fatalf("the case does not build: %v", f.Columns())
			}
			b := f.MIMEBundle()
			if _, ok := b[dataResourceMIME]; ok {
				t.Errorf("has a table representation")
			}
			if _, ok := b["text/plain"]; !ok {
				t.Errorf("no text")
			}
		})
	}
}

func TestSetRecordWindowBounds(t *testing.T) {
	defer SetRecordWindow(0, 0)
	for _, w := range [][2]int{{-1, 0}, {0, -1}, {0, maxRecordRows + 1}} {
		if err := SetRecordWindow(w[0], w[1]); err == nil || !strings.Contains(err.Error(), "SetRecordWindow") {
			t.Errorf("SetRecordWindow(%d, %d): %v", w[0], w[1], err)
		}
	}
	if err := SetRecordWindow(0, maxRecordRows); err != nil {
		t.Error(err)
	}
}

// FuzzJSONText checks the string encoder against encoding/json.
// FuzzJSONFloat checks that every float64 comes back to the bit.
func FuzzJSONFloat(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, math.MaxFloat64, 148309} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		b := appendJSONFloat(nil, v)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			var s string
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatalf("%v: %s", v, b)
			}
			back, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(back) != math.IsNaN(v) || (!math.IsNaN(v) && back != v) {
				t.Errorf("%v: %s reads back as %v", v, b, back)
			}
			return
		}
		var back float64
		if err := json.Unmarshal(b, &back); err != nil || math.Float64bits(back) != bits {
			t.Errorf("%v (%x): %s reads back as %v (%v)", v, bits, b, back, err)
		}
	})
}
