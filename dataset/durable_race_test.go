package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// TestLocateConcurrentProcesses starts several processes that Locate the
// same new CSV at once: exactly one converts, the others wait for its
// lock and use its file, and the file is marked once they are done.
func TestLocateConcurrentProcesses(t *testing.T) {
	csvPath := awardsCSV(t, 700, 41)
	cache := t.TempDir()
	const procs = 3
	var wg sync.WaitGroup
	results := make([]Source, procs)
	errs := make([]error, procs)
	for i := range procs {
		wg.Go(func() {
			cmd := helperLocate(t, cache, csvPath)
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err == nil {
				err = json.Unmarshal(out, &results[i])
			}
			errs[i] = err
		})
	}
	wg.Wait()
	converted := 0
	for i, src := range results {
		if errs[i] != nil {
			t.Fatalf("process %d: %v", i, errs[i])
		}
		if src.Rows != 700 || src.ArrowPath != results[0].ArrowPath {
			t.Errorf("process %d: %+v", i, src)
		}
		if src.Converted {
			converted++
		}
	}
	if converted != 1 {
		t.Errorf("%d of %d processes converted; want exactly one", converted, procs)
	}
	if m := readMarker(t, results[0].ArrowPath); m.ArrowBytes != results[0].ArrowSize {
		t.Errorf("marker for %d bytes, file of %d", m.ArrowBytes, results[0].ArrowSize)
	}
}

// TestLocateCancelledWhileLocked cancels a Locate that waits for the lock
// of a conversion stopped before its sync: it returns the context's error
// at once and holds nothing, so that once the conversion ends the next
// Locate uses its file without waiting or converting.
func TestLocateCancelledWhileLocked(t *testing.T) {
	csvPath := awardsCSV(t, 300, 42)
	cache := t.TempDir()
	cmd, release := startPaused(t, cache, csvPath)

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Locate(ctx, Config{CacheDir: cache, CSVPath: csvPath})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), ".lock") {
		t.Fatalf("Locate while another process holds the lock: %v, want the lock's path and the context's deadline", err)
	}
	// It waited for nothing but its context: the lock is still held.
	if d := time.Since(start); d > testenv.Scale(10*time.Second) {
		t.Fatalf("the cancelled Locate took %v", d)
	}

	release.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), testenv.Scale(10*time.Second))
	defer cancel()
	src, err := Locate(ctx, Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatal(err)
	}
	if src.Converted || src.Rows != 300 {
		t.Fatalf("after the paused conversion ended: %+v, want its file used", src)
	}
}

// TestLocateDeferSyncCancelled ends a deferred conversion's context before
// WaitDurable: WaitDurable returns the context's error, but the sync it
// starts goes on, marks the file and releases the lock, so that another
// process neither waits forever nor converts again.
func TestLocateDeferSyncCancelled(t *testing.T) {
	csvPath := awardsCSV(t, 300, 43)
	cache := t.TempDir()
	src, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath, DeferSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := src.WaitDurable(ctx); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitDurable with an ended context: %v", err)
	}
	other := helperLocate(t, cache, csvPath)
	other.Stderr = os.Stderr
	done := make(chan error, 1)
	var out []byte
	go func() {
		var err error
		out, err = other.Output()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testenv.Scale(20 * time.Second)):
		other.Process.Kill()
		t.Fatal("another process still waits for the lock 20 s after the sync was started")
	}
	var res Source
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.Converted {
		t.Errorf("the other process converted again: %+v", res)
	}
	readMarker(t, src.ArrowPath)
}

// TestLocateCancelledDuringSync ends the context of a Locate without
// DeferSync while it waits for its own sync: Locate returns the context's
// error, and the sync goes on, marks the file and releases the lock, so
// that the next Locate of the same process uses the file.
func TestLocateCancelledDuringSync(t *testing.T) {
	csvPath := awardsCSV(t, 300, 44)
	cache := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	synced := make(chan struct{})
	cfg := Config{CacheDir: cache, CSVPath: csvPath, beforeSync: func() {
		cancel()
		<-synced // Locate has returned
	}}
	_, err := Locate(ctx, cfg)
	close(synced)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Locate cancelled during its sync: %v, want the context's error", err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), testenv.Scale(20*time.Second))
	defer cancel2()
	src, err := Locate(ctx2, Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatalf("the next Locate: %v (the lock was not released?)", err)
	}
	if src.Converted {
		t.Errorf("the next Locate converted again: %+v", src)
	}
	readMarker(t, src.ArrowPath)
}
