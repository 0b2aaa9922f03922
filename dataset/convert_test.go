package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/csv")

func TestConvertBothHeaderShapes(t *testing.T) {
	legacyHeader := strings.Replace(strings.Replace(bulkHeader, "UEI,", "", 1), "Woman Owned", "Women Owned", 1)
	legacyRow := strings.TrimSuffix(row(with(minimalRow(), ColWomanOwned, "Y")), "")
	// Drop the UEI field (index 18) from the 42-field row.
	fields := strings.Split(legacyRow, ",")
	legacyRow = strings.Join(append(fields[:18:18], fields[19:]...), ",")

	tests := []struct {
		name    string
		csv     string
		shape   HeaderShape
		missing []string
	}{
		{"bulk-42", bulkHeader + "\n" + row(with(minimalRow(), ColWomanOwned, "Y", ColUEI, "ABC123")) + "\n", ShapeBulk42, nil},
		{"legacy-41", legacyHeader + "\r\n" + legacyRow + "\r\n", ShapeLegacy41, []string{ColUEI}},
		{"BOM", "\uFEFF" + bulkHeader + "\n" + row(with(minimalRow(), ColWomanOwned, "Y", ColUEI, "ABC123")) + "\n", ShapeBulk42, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, d := convertString(t, tt.csv)
			if rep.HeaderShape != tt.shape || rep.Rows != 1 {
				t.Fatalf("shape %s rows %d, want %s 1", rep.HeaderShape, rep.Rows, tt.shape)
			}
			if !equalStrings(rep.MissingColumns, tt.missing) {
				t.Errorf("missing columns %q, want %q", rep.MissingColumns, tt.missing)
			}
			if rep.BOM != strings.HasPrefix(tt.csv, "\uFEFF") {
				t.Errorf("BOM = %v", rep.BOM)
			}
			if got, ok := text(t, col(t, d, ColWomanOwned), 0); !ok || got != "Y" {
				t.Errorf("Woman Owned = %q, %v; want Y", got, ok)
			}
			uei := col(t, d, ColUEI)
			if tt.shape == ShapeLegacy41 {
				if uei.NullN() != 1 {
					t.Errorf("UEI in the 41-column shape: %d nulls, want all null", uei.NullN())
				}
			} else if v, _ := text(t, uei, 0); v != "ABC123" {
				t.Errorf("UEI = %q", v)
			}
			if c := col(t, d, ColCompany); c.(*array.String).Value(0) != "ACME INC" {
				t.Errorf("Company = %q (BOM not stripped?)", c.(*array.String).Value(0))
			}
			if !d.Schema().Field(0).Equal(Schema().Field(0)) || len(d.Schema().Fields()) != 42 {
				t.Errorf("schema = %s", d.Schema())
			}
		})
	}
}

func TestConvertTypedValues(t *testing.T) {
	csv := bulkHeader + "\r\n" +
		row(with(minimalRow(), ColAwardAmount, `"$69,731.00"`, ColProposalAwardDate, "5/7/2024", ColContractEndDate, "2024-10-06",
			ColNumberEmployees, "9999", ColSolicitationYear, "2023", ColState, "California", ColHUBZoneOwned, "U")) + "\r\n" +
		row(with(minimalRow(), ColAwardAmount, "148309.0000", ColAwardYear, "1983", ColAbstract, `"multi`+"\r\nline\rwith \"\"quotes\"\"\"")) + "\r\n"
	rep, d := convertString(t, csv)
	if rep.Rows != 2 || rep.Lines != 4 {
		t.Fatalf("rows %d lines %d, want 2 and 4: %s", rep.Rows, rep.Lines, rep.Summary())
	}
	amount := col(t, d, ColAwardAmount).(*array.Float64)
	if amount.Value(0) != 69731 || amount.Value(1) != 148309 {
		t.Errorf("amounts = %v", amount)
	}
	dates := col(t, d, ColProposalAwardDate).(*array.Date32)
	if got := dates.Value(0).ToTime().Format("2006-01-02"); got != "2024-05-07" {
		t.Errorf("Proposal Award Date = %s", got)
	}
	if !dates.IsNull(1) {
		t.Errorf("empty date is not null")
	}
	if got := col(t, d, ColContractEndDate).(*array.Date32).Value(0).ToTime().Format("2006-01-02"); got != "2024-10-06" {
		t.Errorf("Contract End Date = %s", got)
	}
	years := col(t, d, ColAwardYear).(*array.Int64)
	if years.Value(0) != 2024 || years.Value(1) != 1983 {
		t.Errorf("years = %v", years)
	}
	if e := col(t, d, ColNumberEmployees).(*array.Int64); e.Value(0) != 9999 || !e.IsNull(1) {
		t.Errorf("employees = %v", e)
	}
	abs, _ := text(t, col(t, d, ColAbstract), 1)
	if abs != "multi\r\nline\rwith \"quotes\"" {
		t.Errorf("abstract = %q: CR, CR LF and quotes must be kept exactly", abs)
	}
	if s, _ := text(t, col(t, d, ColState), 0); s != "California" {
		t.Errorf("state = %q", s)
	}
	if f, _ := text(t, col(t, d, ColHUBZoneOwned), 0); f != "U" {
		t.Errorf("HUBZone = %q", f)
	}
	if _, ok := col(t, d, ColAgency).DataType().(*arrow.DictionaryType); !ok {
		t.Errorf("Agency is %s, want a dictionary", col(t, d, ColAgency).DataType())
	}
}

