package dataset

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

func TestGenerateDeterministic(t *testing.T) {
	a := generated(t, GenerateOptions{Rows: 300, Seed: 42})
	b := generated(t, GenerateOptions{Rows: 300, Seed: 42})
	c := generated(t, GenerateOptions{Rows: 300, Seed: 43})
	if !bytes.Equal(a, b) {
		t.Error("same options, different output")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds, same output")
	}
	// A prefix of rows does not depend on how many follow.
	short := generated(t, GenerateOptions{Rows: 100, Seed: 42})
	if !bytes.HasPrefix(a, short) {
		t.Error("the first 100 rows change with Rows")
	}
}

func TestGenerateOptionsErrors(t *testing.T) {
	if err := Generate(io.Discard, GenerateOptions{Rows: -1}); err == nil {
		t.Error("negative Rows accepted")
	}
	if err := Generate(io.Discard, GenerateOptions{Rows: 1, Shape: "43"}); err == nil || !strings.Contains(err.Error(), `"43"`) {
		t.Errorf("bad shape: err = %v", err)
	}
}

// TestGenerateShapesAndQuirks converts generated files of both shapes and
// checks the quirks and distributions the generator promises.
func TestGenerateShapesAndQuirks(t *testing.T) {
	const rows = 20_000
	for _, shape := range []HeaderShape{ShapeBulk42, ShapeLegacy41} {
		t.Run(string(shape), func(t *testing.T) {
			data := generated(t, GenerateOptions{Rows: rows, Seed: 1, Shape: shape, BOM: shape == ShapeLegacy41})
			if !bytes.Contains(data, []byte("\r\n")) {
				t.Error("no CR LF record ends")
			}
			rep, d := convertString(t, string(data))
			if rep.HeaderShape != shape || rep.Rows != rows || rep.Skipped != 0 || rep.Unparseable() != 0 {
				t.Fatalf("report: %s", rep.Summary())
			}
			if rep.BOM != (shape == ShapeLegacy41) {
				t.Errorf("BOM = %v", rep.BOM)
			}
			if shape == ShapeLegacy41 && rep.InvalidUTF8Fields == 0 {
				t.Error("the 41-column shape has no invalid UTF-8")
			}
			if shape == ShapeBulk42 && rep.InvalidUTF8Fields != 0 {
				t.Error("the 42-column shape (valid UTF-8 like the 2026 file) has invalid UTF-8")
			}
			share := func(name, value string) float64 {
				a := col(t, d, name)
				n := 0
				for i := 0; i < a.Len(); i++ {
					if v, ok := text(t, a, i); ok && v == value {
						n++
					}
				}
				return float64(n) / rows
			}
			near := func(what string, got, want, tol float64) {
				if math.Abs(got-want) > tol {
					t.Errorf("%s = %.3f, want %.3f ± %.3f", what, got, want, tol)
				}
			}
			near("DoD share", share(ColAgency, "Department of Defense"), 0.482, 0.02)
			near("HHS share", share(ColAgency, "Department of Health and Human Services"), 0.227, 0.02)
			near("Phase I share", share(ColPhase, "Phase I"), 0.69, 0.02)
			near("SBIR share", share(ColProgram, "SBIR"), 0.90, 0.015)
			near("woman-owned share", share(ColWomanOwned, "Y"), 0.096, 0.02)

			abstracts := col(t, d, ColAbstract).(*array.String)
			var withLF, withCR, withQuote, placeholders int
			var total float64
			for i := 0; i < abstracts.Len(); i++ {
				s := abstracts.Value(i)
				total += float64(len(s))
				switch {
				case s == "N/A" || s == "Redacted" || s == "Not Available" || s == "TBD" || s == "null" || s == " ":
					placeholders++
				}
				if strings.Contains(s, "\n") {
					withLF++
				}
				if strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\r") {
					withCR++
				}
				if strings.Contains(s, `"`) {
					withQuote++
				}
			}
			near("abstracts with LF", float64(withLF)/rows, 0.11, 0.02)
			near("abstracts with a bare CR", float64(withCR)/rows, 0.02, 0.01)
			near("abstracts with quotes", float64(withQuote)/rows, 0.05, 0.015)
			near("placeholder abstracts", float64(placeholders)/rows, 0.13, 0.02)
			near("mean abstract length / 1377", total/rows/1377, 1, 0.15)

			amounts := col(t, d, ColAwardAmount).(*array.Float64)
			zeros, big := 0, 0
			for i := 0; i < amounts.Len(); i++ {
				if amounts.Value(i) == 0 {
					zeros++
				}
				if amounts.Value(i) > 1e6 {
					big++
				}
			}
			near("$0 awards", float64(zeros)/rows, 0.019, 0.006)
			if big == 0 {
				t.Error("no awards above $1M")
			}
			dates := col(t, d, ColProposalAwardDate)
			fill := 1 - float64(dates.NullN())/rows
			if fill < 0.3 || fill > 0.6 {
				t.Errorf("Proposal Award Date filled for %.2f of rows, want 0.30–0.51-ish", fill)
			}
		})
	}
}

// TestEmbeddedSampleMatchesGenerator keeps sample.csv.gz in step with the
// generator: run `go generate` in this directory after changing it.
func TestEmbeddedSampleMatchesGenerator(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(sampleGzip))
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	want := generated(t, SampleOptions())
	if !bytes.Equal(embedded, want) {
		t.Fatalf("sample.csv.gz (%d bytes) is not the generator's output (%d bytes): run `go generate ./dataset`", len(embedded), len(want))
	}
}
