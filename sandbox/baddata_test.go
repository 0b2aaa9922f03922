package sandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sbirtools/sbir-kernel/dataset"
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

// TestCorruptDataFileNoStackTrace replays issue 30's hole 6 at the worker:
// a data file whose category dictionary was damaged after its conversion
// (handed over as it is: Locate would have converted it again) made the
// worker panic while starting, and the error the user saw carried the
// panic's Go stack trace, with the build's source paths. It must be a
// clear error naming the file and the column, and never a stack trace.
func TestCorruptDataFileNoStackTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "award_data.arrow")
	corruptDictionaryEnd(t, testDataPath, path, "Phase")
	s, err := NewSession(context.Background(), Options{DataPath: path})
	if err == nil {
		s.Close()
		t.Fatal("a session started on a corrupt data file")
	}
	for _, want := range []string{path, "Phase", "invalid awards Arrow file"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	for _, trace := range []string{"goroutine 1 [", ".go:", "panic"} {
		if strings.Contains(err.Error(), trace) {
			t.Errorf("the error shows a Go stack trace (%q):\n%s", trace, err)
		}
	}
}

// corruptDictionaryEnd copies the Arrow file src to dst with the last
// offset of column's dictionary values changed to point far past its text,
// as a flipped bit on disk would: the bytes are found by their content.
func corruptDictionaryEnd(t *testing.T, src, dst, column string) {
	t.Helper()
	d, err := dataset.OpenFile(src)
	if err != nil {
		t.Fatal(err)
	}
	i := d.Schema().FieldIndices(column)
	if len(i) != 1 {
		t.Fatalf("no column %q", column)
	}
	dict, ok := d.Record().Column(i[0]).(*array.Dictionary)
	if !ok {
		t.Fatalf("column %q is %s, not a dictionary", column, d.Record().Column(i[0]).DataType())
	}
	offsets := bytes.Clone(dict.Dictionary().Data().Buffers()[1].Bytes())
	d.Close()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, offsets) != 1 {
		t.Fatalf("the %d bytes of %q's dictionary offsets occur %d times in the file", len(offsets), column, bytes.Count(b, offsets))
	}
	at := bytes.Index(b, offsets) + len(offsets) - 4
	binary.LittleEndian.PutUint32(b[at:], 0x7f000000)
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
