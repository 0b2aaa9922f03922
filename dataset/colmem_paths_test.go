package dataset

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// failAfter is a writer that fails once n bytes were written.
type failAfter struct{ n int }

var errWriteFailed = errors.New("write failed")

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, errWriteFailed
	}
	w.n -= len(p)
	return len(p), nil
}

// TestConvertColumnMemoryPaths converts an input whose columns are mapped
// (colmem.go) along the paths that end a conversion early: cancelled
// mid-scan, a write failing mid-file, two conversions at once. A column
// unmapped while a worker or the writer still used it would kill the
// process (SIGSEGV); each path must return its error, and a conversion
// after them must write the same file as before.
func TestConvertColumnMemoryPaths(t *testing.T) {
	csv := generated(t, GenerateOptions{Rows: 12000, Seed: 4})
	convertInto := func(ctx context.Context, w interface{ Write([]byte) (int, error) }, progress func(n, size int64)) error {
		_, err := Convert(ctx, bytes.NewReader(csv), int64(len(csv)), w, ConvertOptions{Progress: progress})
		return err
	}
	var want bytes.Buffer
	if err := convertInto(context.Background(), &want, nil); err != nil {
		t.Fatal(err)
	}
	for _, frac := range []int64{4, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		err := convertInto(ctx, new(bytes.Buffer), func(n, size int64) {
			if n > size/frac {
				cancel()
			}
		})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after 1/%d of the input: %v, want context.Canceled", frac, err)
		}
	}
	for _, at := range []int{0, 100, want.Len() / 2, want.Len() - 100} {
		if err := convertInto(context.Background(), &failAfter{n: at}, nil); !errors.Is(err, errWriteFailed) {
			t.Errorf("write failing at byte %d: %v", at, err)
		}
	}
	// Through a file, the columns' huge pages go back as they are written
	// (dropWriter): the bytes must be the same.
	dir := t.TempDir()
	csvPath, arrowPath := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.arrow")
	if err := os.WriteFile(csvPath, csv, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ConvertFile(context.Background(), csvPath, arrowPath, ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(arrowPath); err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("ConvertFile wrote %d bytes (%v) differing from the %d Convert wrote", len(got), err, want.Len())
	}
	// Without column memory (the Go heap only), nothing is given back.
	heapOut, err := os.Create(filepath.Join(dir, "heap.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	defer heapOut.Close()
	if _, err := convertTo(context.Background(), bytes.NewReader(csv), int64(len(csv)), heapOut, ConvertOptions{}, nil); err != nil {
		t.Fatalf("convertTo without column memory: %v", err)
	}
	if got, err := os.ReadFile(heapOut.Name()); err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("convertTo without column memory wrote %d bytes (%v) differing from the %d Convert wrote", len(got), err, want.Len())
	}
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, 3)
	for i := range outs {
		wg.Go(func() {
			if err := convertInto(context.Background(), &outs[i], nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range outs {
		if !bytes.Equal(outs[i].Bytes(), want.Bytes()) {
			t.Errorf("concurrent conversion %d wrote %d bytes differing from the %d of a lone one", i, outs[i].Len(), want.Len())
		}
	}
}