// TestConvertBadInput covers every kind of bad input the loader must
// survive or refuse clearly.
// badInputCase is a CSV Convert is given and what it must make of it.
type badInputCase struct {
	name  string
	csv   string
	err   string // substring of the error; "" means success
	check func(t *testing.T, rep *LoadReport, d *Dataset)
}

func TestConvertBadInput(t *testing.T) {
	var tests []badInputCase
	for _, cases := range [][]badInputCase{badHeaderCases(), badRecordCases(), badValueCases(), unusualLayoutCases()} {
		tests = append(tests, cases...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			rep, err := Convert(context.Background(), strings.NewReader(tt.csv), int64(len(tt.csv)), &out, ConvertOptions{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v\nwant it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			path := writeFile(t, filepath.Join(t.TempDir(), "t.arrow"), out.String())
			d, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if d.Report().Rows != rep.Rows || d.NumRows() != int(rep.Rows) {
				t.Errorf("stored report rows %d, dataset %d, returned %d", d.Report().Rows, d.NumRows(), rep.Rows)
			}
			tt.check(t, rep, d)
		})
	}
}

// badHeaderCases are files that are not awards CSVs, or have no records.
func badHeaderCases() []badInputCase {
	return []badInputCase{
		{
			name: "unknown header",
			csv:  "name,value,when\nx,1,2\n",
			err:  `not an SBIR awards CSV: starts with name,value,when; the header has no "Company", "Award Title", "Agency", "Phase", "Program", "Award Year", "Award Amount" columns`,
		},
		{
			name: "some core columns missing",
			csv:  "Company,Award Title,Agency,Phase,Program\nx,y,z,Phase I,SBIR\n",
			err:  `the header has no "Award Year", "Award Amount" columns`,
		},
		{
			name: "HTML page",
			csv:  "<!DOCTYPE html>\n<html><body>Maintenance</body></html>\n",
			err:  "not an SBIR awards CSV: starts with <!DOCTYPE html>",
		},
		{
			name: "empty file",
			csv:  "",
			err:  "not an SBIR awards CSV: the file is empty",
		},
		{
			name: "header only",
			csv:  bulkHeader + "\r\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if rep.Rows != 0 || d.NumRows() != 0 || len(d.Schema().Fields()) != 42 {
					t.Errorf("rows %d/%d, %d columns; want an empty 42-column table", rep.Rows, d.NumRows(), len(d.Schema().Fields()))
				}
			},
		},
	}
}

