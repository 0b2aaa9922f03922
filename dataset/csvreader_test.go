package dataset

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

type csvRec struct {
	line      int64
	fields    []string
	malformed bool
}

// readAll reads every record with a reader whose initial buffer is bufSize
// bytes (small sizes exercise refills in the middle of fields).
func readAll(in string, bufSize int) ([]csvRec, error) {
	c := newCSVReader(strings.NewReader(in), bufSize)
	var out []csvRec
	for {
		fields, line, err := c.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		r := csvRec{line: line, malformed: c.malformed != ""}
		for _, f := range fields {
			r.fields = append(r.fields, string(f))
		}
		out = append(out, r)
	}
}

func TestCSVReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []csvRec
		err  string
	}{
		{"simple", "a,b\n1,2\n", []csvRec{{1, []string{"a", "b"}, false}, {2, []string{"1", "2"}, false}}, ""},
		{"CRLF", "a,b\r\n1,2\r\n", []csvRec{{1, []string{"a", "b"}, false}, {2, []string{"1", "2"}, false}}, ""},
		{"no final newline", "a,b\n1,2", []csvRec{{1, []string{"a", "b"}, false}, {2, []string{"1", "2"}, false}}, ""},
		{"empty fields", ",,\n", []csvRec{{1, []string{"", "", ""}, false}}, ""},
		{"quoted comma", `"a,b",c` + "\n", []csvRec{{1, []string{"a,b", "c"}, false}}, ""},
		{"escaped quotes", `"say ""hi""",x` + "\n", []csvRec{{1, []string{`say "hi"`, "x"}, false}}, ""},
		{"only escaped quote", `""""` + "\n", []csvRec{{1, []string{`"`}, false}}, ""},
		{"empty quoted", `"",x` + "\n", []csvRec{{1, []string{"", "x"}, false}}, ""},
		{"LF inside quotes", "\"l1\nl2\",x\r\nn,y\r\n", []csvRec{{1, []string{"l1\nl2", "x"}, false}, {3, []string{"n", "y"}, false}}, ""},
		{"CRLF inside quotes kept", "\"l1\r\nl2\",x\n", []csvRec{{1, []string{"l1\r\nl2", "x"}, false}}, ""},
		{"bare CR inside quotes", "\"a\rb\",x\r\n", []csvRec{{1, []string{"a\rb", "x"}, false}}, ""},
		{"bare CR in unquoted field", "a\rb,x\n", []csvRec{{1, []string{"a\rb", "x"}, false}}, ""},
		{"quote inside unquoted field", `ab"c,d` + "\n", []csvRec{{1, []string{`ab"c`, "d"}, false}}, ""},
		{"blank line", "a\n\nb\n", []csvRec{{1, []string{"a"}, false}, {2, []string{""}, false}, {3, []string{"b"}, false}}, ""},
		{"junk after closing quote", `"ab"c,d` + "\n", []csvRec{{1, []string{"abc", "d"}, true}}, ""},
		{"quoted last field at EOF", `a,"b"`, []csvRec{{1, []string{"a", "b"}, false}}, ""},
		{"quoted last field, CR at EOF", "a,\"b\"\r", []csvRec{{1, []string{"a", "b"}, false}}, ""},
		{"unquoted last field, CR at EOF", "a,b\r", []csvRec{{1, []string{"a", "b"}, false}}, ""},
		{"unterminated quote at EOF", "a,b\n1,\"never\nclosed\n", []csvRec{{1, []string{"a", "b"}, false}}, "line 2: quoted field is not closed"},
	}
	for _, tt := range tests {
		for _, size := range []int{1, 3, 7, 4096} {
			got, err := readAll(tt.in, size)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("%s (buf %d): err = %v, want %q", tt.name, size, err, tt.err)
				}
				var ut *errUnterminated
				if !errors.As(err, &ut) {
					t.Errorf("%s: err is %T, want *errUnterminated", tt.name, err)
				}
			} else if err != nil {
				t.Errorf("%s (buf %d): %v", tt.name, size, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s (buf %d):\n got %+v\nwant %+v", tt.name, size, got, tt.want)
			}
		}
	}
}

func TestCSVReaderRecordTooLong(t *testing.T) {
	in := "a\n\"" + strings.Repeat("x", maxRecordBytes+10)
	_, err := readAll(in, 4096)
	var tl *errRecordTooLong
	if !errors.As(err, &tl) || tl.line != 2 {
		t.Fatalf("err = %v, want a record-too-long error at line 2", err)
	}
}

// encodeCSV quotes fields the way the awards file does.
func encodeCSV(records [][]string, eol string) string {
	var b strings.Builder
	for _, rec := range records {
		for i, f := range rec {
			if i > 0 {
				b.WriteByte(',')
			}
			if f == "" || strings.ContainsAny(f, ",\"\r\n") {
				b.WriteString(`"` + strings.ReplaceAll(f, `"`, `""`) + `"`)
			} else {
				b.WriteString(f)
			}
		}
		b.WriteString(eol)
	}
	return b.String()
}

// FuzzCSVReader checks that any input is read without panics and that
// well-formed files written from arbitrary fields read back exactly.
func FuzzCSVReader(f *testing.F) {
	f.Add("a|b\nc|d", uint8(3), true)
	f.Add("x\r\ny|\"q\"|", uint8(1), false)
	f.Add("\xff\xfe|\r|\n", uint8(9), true)
	f.Fuzz(func(t *testing.T, s string, size uint8, crlf bool) {
		bufSize := int(size%64) + 1
		// Arbitrary bytes: must not panic, whatever the result.
		readAll(s, bufSize)

		// Round trip: records split on '\n', fields on '|'.
		var records [][]string
		for _, line := range strings.Split(s, "\n") {
			records = append(records, strings.Split(line, "|"))
		}
		eol := "\n"
		if crlf {
			eol = "\r\n"
		}
		got, err := readAll(encodeCSV(records, eol), bufSize)
		if err != nil {
			t.Fatalf("reading encoded records: %v", err)
		}
		if len(got) != len(records) {
			t.Fatalf("%d records, want %d", len(got), len(records))
		}
		line := int64(1)
		for i, r := range got {
			if !reflect.DeepEqual(r.fields, records[i]) || r.malformed {
				t.Fatalf("record %d = %q (malformed %v), want %q", i, r.fields, r.malformed, records[i])
			}
			if r.line != line {
				t.Fatalf("record %d at line %d, want %d", i, r.line, line)
			}
			for _, f := range records[i] {
				line += int64(strings.Count(f, "\n"))
			}
			line++
		}
	})
}
