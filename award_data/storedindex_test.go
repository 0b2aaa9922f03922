package award_data

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sbirtools/sbir-kernel/dataset"
)

// allocated returns the bytes the process allocates while fn runs.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestStoredIndexesUsed: with the indexes Convert stored in the Arrow file
// (issue 14), the first run of each question in a session allocates about
// what the second does, because nothing is built on first use; with the
// same columns but the stored indexes left out, the first run builds them
// (bitmap indexes, the Company dictionary) and allocates far more, which
// shows the measure can tell.
func TestStoredIndexesUsed(t *testing.T) {
	var csv bytes.Buffer
	if err := dataset.Generate(&csv, dataset.GenerateOptions{Rows: 20000, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	csvPath, arrowPath := filepath.Join(dir, "awards.csv"), filepath.Join(dir, "awards.arrow")
	if err := os.WriteFile(csvPath, csv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.ConvertFile(context.Background(), csvPath, arrowPath, dataset.ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	old := loaded.Load()
	defer loaded.Store(old)

	questions := []struct {
		name string
		run  func() any
	}{
		{"year and phase count", func() any {
			return Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()
		}},
		{"top companies", func() any {
			return Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20).Len()
		}},
		{"companies sorted", func() any { return Sort("Company").Head(3).Len() }},
		{"state count", func() any { return Where("State", "==", "CA").Count() }},
	}
	d, err := dataset.OpenFile(arrowPath)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if len(d.Indexes()) == 0 {
		t.Fatal("the converted file has no stored indexes")
	}
	for _, stored := range []bool{true, false} {
		for _, q := range questions {
			// A fresh session for each question: new column vectors, with
			// the stored indexes or without.
			if stored {
				if err := Use(d); err != nil {
					t.Fatal(err)
				}
			} else {
				tbl, err := tableFromRecord(d.Record(), true)
				if err != nil {
					t.Fatal(err)
				}
				setSession(func(s *session) { s.t, s.report = tbl, d.Report() })
			}
			var first, second any
			a1 := allocated(func() { first = q.run() })
			a2 := allocated(func() { second = q.run() })
			if first != second {
				t.Fatalf("%s: first run %v, second %v", q.name, first, second)
			}
			t.Logf("stored %v: %s: first run allocated %d bytes, second %d", stored, q.name, a1, a2)
			// The smallest index built on first use here (Phase: 3
			// bitmaps of 20,000 rows) is 7.5 KB; the Company dictionary 80 KB.
			if stored && a1 > a2+4<<10 {
				t.Errorf("%s: the first run allocated %d bytes, the second %d: something was built on first use", q.name, a1, a2)
			}
			if !stored && a1 < a2+7<<10 {
				t.Errorf("%s without stored indexes: first run allocated %d bytes, second %d; the test cannot see a build", q.name, a1, a2)
			}
		}
	}
}