// badRecordCases are records that cannot be read as written: skipped and reported, or, when the file ends inside a quote, an error.
func badRecordCases() []badInputCase {
	good := row(minimalRow())
	return []badInputCase{
		{
			name: "wrong field count",
			csv:  bulkHeader + "\n" + good + "\n" + good + ",extra\n" + strings.TrimSuffix(good, ",") + "\n" + good + "\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if rep.Rows != 2 || rep.Skipped != 2 || rep.Records != 4 {
					t.Fatalf("rows %d skipped %d records %d; want 2, 2, 4", rep.Rows, rep.Skipped, rep.Records)
				}
				want := []SkippedRecord{{Line: 3, Reason: "43 fields, want 42"}, {Line: 4, Reason: "41 fields, want 42"}}
				if !equalSkipped(rep.SkippedRecords, want) {
					t.Errorf("skipped = %+v, want %+v", rep.SkippedRecords, want)
				}
			},
		},
		{
			name: "file ends inside a record",
			csv:  bulkHeader + "\n" + good + "\n" + good[:20],
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if rep.Rows != 1 || rep.Skipped != 1 || rep.TruncatedLine != 3 {
					t.Errorf("rows %d skipped %d truncated line %d; want 1, 1, 3", rep.Rows, rep.Skipped, rep.TruncatedLine)
				}
			},
		},
		{
			name: "short last record with a line end is not truncation",
			csv:  bulkHeader + "\n" + good + "\n" + good[:20] + "\r\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if rep.Skipped != 1 || rep.TruncatedLine != 0 {
					t.Errorf("skipped %d truncated line %d; want 1, 0", rep.Skipped, rep.TruncatedLine)
				}
			},
		},
		{
			name: "unterminated quote at end of file",
			csv:  bulkHeader + "\n" + good + "\n" + strings.Replace(good, "Widgets", `"Widgets`, 1) + "\n",
			err:  "line 3: quoted field is not closed before the end of the file (the file is probably truncated)",
		},
		{
			name: "junk after a closing quote",
			csv:  bulkHeader + "\n" + strings.Replace(good, "Widgets", `"Widg"ets`, 1) + "\n" + good + "\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if rep.Rows != 1 || rep.Skipped != 1 || rep.SkippedRecords[0].Line != 2 ||
					!strings.Contains(rep.SkippedRecords[0].Reason, `field 2: unexpected 'e' after the closing quote`) {
					t.Errorf("report = %+v", rep)
				}
			},
		},
	}
}

// badValueCases are fields whose values cannot be taken as written: replaced or null, and reported.
func badValueCases() []badInputCase {
	return []badInputCase{
		{
			name: "invalid UTF-8",
			csv:  bulkHeader + "\n" + row(with(minimalRow(), ColAbstract, "bad \x9b\x83 bytes \xaa", ColCity, "Z\xfcrich")) + "\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if rep.InvalidUTF8Fields != 2 || rep.InvalidUTF8Bytes != 4 {
					t.Errorf("invalid UTF-8: %d fields, %d bytes; want 2, 4", rep.InvalidUTF8Fields, rep.InvalidUTF8Bytes)
				}
				if v, _ := text(t, col(t, d, ColAbstract), 0); v != "bad \uFFFD\uFFFD bytes \uFFFD" {
					t.Errorf("abstract = %q", v)
				}
				if ci := rep.ColumnIssues[ColCity]; ci == nil || ci.InvalidUTF8 != 1 || ci.FirstLine != 2 || ci.FirstValue != "Z\uFFFDrich" {
					t.Errorf("City issue = %+v", ci)
				}
			},
		},
		{
			name: "unparseable amount, year and date",
			csv: bulkHeader + "\n" +
				row(with(minimalRow(), ColAwardAmount, "N/A", ColAwardYear, "twenty", ColProposalAwardDate, "2023-02-30", ColNumberEmployees, "many")) + "\n" +
				row(with(minimalRow(), ColAwardAmount, "12abc", ColContractEndDate, "July 4")) + "\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				want := map[string]int64{ColAwardAmount: 2, ColAwardYear: 1, ColProposalAwardDate: 1, ColNumberEmployees: 1, ColContractEndDate: 1}
				for c, n := range want {
					if ci := rep.ColumnIssues[c]; ci == nil || ci.Unparseable != n {
						t.Errorf("%s: issue %+v, want %d unparseable", c, ci, n)
					}
				}
				if ci := rep.ColumnIssues[ColAwardAmount]; ci.FirstLine != 2 || ci.FirstValue != "N/A" {
					t.Errorf("amount issue = %+v", ci)
				}
				if rep.Unparseable() != 6 {
					t.Errorf("Unparseable() = %d, want 6", rep.Unparseable())
				}
				if rep.Rows != 2 || col(t, d, ColAwardAmount).NullN() != 2 || col(t, d, ColAwardYear).NullN() != 1 {
					t.Errorf("unparseable values must be null, rows kept")
				}
			},
		},
	}
}

