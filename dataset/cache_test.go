package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// TestMain lets the test binary act as a second process: with
// SBIR_DATASET_TEST_HELPER=locate it runs Locate from the environment and
// prints the Source as JSON. With locate-pause it stops a conversion
// between the rename and the sync: it prints "renamed" and waits for its
// standard input to close before it goes on.
func TestMain(m *testing.M) {
	if mode := os.Getenv("SBIR_DATASET_TEST_HELPER"); mode == "locate" || mode == "locate-pause" {
		cfg := ConfigFromEnv(os.Getenv)
		if mode == "locate-pause" {
			cfg.beforeSync = func() {
				fmt.Println("renamed")
				io.Copy(io.Discard, os.Stdin)
			}
		}
		src, err := Locate(context.Background(), cfg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		json.NewEncoder(os.Stdout).Encode(src)
		os.Exit(0)
	}
	code := m.Run()
	cleanupBench()
	os.Exit(code)
}

// helperLocate starts this test binary as a Locate process.
func helperLocate(t *testing.T, cacheDir, csvPath string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SBIR_DATASET_TEST_HELPER=locate", "SBIR_CACHE_DIR="+cacheDir, "SBIR_CSV_PATH="+csvPath)
	return cmd
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want Config
	}{
		{map[string]string{"SBIR_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h", "SBIR_CSV_PATH": "/a.csv"}, Config{CacheDir: "/c", CSVPath: "/a.csv"}},
		{map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, Config{CacheDir: "/x/sbir-kernel"}},
		{map[string]string{"XDG_CACHE_HOME": "relative", "HOME": "/h"}, Config{CacheDir: "/h/.cache/sbir-kernel"}},
		{map[string]string{"HOME": "/h"}, Config{CacheDir: "/h/.cache/sbir-kernel"}},
		{map[string]string{}, Config{}},
	}
	for _, tt := range tests {
		got := ConfigFromEnv(func(k string) string { return tt.env[k] })
		if got.CacheDir != tt.want.CacheDir || got.CSVPath != tt.want.CSVPath {
			t.Errorf("ConfigFromEnv(%v) = %+v, want %+v", tt.env, got, tt.want)
		}
	}
}

func TestLocateEmbeddedSample(t *testing.T) {
	dir := t.TempDir()
	src, err := Locate(context.Background(), Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != SourceEmbedded || !src.Synthetic || !src.Converted || src.Rows != int64(SampleOptions().Rows) {
		t.Fatalf("source = %+v", src)
	}
	if src.ArrowPath != filepath.Join(dir, "sample-v"+strconv.Itoa(FormatVersion)+".arrow") {
		t.Errorf("ArrowPath = %s", src.ArrowPath)
	}
	desc := src.Describe()
	if !strings.Contains(desc, "2,000 synthetic awards") || !strings.Contains(desc, DownloadCommand) {
		t.Errorf("Describe() = %q: must name the data synthetic and give the download command", desc)
	}
	again, err := Locate(context.Background(), Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if again.Converted || again.Rows != src.Rows {
		t.Errorf("second Locate converted again: %+v", again)
	}
	var doc bytes.Buffer
	if err := again.WriteDoctor(&doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"synthetic sample", DownloadCommand, "rows:", "2,000", "columns:", "42", src.ArrowPath, "load report:"} {
		if !strings.Contains(doc.String(), want) {
			t.Errorf("doctor output lacks %q:\n%s", want, doc.String())
		}
	}
}

func TestLocateCSVPathAndChanges(t *testing.T) {
	cache := t.TempDir()
	csvPath := filepath.Join(t.TempDir(), "awards.csv")
	os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 100, Seed: 5}), 0o644)
	locate := func() *Source {
		t.Helper()
		src, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath})
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	src := locate()
	if src.Kind != SourceCSVPath || src.Synthetic || !src.Converted || src.Rows != 100 || src.CSVPath != csvPath {
		t.Fatalf("source = %+v", src)
	}
	if !strings.HasPrefix(filepath.Base(src.ArrowPath), "csv-") || filepath.Dir(src.ArrowPath) != cache {
		t.Errorf("ArrowPath = %s", src.ArrowPath)
	}
	if !strings.Contains(src.Describe(), "100 awards from "+csvPath+" (from SBIR_CSV_PATH, CSV of ") {
		t.Errorf("Describe() = %q", src.Describe())
	}
	if locate().Converted {
		t.Error("unchanged CSV converted again")
	}

	// A different file of the same size and modification time is noticed.
	st, _ := os.Stat(csvPath)
	other := generated(t, GenerateOptions{Rows: 100, Seed: 6})
	if len(other) > int(st.Size()) {
		other = other[:st.Size()]
	}
	other = append(other, bytes.Repeat([]byte{'\n'}, int(st.Size())-len(other))...)
	os.WriteFile(csvPath, other, 0o644)
	os.Chtimes(csvPath, st.ModTime(), st.ModTime())
	if src := locate(); !src.Converted {
		t.Error("rewritten CSV (same size and mtime) not converted")
	}
	// A touched file is converted again (cheap insurance, no content check).
	later := st.ModTime().Add(time.Minute)
	os.Chtimes(csvPath, later, later)
	if src := locate(); !src.Converted {
		t.Error("touched CSV not converted")
	}
	// More rows.
	os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 150, Seed: 5}), 0o644)
	if src := locate(); !src.Converted || src.Rows != 150 {
		t.Errorf("grown CSV: %+v", src)
	}
}

