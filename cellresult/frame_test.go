package cellresult

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// table builds a decoded table representation as the sandbox's pipe
// hands it over: objects as maps, numbers as json.Number.
func table(t testing.TB, text string) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

const twoRows = `{"schema":{"fields":[{"name":"index","type":"integer"},{"name":"Agency","type":"any","constraints":{"enum":["DOE","NSF"]},"ordered":false},{"name":"Count","type":"integer","extDtype":"Int64"},{"name":"Amount","type":"number"},{"name":"Date","type":"datetime"}],"primaryKey":["index"],"pandas_version":"1.4.0"},
"data":[{"index":7,"Agency":"DOE","Count":9223372036854775807,"Amount":0.30000000000000004,"Date":"2020-01-02T00:00:00.000"},{"index":9,"Agency":null,"Count":null,"Amount":"-Infinity","Date":null}],
"frame":{"rows":40,"offset":7,"truncated":true}}`

// TestFrameOf reads table representations into frames: columns and their
// types, labels, exact values (numbers keep their text), the window and
// the next page; anything malformed gives no frame.
func TestFrameOf(t *testing.T) {
	f := frameOf(table(t, twoRows), 20)
	got, _ := json.Marshal(f)
	want := `{"columns":["Agency","Count","Amount","Date"],"types":["category","integer","number","datetime"],"index":[7,9],` +
		`"records":[{"Agency":"DOE","Amount":0.30000000000000004,"Count":9223372036854775807,"Date":"2020-01-02T00:00:00.000"},{"Agency":null,"Amount":"-Infinity","Count":null,"Date":null}],` +
		`"rows":40,"offset":7,"next_offset":9,"truncated":true,"note":"fewer rows than asked: a page of records is at most 2 MiB; page on from next_offset, or Select fewer columns (long text such as Abstract takes the most)"}`
	if string(got) != want {
		t.Errorf("frame\n%s\nwant\n%s", got, want)
	}
	if f := frameOf(json.RawMessage(twoRows), 1); f == nil || len(f.Records) != 1 || f.NextOffset != 8 || f.Note != "" {
		t.Errorf("raw JSON, one row: %+v", f)
	}
	if f := frameOf(table(t, twoRows), 20); f.Records[0]["Count"] != json.Number("9223372036854775807") {
		t.Errorf("the integer lost digits: %#v", f.Records[0]["Count"])
	}
	for name, bad := range map[string]string{
		"not an object":      `[1, 2]`,
		"no fields":          `{"schema":{"fields":[]},"data":[]}`,
		"field without name": `{"schema":{"fields":[{"type":"string"}]},"data":[]}`,
		"two of one name":    `{"schema":{"fields":[{"name":"a","type":"string"},{"name":"a","type":"string"}]},"data":[]}`,
		"nested value":       `{"schema":{"fields":[{"name":"a","type":"string"}]},"data":[{"a":{"b":1}}]}`,
		"array value":        `{"schema":{"fields":[{"name":"a","type":"string"}]},"data":[{"a":[1]}]}`,
		"huge exponent":      `{"schema":{"fields":[{"name":"a","type":"number"}]},"data":[{"a":1e1000000}]}`,
		"long digits":        `{"schema":{"fields":[{"name":"a","type":"number"}]},"data":[{"a":` + strings.Repeat("1", 41) + `}]}`,
		"extra keys":         `{"schema":{"fields":[{"name":"a","type":"string"}]},"data":[{"a":"x","b":"y"}]}`,
		"data not a list":    `{"schema":{"fields":[{"name":"a","type":"string"}]},"data":{"a":"x"}}`,
		"label not integer":  `{"schema":{"fields":[{"name":"index","type":"integer"},{"name":"a","type":"string"}],"primaryKey":["index"]},"data":[{"index":"x","a":"y"}]}`,
		"record not object":  `{"schema":{"fields":[{"name":"a","type":"string"}]},"data":["a"]}`,
	} {
		if f := frameOf(table(t, bad), 20); f != nil {
			t.Errorf("%s: read as %+v", name, f)
		}
	}
	if frameOf(json.RawMessage(`{`), 20) != nil || frameOf(json.RawMessage(strings.Repeat(" ", maxResourceBytes+1)), 20) != nil {
		t.Error("bad or oversized raw JSON read")
	}
}

