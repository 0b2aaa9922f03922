package e2e

// The Arrow file Convert writes, read by an Arrow implementation we did not
// write: pyarrow ($SBIR_ARROW_VENV, from .ci/setup.d/40-pyarrow.sh).

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sbirtools/sbir-kernel/dataset"
)

// arrowPython returns the python of the virtualenv holding pyarrow.
func arrowPython(t *testing.T) string {
	t.Helper()
	venv := os.Getenv("SBIR_ARROW_VENV")
	if venv == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		venv = filepath.Join(base, "sbir-kernel-ci", "arrow", "venv")
	}
	py := filepath.Join(venv, "bin", "python")
	if err := exec.Command(py, "-c", "import pyarrow").Run(); err != nil {
		requireClient(t, "pyarrow is not installed in "+venv+" (run: source .ci/setup.d/40-pyarrow.sh)", "python3-venv")
	}
	return py
}

// TestArrowFileReadByPyArrow converts generated awards (nulls in Topic
// Code, thousands of companies) and has pyarrow read the file, validate it
// fully (offsets, UTF-8, dictionary indices in range) and decode every
// stored text dictionary: its values must be the column's distinct values,
// sorted, and decode row by row to the column, nulls included.
func TestArrowFileReadByPyArrow(t *testing.T) {
	py := arrowPython(t)
	dir := t.TempDir()
	csvPath, arrowPath := filepath.Join(dir, "awards.csv"), filepath.Join(dir, "awards.arrow")
	// 20,000 generated awards three times over: each company recurs often
	// enough that the dictionaries of Company and Topic Code store their
	// values, as they do at full scale.
	var gen bytes.Buffer
	if err := dataset.Generate(&gen, dataset.GenerateOptions{Rows: 20000, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	header, body, _ := bytes.Cut(gen.Bytes(), []byte("\n"))
	csv := append(append(header, '\n'), bytes.Repeat(body, 3)...)
	if err := os.WriteFile(csvPath, csv, 0o644); err != nil {
		t.Fatal(err)
	}
	report, err := dataset.ConvertFile(context.Background(), csvPath, arrowPath, dataset.ConvertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.OpenFile(arrowPath)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{} // text dictionaries, by column: values stored?
	for _, ix := range d.Indexes() {
		if ix.Text != nil {
			stored[ix.Column] = ix.Text.Packed()
		}
	}
	d.Close()

	out, err := exec.Command(py, filepath.Join("testdata", "arrowcheck.py"), arrowPath).Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("pyarrow could not read or validate the file: %v\n%s", err, stderr)
	}
	var got struct {
		PyArrow       string `json:"pyarrow"`
		Rows          int64  `json:"rows"`
		FormatVersion string `json:"format_version"`
		Dictionaries  map[string]struct {
			Distinct             int    `json:"distinct"`
			Type                 string `json:"type"`
			Values               int    `json:"values"`
			DecodesToColumn      bool   `json:"decodes_to_column"`
			ValuesSortedDistinct bool   `json:"values_sorted_distinct"`
			IndexNulls           int    `json:"index_nulls"`
			ColumnNulls          int    `json:"column_nulls"`
		} `json:"dictionaries"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decoding %q: %v", out, err)
	}
	t.Logf("pyarrow %s read %d rows, dictionaries %+v", got.PyArrow, got.Rows, got.Dictionaries)
	if got.Rows != report.Rows || got.FormatVersion != strconv.Itoa(dataset.FormatVersion) {
		t.Errorf("pyarrow read %d rows of format %q; the load report says %d rows, format %d", got.Rows, got.FormatVersion, report.Rows, dataset.FormatVersion)
	}
	if len(got.Dictionaries) != len(stored) {
		t.Errorf("pyarrow found text dictionaries of %d columns, OpenFile %d", len(got.Dictionaries), len(stored))
	}
	withValues := 0
	for column, packed := range stored {
		g, ok := got.Dictionaries[column]
		switch {
		case !ok:
			t.Errorf("%s: pyarrow found no text dictionary", column)
		case !packed:
			if g.Values != 0 {
				t.Errorf("%s: OpenFile sees no stored values, pyarrow %d (%s)", column, g.Values, g.Type)
			}
		default:
			withValues++
			if g.Values != g.Distinct || !g.DecodesToColumn || !g.ValuesSortedDistinct || g.IndexNulls != g.ColumnNulls {
				t.Errorf("%s: %d stored values for %d distinct, decode to the column %v, sorted %v, nulls %d against the column's %d",
					column, g.Values, g.Distinct, g.DecodesToColumn, g.ValuesSortedDistinct, g.IndexNulls, g.ColumnNulls)
			}
		}
	}
	if withValues == 0 || got.Dictionaries[dataset.ColTopicCode].ColumnNulls == 0 {
		t.Errorf("the input exercised too little: %d dictionaries with values, %d null Topic Codes", withValues, got.Dictionaries[dataset.ColTopicCode].ColumnNulls)
	}
}
