package dataset

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// goldenHashes holds the SHA-256 of the Arrow file Convert writes for each
// fixture of convertFixtures. The hashes were first recorded from the
// sequential converter before the parallel one replaced it, proving the
// output byte-identical, not merely equivalent; format version 2 added the
// stored indexes after the data columns, so the whole files changed then,
// and again with version 3's stored dictionary values (their data columns
// did not: TestConvertDataColumnsGolden). Run go test
// -update only for an intended format change (and bump FormatVersion
// with it).
const goldenHashes = "testdata/convert-golden.txt"

// convertFixture is one input of TestConvertGoldenHashes.
type convertFixture struct {
	name string
	csv  []byte
}

// convertFixtures returns inputs covering both header shapes, every quirk
// the reader handles, and files large enough to be split into many chunks.
func convertFixtures(t testing.TB) []convertFixture {
	t.Helper()
	var fx []convertFixture
	for _, name := range []string{"quirks", "bulk42", "legacy41"} {
		data, err := os.ReadFile(filepath.Join("testdata", "csv", name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		fx = append(fx, convertFixture{"testdata/" + name, data})
	}
	fx = append(fx,
		convertFixture{"sample", generated(t, SampleOptions())},
		convertFixture{"bulk42-30000", generated(t, GenerateOptions{Rows: 30000, Seed: 7})},
		convertFixture{"legacy41-bom-8000", generated(t, GenerateOptions{Rows: 8000, Seed: 3, Shape: ShapeLegacy41, BOM: true})},
	)
	// CR LF record ends throughout, a bare CR inside and outside quotes, no
	// final line end.
	crlf := bytes.ReplaceAll(generated(t, GenerateOptions{Rows: 3000, Seed: 11}), []byte("\n"), []byte("\r\n"))
	fx = append(fx, convertFixture{"crlf-3000", bytes.TrimSuffix(crlf, []byte("\r\n"))})

	r := minimalRow()
	quirky := []string{
		bulkHeader,
		row(with(r, ColAbstract, "\"bare\rCR and \"\"quotes\"\"\"", ColAwardAmount, "\"$1,234.50\"")),
		"",
		row(with(r, ColAbstract, "unquoted \"quote\" inside", ColState, "Ohio")),
		row(with(r, ColAwardTitle, "\"junk\"after", ColAgency, "NASA")),
		row(with(r, ColAwardYear, "20x4", ColProposalAwardDate, "2/30/2020", ColNumberEmployees, "  ")),
		"too,few,fields",
		row(with(r, ColCompany, "\xff\xfeBAD\x9b", ColAgency, "Dept\x80", ColContractEndDate, "2024-01-31 00:00:00")),
		row(with(r, ColAbstract, "\"multi\r\nline\nabstract\"", ColSolicitationYear, "2019.0")),
		"",
		"",
		row(with(r, ColCompany, "last")) + ",extra",
		row(with(r, ColCompany, "truncated")),
	}
	joined := strings.Join(quirky, "\n")
	fx = append(fx, convertFixture{"hand-quirks", []byte(joined[:len(joined)-5])})
	fx = append(fx, convertFixture{"hand-quirks-crlf", []byte(strings.ReplaceAll(joined, "\n", "\r\n") + "\r\n")})
	return fx
}

func TestConvertGoldenHashes(t *testing.T) {
	got := make(map[string]string)
	for _, f := range convertFixtures(t) {
		var out bytes.Buffer
		rep, err := Convert(context.Background(), bytes.NewReader(f.csv), int64(len(f.csv)), &out, ConvertOptions{})
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		sum := sha256.Sum256(out.Bytes())
		got[f.name] = fmt.Sprintf("%s rows=%d skipped=%d", hex.EncodeToString(sum[:]), rep.Rows, rep.Skipped)
	}
	checkGoldenHashes(t, goldenHashes, "# SHA-256 of Convert's Arrow output per fixture (see golden_test.go)", got)
}

// goldenDataHashes holds, per fixture, the SHA-256 of the data columns of
// the Arrow file Convert writes: every column's type and buffers, the
// schema's metadata and the index columns left out. Recorded from format
// version 1 (commit 171a8e4, before the index columns were added), it
// proves the data columns stay byte-identical when the file gains more.
const goldenDataHashes = "testdata/convert-data-golden.txt"

func TestConvertDataColumnsGolden(t *testing.T) {
	got := make(map[string]string)
	dir := t.TempDir()
	for i, f := range convertFixtures(t) {
		path := filepath.Join(dir, fmt.Sprintf("%d.arrow", i))
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Convert(context.Background(), bytes.NewReader(f.csv), int64(len(f.csv)), out, ConvertOptions{})
		out.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		d, err := OpenFile(path)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		h := sha256.New()
		rec := d.Record()
		for c := 0; c < int(rec.NumCols()); c++ {
			fmt.Fprintf(h, "%s %s\n", rec.ColumnName(c), rec.Column(c).DataType())
			hashArrayData(h, rec.Column(c).Data())
		}
		d.Close()
		got[f.name] = fmt.Sprintf("%s rows=%d skipped=%d", hex.EncodeToString(h.Sum(nil)), rep.Rows, rep.Skipped)
	}
	checkGoldenHashes(t, goldenDataHashes, "# SHA-256 of the data columns of Convert's Arrow output per fixture (see golden_test.go)", got)
}

// hashArrayData writes an array's length, offset, null count and buffers
// (children and dictionary included) to h.
func hashArrayData(h io.Writer, d arrow.ArrayData) {
	fmt.Fprintf(h, "len=%d off=%d nulls=%d bufs=%d\n", d.Len(), d.Offset(), d.NullN(), len(d.Buffers()))
	for _, b := range d.Buffers() {
		if b == nil {
			fmt.Fprintf(h, "nil\n")
			continue
		}
		fmt.Fprintf(h, "%d\n", b.Len())
		h.Write(b.Bytes())
	}
	for _, c := range d.Children() {
		hashArrayData(h, c)
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		hashArrayData(h, dict)
	}
}

// checkGoldenHashes compares got (fixture → hash line) with the golden
// file at path, rewriting it first under -update.
func checkGoldenHashes(t *testing.T, path, header string, got map[string]string) {
	t.Helper()
	if *update {
		var b strings.Builder
		b.WriteString(header + "\n")
		names := make([]string, 0, len(got))
		for n := range got {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(&b, "%s %s\n", n, got[n])
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	want := make(map[string]string)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		want[name] = rest
	}
	if len(want) != len(got) {
		t.Errorf("%s has %d fixtures, the test converts %d", path, len(want), len(got))
	}
	for name, g := range got {
		if want[name] != g {
			t.Errorf("%s: Arrow output %s, want %s", name, g, want[name])
		}
	}
}