// unusualLayoutCases are files laid out other than the bulk file: extra, repeated or renamed columns, blank lines.
func unusualLayoutCases() []badInputCase {
	good := row(minimalRow())
	return []badInputCase{
		{
			name: "extra and repeated columns",
			csv:  bulkHeader + ",Research Keywords,Company\n" + good + ",lasers,SHADOW\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if !equalStrings(rep.ExtraColumns, []string{"Research Keywords", "Company (2)"}) || rep.HeaderShape != ShapeOther {
					t.Fatalf("extras %q shape %s", rep.ExtraColumns, rep.HeaderShape)
				}
				if v, _ := text(t, col(t, d, "Research Keywords"), 0); v != "lasers" {
					t.Errorf("Research Keywords = %q", v)
				}
				if v, _ := text(t, col(t, d, "Company (2)"), 0); v != "SHADOW" {
					t.Errorf("Company (2) = %q", v)
				}
				if v, _ := text(t, col(t, d, ColCompany), 0); v != "ACME INC" {
					t.Errorf("Company = %q", v)
				}
			},
		},
		{
			name: "alternative spellings",
			csv: strings.NewReplacer("Duns", "DUNS", "HUBZone Owned", "Hubzone Owned", "Number Employees", "# Employees").Replace(bulkHeader) + "\n" +
				row(with(minimalRow(), ColDuns, "'0123'", ColHUBZoneOwned, "Y", ColNumberEmployees, "7")) + "\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if len(rep.RenamedColumns) != 3 || rep.RenamedColumns["# Employees"] != ColNumberEmployees || len(rep.MissingColumns) != 0 {
					t.Errorf("renamed %v missing %v", rep.RenamedColumns, rep.MissingColumns)
				}
				if v, _ := text(t, col(t, d, ColDuns), 0); v != "'0123'" {
					t.Errorf("Duns = %q (text must be kept as written)", v)
				}
			},
		},
		{
			name: "blank lines",
			csv:  bulkHeader + "\n\n" + good + "\r\n\r\n" + good + "\n\n",
			check: func(t *testing.T, rep *LoadReport, d *Dataset) {
				if rep.Rows != 2 || rep.BlankLines != 3 || rep.Skipped != 0 {
					t.Errorf("rows %d blank %d skipped %d", rep.Rows, rep.BlankLines, rep.Skipped)
				}
			},
		},
	}
}

func TestConvertNotAwardsErrorIs(t *testing.T) {
	_, err := Convert(context.Background(), strings.NewReader("a,b\n1,2\n"), 0, new(bytes.Buffer), ConvertOptions{})
	if !errors.Is(err, ErrNotAwardsCSV) {
		t.Fatalf("err = %v, want ErrNotAwardsCSV", err)
	}
}

func TestConvertCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	data := generated(t, GenerateOptions{Rows: 200, Seed: 3})
	_, err := Convert(ctx, bytes.NewReader(data), int64(len(data)), new(bytes.Buffer), ConvertOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestConvertProgressAndMetadata(t *testing.T) {
	data := generated(t, GenerateOptions{Rows: 6000, Seed: 4})
	var calls, last int64
	var out bytes.Buffer
	_, err := Convert(context.Background(), bytes.NewReader(data), int64(len(data)), &out, ConvertOptions{
		Progress: func(read, total int64) { calls++; last = read },
		Metadata: map[string]string{"origin": "test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last != int64(len(data)) {
		t.Errorf("progress: %d calls, last %d; want ≥2 calls ending at %d", calls, last, len(data))
	}
	d, err := OpenFile(writeFile(t, filepath.Join(t.TempDir(), "m.arrow"), out.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if v, ok := d.Metadata("origin"); !ok || v != "test" {
		t.Errorf("metadata origin = %q, %v", v, ok)
	}
	_, err = Convert(context.Background(), bytes.NewReader(data), 0, new(bytes.Buffer), ConvertOptions{Metadata: map[string]string{MetaLoadReport: "x"}})
	if err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("reserved metadata key: err = %v", err)
	}
}

// TestSharedRealSample converts the 5 real rows kept in ../shared/data.
func TestSharedRealSample(t *testing.T) {
	b, err := os.ReadFile(sharedSamplePath(t))
	if err != nil {
		t.Fatal(err)
	}
	rep, d := convertString(t, string(b))
	if rep.Rows != 5 || rep.HeaderShape != ShapeLegacy41 || rep.Skipped != 0 {
		t.Fatalf("report: %s", rep.Summary())
	}
	if rep.InvalidUTF8Fields != 1 || rep.ColumnIssues[ColAbstract] == nil {
		t.Errorf("the sample's invalid UTF-8 abstract was not counted: %s", rep.Summary())
	}
	if rep.Unparseable() != 0 {
		t.Errorf("unparseable values in the real sample: %s", rep.Summary())
	}
	if a := col(t, d, ColAwardAmount).(*array.Float64); a.Value(0) != 171433 || a.NullN() != 0 {
		t.Errorf("amounts = %v", a)
	}
	if dt := col(t, d, ColProposalAwardDate).(*array.Date32); dt.Value(0).ToTime().Format("2006-01-02") != "2024-05-07" {
		t.Errorf("dates = %v", dt)
	}
	if c, _ := text(t, col(t, d, ColCompany), 0); c != "AGILE DATA DECISIONS, INC." {
		t.Errorf("company = %q", c)
	}
}

// TestLoadReportGolden pins the load reports of the fixtures in
// testdata/csv: quirks.csv (hand-written: BOM, alternative spellings, an
// extra column, CR LF, multi-line abstracts, invalid UTF-8, unparseable
// values, a bad record, a blank line) and two generated files, one per
// header shape.
func TestLoadReportGolden(t *testing.T) {
	for _, name := range []string{"quirks", "bulk42", "legacy41"} {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join("testdata", "csv", name+".csv")
			golden := filepath.Join("testdata", "csv", name+".report.json")
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Convert(context.Background(), bytes.NewReader(data), int64(len(data)), new(bytes.Buffer), ConvertOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("load report differs from %s (run go test -update if the change is intended):\n%s", golden, got)
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalSkipped(a, b []SkippedRecord) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzConvert feeds arbitrary bytes after a valid header (and as the whole
// file): Convert must not panic, and whatever it accepts must open and
// account for every record.
func FuzzConvert(f *testing.F) {
	f.Add([]byte(row(minimalRow()) + "\n"))
	f.Add([]byte(row(with(minimalRow(), ColAbstract, "\"a\r\nb\"\"c\"", ColAwardAmount, "\"$1,000.00\"")) + "\r\n,,\n"))
	f.Add([]byte("\"unterminated\n"))
	f.Add([]byte("\xff\xfe,\x9b\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, in := range [][]byte{append([]byte(bulkHeader+"\n"), body...), body} {
			var out bytes.Buffer
			rep, err := Convert(context.Background(), bytes.NewReader(in), int64(len(in)), &out, ConvertOptions{})
			if err != nil {
				continue
			}
			if rep.Rows+rep.Skipped != rep.Records {
				t.Fatalf("rows %d + skipped %d != records %d", rep.Rows, rep.Skipped, rep.Records)
			}
			path := filepath.Join(dir, "f.arrow")
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := OpenFile(path)
			if err != nil {
				t.Fatalf("converted file does not open: %v", err)
			}
			if int64(d.NumRows()) != rep.Rows {
				t.Fatalf("%d rows in file, report says %d", d.NumRows(), rep.Rows)
			}
			for i := 0; i < int(d.Record().NumCols()); i++ {
				if s, ok := d.Record().Column(i).(*array.String); ok {
					for j := 0; j < s.Len(); j++ {
						if !utf8.ValidString(s.Value(j)) {
							t.Fatalf("column %d row %d: invalid UTF-8 stored", i, j)
						}
					}
				}
			}
			d.Close()
		}
	})
}
