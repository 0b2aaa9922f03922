package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadDataFile: a worker given a data file that is not an Arrow file
// (a damaged cache, a wrong path) does not start, and the error says what
// and where (the file's path, not the worker's descriptor of it); the
// interpreter built meanwhile does not hide it.
func TestBadDataFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "award_data.arrow")
	if err := os.WriteFile(path, []byte("Award Title,Agency\nnot,arrow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(context.Background(), Options{DataPath: path})
	if err == nil {
		s.Close()
		t.Fatal("a session started on a CSV given as its Arrow file")
	}
	for _, want := range []string{"opening the data", path, "not an Arrow file"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
