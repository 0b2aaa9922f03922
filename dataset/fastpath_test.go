package dataset

import (
	"bytes"
	"context"
	"reflect"
	"testing"
	"unicode/utf8"
)

// parseResult is everything csvReader.parse decides about one record.
type parseResult struct {
	n         int
	ok        bool
	err       string
	spans     []span
	scratch   string
	malformed string
}

func parseWith(data []byte, atEOF bool, ref bool) parseResult {
	c := &csvReader{}
	var n int
	var ok bool
	var err error
	if ref {
		n, ok, err = c.parseRef(data, atEOF)
	} else {
		n, ok, err = c.parse(data, atEOF)
	}
	r := parseResult{n: n, ok: ok, spans: append([]span(nil), c.spans...), scratch: string(c.scratch), malformed: c.malformed}
	if err != nil {
		r.err = err.Error()
	}
	if !ok || err != nil {
		// What parse leaves behind for an incomplete record is unused.
		r.spans, r.scratch, r.malformed = nil, "", ""
	}
	return r
}

// FuzzParseMatchesReference checks the record parser against the
// reference one on arbitrary input, record by record, at EOF or not.
func FuzzParseMatchesReference(f *testing.F) {
	f.Add([]byte("a,b,c\nd,\"e\"\"f\",g\r\n"))
	f.Add([]byte("\"x\"junk,y\r\n\"open"))
	f.Add([]byte("plain field with spaces and a \" quote,12345678901234567890,\r\r\n"))
	f.Add([]byte(",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n"))
	f.Add([]byte("\"a\rb\"\r"))
	f.Add([]byte("an unquoted field longer than thirty-two bytes, then another one that ends the record here\nx,y\n"))
	f.Add([]byte("forty bytes of unquoted text without a separator until the very end\r"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, atEOF := range []bool{false, true} {
			for off := 0; off <= len(data); {
				got := parseWith(data[off:], atEOF, false)
				want := parseWith(data[off:], atEOF, true)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("at %d (EOF %v) of %q:\n got %+v\nwant %+v", off, atEOF, data, got, want)
				}
				if !got.ok || got.err != "" || got.n == 0 {
					break
				}
				off += got.n
			}
		}
	})
}

// convertBoth converts in with the reference converter and with the
// pipeline under tune, and fails if the files or reports differ.
func convertBoth(t *testing.T, in []byte, tune tuning) {
	t.Helper()
	var want, got bytes.Buffer
	wantRep, wantErr := referenceConvert(context.Background(), bytes.NewReader(in), int64(len(in)), &want, ConvertOptions{})
	mem := &columnMemory{}
	defer mem.release()
	gotRep, gotErr := convert(context.Background(), bytes.NewReader(in), int64(len(in)), &got, ConvertOptions{}, tune, mem)
	if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
		t.Fatalf("tuning %+v: error %v, reference %v", tune, gotErr, wantErr)
	}
	if wantErr != nil {
		return
	}
	if !reflect.DeepEqual(gotRep, wantRep) {
		t.Fatalf("tuning %+v: report\n%+v\nreference\n%+v", tune, gotRep, wantRep)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("tuning %+v: Arrow files differ (%d bytes, reference %d)", tune, got.Len(), want.Len())
	}
}

// tunings split input into many small batches and vary the number of
// column workers.
var tunings = []tuning{
	{batchBytes: 1, workers: 1, buffers: 2},
	{batchBytes: 7, workers: 2, buffers: 3},
	{batchBytes: 64, workers: 3, buffers: 2},
	{batchBytes: 4096, workers: 2, buffers: 8},
}

// TestConvertMatchesReference converts the golden fixtures with tiny
// batches and several worker counts: every split must give the reference
// output.
func TestConvertMatchesReference(t *testing.T) {
	for _, fx := range convertFixtures(t) {
		if len(fx.csv) > 2<<20 && testing.Short() {
			continue
		}
		t.Run(fx.name, func(t *testing.T) {
			for _, tune := range tunings {
				if tune.batchBytes < 64 && len(fx.csv) > 1<<20 {
					continue // one read per byte: too slow for the big files
				}
				convertBoth(t, fx.csv, tune)
			}
			convertBoth(t, fx.csv, defaultTuning())
		})
	}
}

// FuzzConvertMatchesReference feeds arbitrary records after a valid header
// (and as the whole file) through the pipeline and the reference.
func FuzzConvertMatchesReference(f *testing.F) {
	f.Add([]byte(row(minimalRow()) + "\n"))
	f.Add([]byte(row(with(minimalRow(), ColAbstract, "\"a\r\nb\"\"c\"", ColAwardAmount, "\"$1,000.00\"")) + "\r\n\n" + row(with(minimalRow(), ColState, "\xff")) + "\r\n,,\n"))
	f.Add([]byte("\"unterminated\n"))
	f.Add([]byte(row(with(minimalRow(), ColAwardTitle, "\"x\"y", ColAwardYear, "two")) + "\n" + row(minimalRow())))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, in := range [][]byte{append([]byte(bulkHeader+"\n"), body...), body} {
			for _, tune := range tunings {
				convertBoth(t, in, tune)
			}
		}
	})
}

// FuzzIndexSep checks the word-at-a-time and the long-field separator
// search against a byte loop, from every start offset.
func FuzzIndexSep(f *testing.F) {
	f.Add([]byte("short,fields\nand a long one of more than thirty-two bytes before its comma, then\nmore"))
	f.Add([]byte("no separator at all in these many, many bytes... well, one"))
	f.Add(bytes.Repeat([]byte("x"), 100))
	f.Fuzz(func(t *testing.T, data []byte) {
		for i := 0; i <= len(data); i++ {
			want := len(data)
			for k := i; k < len(data); k++ {
				if data[k] == ',' || data[k] == '\n' {
					want = k
					break
				}
			}
			if got := indexSep(data, i); got != want {
				t.Fatalf("indexSep(%q, %d) = %d, want %d", data, i, got, want)
			}
		}
	})
}

// FuzzValidUTF8 checks the fast UTF-8 check against utf8.Valid.
func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("plain ASCII text that is longer than thirty-two bytes, é, \xff"))
	f.Add([]byte("\xe2\x82\xac and then many more ascii bytes after the euro sign here"))
	f.Add([]byte("0123456789012345678901234567890\xf0\x9f\x98\x80 emoji straddling a block"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for off := 0; off < len(b) && off < 40; off++ {
			if got, want := validUTF8(b[off:]), utf8.Valid(b[off:]); got != want {
				t.Fatalf("validUTF8(%q) = %v, want %v", b[off:], got, want)
			}
		}
	})
}
