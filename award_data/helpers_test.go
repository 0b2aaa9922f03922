package award_data

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/sbirtools/sbir-kernel/dataset"
)

const fixtureCSV = "testdata/awards.csv"

// fixtureRows is the fixture read independently with encoding/csv: the
// ground truth every test compares against. Each row maps header → field.
type fixtureRow map[string]string

var (
	fixtureDir string // holds the fixture's Arrow file, fixture.arrow
	loadOnce   sync.Once
	loadErr    error
	truth      []fixtureRow
)

func loadFixtureOnce() error {
	loadOnce.Do(func() { loadErr = doLoad() })
	return loadErr
}

// loadFixture converts testdata/awards.csv with dataset.Convert, opens the
// Arrow file with dataset.OpenFile, hands it to Use, and parses the same
// CSV with encoding/csv for ground truth.
func loadFixture(t testing.TB) []fixtureRow {
	t.Helper()
	if loadFixtureOnce() != nil {
		t.Fatal(loadErr)
	}
	return truth
}

func doLoad() error {
	src, err := os.Open(fixtureCSV)
	if err != nil {
		return err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "awarddata-test")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "awards.arrow")
	dst, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := dataset.Convert(context.Background(), src, st.Size(), dst, dataset.ConvertOptions{}); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	d, err := dataset.OpenFile(path)
	if err != nil {
		return err
	}
	if err := Use(d); err != nil {
		return err
	}
	// The mapping must outlive every test; the directory stays for the
	// sessions of the cell tests (they map the same file) and is removed
	// by RemoveFixture after the tests.
	fixtureDir = dir

	f, err := os.Open(fixtureCSV)
	if err != nil {
		return err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return err
	}
	header := recs[0]
	for _, rec := range recs[1:] {
		row := fixtureRow{}
		for i, h := range header {
			row[h] = rec[i]
		}
		truth = append(truth, row)
	}
	return nil
}

// num parses a fixture number; ok is false for an empty (null) field.
func num(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return v, true
}
