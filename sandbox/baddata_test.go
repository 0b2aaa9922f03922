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

// TestDataNotReadableByWorker: the worker opens the data again through
// its descriptor, with its own user's rights, so an error it reports
// about the path must not send the reader after the wrong cause: a
// directory is named as one (the worker said "permission denied"), and a
// file the supervisor can read but the worker (host nobody, when the
// supervisor is root in namespaces) cannot says so.
func TestDataNotReadableByWorker(t *testing.T) {
	dir := t.TempDir()
	s, err := NewSession(context.Background(), Options{DataPath: dir})
	if err == nil {
		s.Close()
		t.Fatal("a session started on a directory given as its Arrow file")
	}
	for _, want := range []string{dir, "is a directory"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("directory: error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "permission denied") {
		t.Errorf("directory: error %q blames permissions", err)
	}

	iso := DetectIsolation()
	if !iso.Namespaces || os.Geteuid() != 0 {
		t.Skip("the worker runs as this user (no namespaces, or not root): it reads what the supervisor reads")
	}
	data, err := os.ReadFile(testDataPath)
	if err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(dir, "private.arrow")
	if err := os.WriteFile(private, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = NewSession(context.Background(), Options{DataPath: private, Isolation: &iso})
	if err == nil {
		s.Close()
		t.Fatal("a worker running as nobody read a 0600 file of root's")
	}
	for _, want := range []string{private, "permission denied", "readable by others"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("0600 file: error %q does not say %q", err, want)
		}
	}
}
