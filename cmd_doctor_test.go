package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sbirtools/sbir-kernel/dataset"
)

// TestDoctor runs the doctor command against the embedded sample with a
// real sandbox worker: it names the data as synthetic with the command that
// fetches the real data, lists the isolation layers, and the package cache.
func TestDoctor(t *testing.T) {
	cache := t.TempDir()
	stdout, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": cache}, "doctor")
	if code != 0 {
		t.Fatalf("doctor: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"synthetic", "sbir-kernel download-data", "2,000",
		cache, // the Arrow file and the package cache live there
		"Sandbox", "worker-process", "seccomp", "landlock",
		"Per-notebook Go packages", "0 sets",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestDoctorUsage(t *testing.T) {
	_, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": t.TempDir()}, "doctor", "extra")
	if code != 2 || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("exit %d, stderr %q; want a usage error", code, stderr)
	}
}

// TestDoctorNoticesCorruptCache: with the cached Arrow file damaged after
// its conversion (its durable marker intact), doctor said all was well
// while every worker failed to start with a Go stack trace (issue 30,
// hole 6). Now the file is converted again, doctor says so, and cells run.
func TestDoctorNoticesCorruptCache(t *testing.T) {
	cache := t.TempDir()
	env := map[string]string{"SBIR_CACHE_DIR": cache}
	if _, stderr, code := runCLI(t, env, "run", "-c", "1"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	arrows, _ := filepath.Glob(filepath.Join(cache, "*.arrow"))
	if len(arrows) != 1 {
		t.Fatalf("Arrow files in the cache: %v", arrows)
	}
	corruptDictionaryEnd(t, arrows[0], "Phase")
	stdout, stderr, code := runCLI(t, env, "doctor")
	if code != 0 || !strings.Contains(stdout, "warning:") || !strings.Contains(stdout, "was corrupt") || !strings.Contains(stdout, `column "Phase"`) {
		t.Fatalf("doctor: exit %d; want a warning that the cache was corrupt and converted again\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, out := range []string{stdout, stderr} {
		if strings.Contains(out, "goroutine 1 [") || strings.Contains(out, ".go:") {
			t.Errorf("doctor printed a Go stack trace:\n%s", out)
		}
	}
	stdout, stderr, code = runCLI(t, env, "run", "-c", `award_data.GroupBy("Phase").Count().Len() > 0`)
	if code != 0 || strings.TrimSpace(stdout) != "true" {
		t.Fatalf("run after doctor: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// corruptDictionaryEnd changes, in the Arrow file at path, the last offset
// of column's dictionary values to point far past its text, as a flipped
// bit on disk would; the bytes are found by their content.
func corruptDictionaryEnd(t *testing.T, path, column string) {
	t.Helper()
	d, err := dataset.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := d.Schema().FieldIndices(column)
	dict, ok := d.Record().Column(i[0]).(*array.Dictionary)
	if len(i) != 1 || !ok {
		t.Fatalf("column %q: want one dictionary column", column)
	}
	offsets := bytes.Clone(dict.Dictionary().Data().Buffers()[1].Bytes())
	d.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, offsets) != 1 {
		t.Fatalf("%q's dictionary offsets occur %d times in the file", column, bytes.Count(b, offsets))
	}
	binary.LittleEndian.PutUint32(b[bytes.Index(b, offsets)+len(offsets)-4:], 0x7f000000)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