// spoof is what a cell can send as its own table representation (its
// type's MIMEBundle returns any map it likes): rows × cols cells of one
// number text.
func spoof(rows, cols int, cell string) map[string]any {
	fields := []any{}
	for j := 0; j < cols; j++ {
		fields = append(fields, map[string]any{"name": fmt.Sprint("c", j), "type": "number"})
	}
	data := make([]any, rows)
	for i := range data {
		rec := make(map[string]any, cols)
		for j := 0; j < cols; j++ {
			rec[fmt.Sprint("c", j)] = json.Number(cell)
		}
		data[i] = rec
	}
	return map[string]any{"schema": map[string]any{"fields": fields}, "data": data}
}

// dosTable is the table of issue 29's denial of service: award_data's
// HTML markup with cells of 1e-1000000%, which the HTML parser that read
// frames back turned into big.Rat values of a million digits (~33 ms
// each; 150 columns × 10 rows took ~50 s of server CPU).
func dosTable(rows, cols int) string {
	var b strings.Builder
	b.WriteString("<div>\n<table class=\"dataframe\" border=\"1\">\n<thead>\n<tr style=\"text-align: right;\">\n<th></th>\n")
	for j := 0; j < cols; j++ {
		fmt.Fprintf(&b, "<th>c%d</th>\n", j)
	}
	b.WriteString("</tr>\n</thead>\n<tbody>\n")
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "<tr>\n<th>%d</th>\n", i)
		for j := 0; j < cols; j++ {
			b.WriteString("<td>1e-1000000%</td>\n")
		}
		b.WriteString("</tr>\n")
	}
	fmt.Fprintf(&b, "</tbody>\n</table>\n<p>%d rows × %d columns</p>\n</div>", rows, cols)
	return b.String()
}

// TestSpoofedTablesCostNothing measures the server's work on what a cell
// can hand it deterministically, by the memory it allocates (the old
// parser's cost was in allocation: each 1e-1000000% cell built a
// million-digit number, hundreds of KB). The HTML of issue 29's attack is
// never read: converting it allocates what a plain value does. A forged
// table representation is read within maxCells, its numbers never
// expanded: the work is bounded by the cells read, whatever the cells say.
func TestSpoofedTablesCostNothing(t *testing.T) {
	html := dosTable(10, 150)
	attack := &sandbox.Result{Success: true, Value: map[string]any{"text/plain": "x", "text/html": html}}
	plain := &sandbox.Result{Success: true, Value: map[string]any{"text/plain": "x"}}
	base := allocBytes(func() { New(plain, nil, MaxRows) })
	if got := allocBytes(func() { New(attack, nil, MaxRows) }); got > base+1024 {
		t.Errorf("the attack's HTML cost %d bytes of allocation, a plain value %d: the HTML is read", got, base)
	}
	if r := New(attack, nil, MaxRows); r.Frame != nil {
		t.Errorf("a frame was read from HTML: %+v", r.Frame)
	}

	forged := &sandbox.Result{Success: true, Value: map[string]any{"text/plain": "x", ResourceMIME: spoof(5000, 150, "1e-1000000")}}
	var r *Result
	got := allocBytes(func() { r = New(forged, nil, MaxRows) })
	if r.Frame == nil || len(r.Frame.Records)*150 > maxCells || !r.Frame.Truncated {
		t.Fatalf("the forged table: %d records of %d cells, truncated %v", len(r.Frame.Records), 150, r.Frame.Truncated)
	}
	// Each record read costs its map (~150 entries, under 12 KiB); the
	// 1e-1000000 cells are kept as their text.
	if perRecord := got / int64(len(r.Frame.Records)); perRecord > 12<<10 {
		t.Errorf("%d bytes allocated per record read", perRecord)
	}
	if r.Frame.Records[0]["c0"] != json.Number("1e-1000000") {
		t.Errorf("a number's text changed: %#v", r.Frame.Records[0]["c0"])
	}
}