func TestLocateDownloadedAndCorruptCache(t *testing.T) {
	cache := t.TempDir()
	os.WriteFile(filepath.Join(cache, CSVFileName), generated(t, GenerateOptions{Rows: 80, Seed: 8}), 0o644)
	src, err := Locate(context.Background(), Config{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != SourceDownloaded || src.ArrowPath != filepath.Join(cache, ArrowFileName) || src.Rows != 80 {
		t.Fatalf("source = %+v", src)
	}
	good, _ := os.ReadFile(src.ArrowPath)
	corruptions := map[string][]byte{
		"truncated": good[:len(good)*2/3],
		"empty":     nil,
		"garbage":   bytes.Repeat([]byte("ARROW1"), 1000),
	}
	for name, content := range corruptions {
		os.WriteFile(src.ArrowPath, content, 0o644)
		// A conversion killed earlier leaves a temporary file: it must go.
		stale := src.ArrowPath + ".tmp-12345"
		os.WriteFile(stale, []byte("partial"), 0o644)
		again, err := Locate(context.Background(), Config{CacheDir: cache})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !again.Converted || again.Rows != 80 {
			t.Errorf("%s Arrow file not rebuilt: %+v", name, again)
		}
		if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: stale temporary file left: %v", name, err)
		}
		d, err := OpenFile(again.ArrowPath)
		if err != nil {
			t.Fatalf("%s: rebuilt file does not open: %v", name, err)
		}
		d.Close()
	}
}

func TestLocateBadCSVPath(t *testing.T) {
	cache := t.TempDir()
	dir := t.TempDir()
	notAwards := writeFile(t, filepath.Join(dir, "other.csv"), "a,b\n1,2\n")
	truncated := writeFile(t, filepath.Join(dir, "cut.csv"), bulkHeader+"\n"+strings.Replace(row(minimalRow()), "Widgets", `"Widg`, 1))
	tests := []struct {
		name, path, want string
	}{
		{"directory", dir, "is a directory"},
		{"missing", filepath.Join(dir, "nope.csv"), "no such file"},
		{"not an awards CSV", notAwards, `not an SBIR awards CSV: starts with a,b; the header has no "Company"`},
		{"truncated", truncated, "line 2: quoted field is not closed"},
	}
	for _, tt := range tests {
		_, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: tt.path})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".arrow") || strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("failed conversions left %s in the cache", e.Name())
		}
	}
}

func TestLocateUnreadableCSV(t *testing.T) {
	p := writeFile(t, filepath.Join(t.TempDir(), "secret.csv"), bulkHeader+"\n")
	os.Chmod(p, 0)
	want := os.ErrPermission
	if os.Geteuid() == 0 {
		// Root reads through permissions; /proc/self/mem is a file whose
		// reads fail (offset 0 is never mapped).
		if _, err := os.Stat("/proc/self/mem"); err != nil {
			t.Skip("running as root without /proc: no unreadable file available")
		}
		p, want = "/proc/self/mem", syscall.EIO
	}
	_, err := Locate(context.Background(), Config{CacheDir: t.TempDir(), CSVPath: p})
	if !errors.Is(err, want) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v, want %v naming %s", err, want, p)
	}
}

func TestLocateUnwritableCacheFallsBack(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	file := writeFile(t, filepath.Join(t.TempDir(), "not-a-dir"), "x")
	src, err := Locate(context.Background(), Config{CacheDir: filepath.Join(file, "cache")})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Warnings) != 1 || !strings.Contains(src.Warnings[0], "is not writable") || !strings.HasPrefix(src.ArrowPath, tmp) {
		t.Fatalf("source = %+v", src)
	}
	var doc bytes.Buffer
	src.WriteDoctor(&doc)
	if !strings.Contains(doc.String(), "warning:") {
		t.Errorf("doctor output does not show the warning:\n%s", doc.String())
	}
}

// TestLocateTwoProcesses starts two real processes on the same new CSV:
// exactly one converts, both get the data.
func TestLocateTwoProcesses(t *testing.T) {
	cache := t.TempDir()
	csvPath := filepath.Join(t.TempDir(), "awards.csv")
	os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 20_000, Seed: 9}), 0o644)
	const n = 3
	var wg sync.WaitGroup
	results := make([]Source, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out, err := helperLocate(t, cache, csvPath).Output()
			if err != nil {
				errs[i] = fmt.Errorf("%v: %s", err, out)
				return
			}
			errs[i] = json.Unmarshal(out, &results[i])
		}(i)
	}
	wg.Wait()
	converted := 0
	for i := 0; i < n; i++ {
		if errs[i] != nil {
			t.Fatalf("process %d: %v", i, errs[i])
		}
		if results[i].Rows != 20_000 || results[i].ArrowPath != results[0].ArrowPath {
			t.Errorf("process %d: %+v", i, results[i])
		}
		if results[i].Converted {
			converted++
		}
	}
	if converted != 1 {
		t.Errorf("%d processes converted, want exactly 1", converted)
	}
}

