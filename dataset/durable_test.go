package dataset

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// awardsCSV writes a generated awards CSV of rows rows and returns its path.
func awardsCSV(t *testing.T, rows int, seed uint64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "awards.csv")
	if err := os.WriteFile(path, generated(t, GenerateOptions{Rows: rows, Seed: seed}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readMarker returns the marker beside arrowPath, failing the test if there
// is none.
func readMarker(t *testing.T, arrowPath string) durableMarker {
	t.Helper()
	b, err := os.ReadFile(markerPath(arrowPath))
	if err != nil {
		t.Fatalf("no marker: %v", err)
	}
	var m durableMarker
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("marker %q: %v", b, err)
	}
	return m
}

func assertNoMarker(t *testing.T, arrowPath string) {
	t.Helper()
	if _, err := os.Stat(markerPath(arrowPath)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("marker present (%v), want none", err)
	}
}

// TestLocateMarker converts, checks the marker that vouches for the file,
// then damages the marker in each way that must make Locate distrust the
// file and convert again.
func TestLocateMarker(t *testing.T) {
	csvPath := awardsCSV(t, 300, 21)
	tests := []struct {
		name   string
		damage func(t *testing.T, marker string, m durableMarker)
	}{
		{"absent (a cache from before markers, or a sync that never ended)", func(t *testing.T, marker string, _ durableMarker) {
			os.Remove(marker)
		}},
		{"empty (cut short by a crash)", func(t *testing.T, marker string, _ durableMarker) {
			os.WriteFile(marker, nil, 0o644)
		}},
		{"half written", func(t *testing.T, marker string, _ durableMarker) {
			b, _ := os.ReadFile(marker)
			os.WriteFile(marker, b[:len(b)/2], 0o644)
		}},
		{"for another size", func(t *testing.T, marker string, m durableMarker) {
			m.ArrowBytes++
			b, _ := json.Marshal(m)
			os.WriteFile(marker, b, 0o644)
		}},
		{"for another CSV", func(t *testing.T, marker string, m durableMarker) {
			m.Source.Digest = strings.Repeat("0", len(m.Source.Digest))
			b, _ := json.Marshal(m)
			os.WriteFile(marker, b, 0o644)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{CacheDir: t.TempDir(), CSVPath: csvPath}
			src, err := Locate(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(src.ArrowPath)
			if err != nil {
				t.Fatal(err)
			}
			id, err := csvFileID(csvPath)
			if err != nil {
				t.Fatal(err)
			}
			m := readMarker(t, src.ArrowPath)
			if m.ArrowBytes != st.Size() || m.Source != id {
				t.Fatalf("marker %+v, want %d bytes from %+v", m, st.Size(), id)
			}
			if again, err := Locate(context.Background(), cfg); err != nil || again.Converted {
				t.Fatalf("with its marker: converted %v, err %v; want the cache used", again.Converted, err)
			}
			tt.damage(t, markerPath(src.ArrowPath), m)
			again, err := Locate(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !again.Converted || again.Rows != 300 {
				t.Fatalf("marker %s: converted %v, %d rows; want a new conversion", tt.name, again.Converted, again.Rows)
			}
			if got := readMarker(t, src.ArrowPath); got != m {
				t.Errorf("marker after the new conversion %+v, want %+v", got, m)
			}
		})
	}
}

// TestLocateDeferSync stops the background sync of a deferred conversion:
// Locate has returned a usable file, the sync starts only with StartSync,
// the file is not marked until it ends, WaitDurable waits, and a second
// Locate in another process waits for the lock and then uses the file
// instead of converting it again.
func TestLocateDeferSync(t *testing.T) {
	csvPath := awardsCSV(t, 500, 22)
	cache := t.TempDir()
	started, release := make(chan struct{}), make(chan struct{})
	cfg := Config{CacheDir: cache, CSVPath: csvPath, DeferSync: true, beforeSync: func() {
		close(started)
		<-release
	}}
	src, err := Locate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !src.Converted || src.Rows != 500 {
		t.Fatalf("source %+v", src)
	}
	select {
	case <-started:
		t.Fatal("the sync started before StartSync")
	case <-time.After(100 * time.Millisecond):
	}
	src.StartSync()
	<-started
	src.StartSync() // a second call does nothing
	d, err := OpenFile(src.ArrowPath)
	if err != nil {
		t.Fatalf("the file Locate returned before its sync: %v", err)
	}
	d.Close()
	assertNoMarker(t, src.ArrowPath)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := src.WaitDurable(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitDurable before the sync: %v, want the context's deadline", err)
	}

	// Another process finds no marker and waits for the lock.
	other := helperLocate(t, cache, csvPath)
	out, err := other.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	other.Stderr = os.Stderr
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan []byte)
	go func() {
		b, _ := bufio.NewReader(out).ReadBytes('\n')
		done <- b
	}()
	select {
	case b := <-done:
		t.Fatalf("the other process returned while the lock was held: %s", b)
	case <-time.After(500 * time.Millisecond):
	}

	close(release)
	if err := src.WaitDurable(context.Background()); err != nil {
		t.Fatal(err)
	}
	readMarker(t, src.ArrowPath)
	var res Source
	if err := json.Unmarshal(<-done, &res); err != nil {
		t.Fatal(err)
	}
	if err := other.Wait(); err != nil {
		t.Fatal(err)
	}
	if res.Converted || res.Rows != 500 {
		t.Errorf("the other process: converted %v, %d rows; want the first conversion used", res.Converted, res.Rows)
	}
}

// startPaused starts a Locate process that stops between the rename and
// the sync, and waits until it is there. Closing the returned pipe lets
// it go on.
func startPaused(t *testing.T, cache, csvPath string) (*exec.Cmd, *os.File) {
	t.Helper()
	cmd := helperLocate(t, cache, csvPath)
	cmd.Env = append(cmd.Env, "SBIR_DATASET_TEST_HELPER=locate-pause")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = pr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	t.Cleanup(func() {
		pw.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "renamed\n" {
		t.Fatalf("the paused Locate printed %q (%v)", line, err)
	}
	return cmd, pw
}

// TestLocateKilledBeforeMarker kills a converting process after it renamed
// its file into place but before the file was synced and marked: the file
// is there and valid, but no marker vouches for it, so the next Locate
// converts again rather than trust bytes that may not be on disk.
func TestLocateKilledBeforeMarker(t *testing.T) {
	csvPath := awardsCSV(t, 400, 23)
	cache := t.TempDir()
	cmd, _ := startPaused(t, cache, csvPath)
	arrows, _ := filepath.Glob(filepath.Join(cache, "*.arrow"))
	if len(arrows) != 1 {
		t.Fatalf("Arrow files after the rename: %v", arrows)
	}
	if d, err := OpenFile(arrows[0]); err != nil {
		t.Fatalf("the renamed file: %v", err)
	} else {
		d.Close()
	}
	assertNoMarker(t, arrows[0])
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	src, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatal(err)
	}
	if !src.Converted || src.ArrowPath != arrows[0] || src.Rows != 400 {
		t.Fatalf("after a process killed before its marker: %+v, want a new conversion of %s", src, arrows[0])
	}
	readMarker(t, src.ArrowPath)
}

// TestLocateReplacesMarkedFile converts a CSV, changes it, and stops the
// second conversion between its rename and its sync: the old marker must
// already be gone, so that a crash there cannot leave it beside the new,
// unsynced file.
func TestLocateReplacesMarkedFile(t *testing.T) {
	csvPath := awardsCSV(t, 200, 24)
	cache := t.TempDir()
	src, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatal(err)
	}
	readMarker(t, src.ArrowPath)
	if err := os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 250, Seed: 25}), 0o644); err != nil {
		t.Fatal(err)
	}
	_, resume := startPaused(t, cache, csvPath)
	assertNoMarker(t, src.ArrowPath)
	resume.Close()
	again, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatal(err)
	}
	if again.Converted || again.Rows != 250 {
		t.Fatalf("after the second conversion: converted %v, %d rows; want its file used", again.Converted, again.Rows)
	}
}

// TestLocateDiskFullBeforeMarker fills a real tmpfs after the conversion's
// rename, so that the marker cannot be written: WaitDurable reports the
// full disk, the file is not marked, and once there is room again the next
// Locate converts anew. It needs root (mount).
func TestLocateDiskFullBeforeMarker(t *testing.T) {
	cache := mountTmpfs(t, "2m")
	csvPath := awardsCSV(t, 300, 26)
	filler := filepath.Join(cache, "filler")
	fill := func() {
		f, err := os.Create(filler)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		buf := make([]byte, 4096)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Errorf("filling the tmpfs: %v", err)
				}
				return
			}
		}
	}
	src, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath, DeferSync: true, beforeSync: fill})
	if err != nil {
		t.Fatal(err)
	}
	err = src.WaitDurable(context.Background())
	if err == nil || !strings.Contains(err.Error(), "disk full while writing to "+cache) || !strings.Contains(err.Error(), "converted again next time") {
		t.Fatalf("WaitDurable on a full disk: %v, want the disk-full message", err)
	}
	assertNoMarker(t, src.ArrowPath)
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	again, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Converted {
		t.Fatal("the unmarked file was used")
	}
	readMarker(t, again.ArrowPath)
}