// allocBytes is the memory fn allocates (the minimum of three runs, so
// that a background allocation of the test binary cannot inflate it).
func allocBytes(fn func()) int64 {
	best := int64(-1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		fn()
		runtime.ReadMemStats(&after)
		if n := int64(after.TotalAlloc - before.TotalAlloc); best < 0 || n < best {
			best = n
		}
	}
	return best
}

// BenchmarkNewAttack is the CPU the server spends on issue 29's attack
// (one cell whose value is a 150-column table of 1e-1000000% cells) and on
// the largest forged table representation it reads.
func BenchmarkNewAttack(b *testing.B) {
	for _, c := range []struct {
		name string
		res  *sandbox.Result
	}{
		{"html-10x150", &sandbox.Result{Success: true, Value: map[string]any{"text/plain": "x", "text/html": dosTable(10, 150)}}},
		{"forged-5000x150", &sandbox.Result{Success: true, Value: map[string]any{"text/plain": "x", ResourceMIME: spoof(5000, 150, "1e-1000000")}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			// CPU time, not wall time: on a loaded machine the two differ
			// by the time other processes run.
			var before, after syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			for b.Loop() {
				New(c.res, nil, MaxRows)
			}
			syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestDisplayedFrame: a displayed frame's records come as Display.Frame,
// not among its JSON forms; other JSON forms stay in Data.
func TestDisplayedFrame(t *testing.T) {
	d := sandbox.Display{Data: map[string]any{
		"text/plain":       "table",
		ResourceMIME:       table(t, twoRows),
		"application/json": map[string]any{"n": json.Number("9007199254740993")},
	}}
	r := New(&sandbox.Result{Success: true}, []sandbox.Display{d}, 5)
	got := r.Displays[0]
	if got.Frame == nil || len(got.Frame.Records) != 2 || got.Data[ResourceMIME] != nil {
		t.Fatalf("display %+v", got)
	}
	if b, _ := json.Marshal(got.Data["application/json"]); string(b) != `{"n":9007199254740993}` {
		t.Errorf("application/json %s", b)
	}
	if strings.Join(got.MIMETypes, ",") != "application/json,application/vnd.dataresource+json,text/plain" {
		t.Errorf("mime types %v", got.MIMETypes)
	}
}

// FuzzFrameOf: whatever JSON a cell sends as its table representation,
// reading it never panics, and a frame read from it keeps its bounds.
func FuzzFrameOf(f *testing.F) {
	f.Add([]byte(twoRows), uint16(1))
	f.Add([]byte(`{"schema":{"fields":[{"name":"a","type":"any","constraints":{"enum":[1]}}],"primaryKey":["a"]},"data":[{"a":1}],"frame":{"rows":-5,"offset":"x"}}`), uint16(3))
	f.Add([]byte(`{"schema":{"fields":[{"name":"index","type":"integer"}],"primaryKey":["index"]},"data":[{"index":1e400}]}`), uint16(2))
	f.Fuzz(func(t *testing.T, b []byte, rows uint16) {
		maxRows := 1 + int(rows)%MaxRows
		fr := frameOf(json.RawMessage(b), maxRows)
		if fr == nil {
			return
		}
		if len(fr.Records) > maxRows || len(fr.Columns) != len(fr.Types) || (fr.Index != nil && len(fr.Index) != len(fr.Records)) {
			t.Fatalf("frame out of bounds: %d records (max %d), %d columns, %d types, %d labels", len(fr.Records), maxRows, len(fr.Columns), len(fr.Types), len(fr.Index))
		}
		if _, err := json.Marshal(fr); err != nil {
			t.Fatalf("the frame does not encode: %v", err)
		}
	})
}