// TestLocateKilledConversion kills a converting process and checks that
// what it leaves is never used, then that the next Locate recovers.
func TestLocateKilledConversion(t *testing.T) {
	cache := t.TempDir()
	csvPath := filepath.Join(t.TempDir(), "awards.csv")
	os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 60_000, Seed: 10}), 0o644)
	cmd := helperLocate(t, cache, csvPath)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for the temporary file, then kill the process mid-conversion.
	deadline := time.Now().Add(testenv.Scale(30 * time.Second))
	var tmps []string
	for len(tmps) == 0 && time.Now().Before(deadline) {
		tmps, _ = filepath.Glob(filepath.Join(cache, "*.tmp-*"))
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if len(tmps) == 0 {
		t.Fatal("no temporary file appeared")
	}
	arrows, _ := filepath.Glob(filepath.Join(cache, "*.arrow"))
	if len(arrows) != 0 {
		t.Skipf("the conversion finished before it could be killed (%v)", arrows)
	}
	src, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatal(err)
	}
	if !src.Converted || src.Rows != 60_000 {
		t.Errorf("after a killed conversion: %+v", src)
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "*.tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestLocateBadDownloadedCSV(t *testing.T) {
	cache := t.TempDir()
	writeFile(t, filepath.Join(cache, CSVFileName), "<html>oops</html>\n")
	_, err := Locate(context.Background(), Config{CacheDir: cache})
	if err == nil || !strings.Contains(err.Error(), "not an SBIR awards CSV: starts with <html>") ||
		!strings.Contains(err.Error(), "run `"+DownloadCommand+"` again") {
		t.Fatalf("err = %v", err)
	}
}

func TestLocateNoCacheDir(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	src, err := Locate(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Warnings) != 1 || !strings.Contains(src.Warnings[0], "no cache directory configured") || src.CacheDir != fallbackCacheDir() {
		t.Fatalf("source = %+v", src)
	}
}

func TestWriteDoctorRealData(t *testing.T) {
	cache := t.TempDir()
	csvPath := filepath.Join(cache, CSVFileName)
	os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 30, Seed: 17, Shape: ShapeLegacy41}), 0o644)
	when := time.Date(2026, 11, 2, 8, 30, 0, 0, time.UTC)
	os.Chtimes(csvPath, when, when)
	// SBIR_CSV_PATH naming the cached download shares its Arrow file.
	src, err := Locate(context.Background(), Config{CacheDir: cache, CSVPath: csvPath})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != SourceCSVPath || src.ArrowPath != filepath.Join(cache, ArrowFileName) {
		t.Fatalf("source = %+v", src)
	}
	src, err = Locate(context.Background(), Config{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != SourceDownloaded || src.Converted {
		t.Fatalf("downloaded source = %+v", src)
	}
	// Only a download from the SBIR program's site is called real.
	origins := []struct {
		url, doctor, describe string
	}{
		{"", "downloaded by `" + DownloadCommand + "`, origin not recorded", "(downloaded, origin not recorded, CSV of 2026-11-02)"},
		{DefaultURL, "real SBIR data downloaded by `" + DownloadCommand + "` from " + DefaultURL, "(real SBIR data from " + DefaultURL + ", CSV of 2026-11-02)"},
		{"file:///tmp/full.csv", "downloaded by `" + DownloadCommand + "` from file:///tmp/full.csv (not the SBIR program's site", "(downloaded from file:///tmp/full.csv, CSV of 2026-11-02)"},
		{"http://data.www.sbir.gov/x.csv", "from http://data.www.sbir.gov/x.csv (not the SBIR program's site", "(downloaded from http://"},
		{"https://sbir.gov.example.com/x.csv", "(not the SBIR program's site", "(downloaded from https://sbir.gov.example.com/"},
	}
	for _, o := range origins {
		if o.url != "" {
			if err := os.WriteFile(filepath.Join(cache, SourceFileName), []byte(o.url+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		src, err := Locate(context.Background(), Config{CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		var doc bytes.Buffer
		if err := src.WriteDoctor(&doc); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			o.doctor,
			"rows:             30",
			"columns:          42 (legacy-41 header, 41 CSV columns)",
			"CSV:              " + csvPath + " (",
			"modified 2026-11-02 08:30:00 UTC",
			"Arrow file:       " + src.ArrowPath,
			"load report:      30 rows from 30 records (legacy-41 header); missing columns (all null): UEI",
		} {
			if !strings.Contains(doc.String(), want) {
				t.Errorf("origin %q: doctor output lacks %q:\n%s", o.url, want, doc.String())
			}
		}
		if got := src.Describe(); !strings.HasPrefix(got, "30 awards from "+csvPath+" ") || !strings.Contains(got, o.describe) {
			t.Errorf("origin %q: Describe() = %q, want it to contain %q", o.url, got, o.describe)
		}
	}
}
