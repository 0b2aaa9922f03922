package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

func TestGenerateDataCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.csv")
	_, stderr, code := runCLI(t, nil, "generate-data", "-rows", "25", "-seed", "3", "-shape", "41", "-bom", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "wrote 25 synthetic awards") {
		t.Errorf("stderr = %q", stderr)
	}
	rep, err := dataset.ConvertFile(context.Background(), out, filepath.Join(dir, "g.arrow"), dataset.ConvertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 25 || rep.HeaderShape != dataset.ShapeLegacy41 || !rep.BOM {
		t.Errorf("report: %s", rep.Summary())
	}
	// Standard output, deterministic.
	a, _, _ := runCLI(t, nil, "generate-data", "-rows", "5")
	b, _, _ := runCLI(t, nil, "generate-data", "-rows", "5")
	if a != b || !strings.HasPrefix(a, dataset.ColCompany+","+dataset.ColAwardTitle) {
		t.Errorf("stdout output not deterministic or not a CSV: %.80q", a)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files left in the output directory: %v", entries)
	}
}

func TestGenerateDataUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-shape", "43"}, `-shape "43": use 42 or 41`},
		{[]string{"-rows", "-1"}, "must not be negative"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		_, stderr, code := runCLI(t, nil, append([]string{"generate-data"}, tt.args...)...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

func TestDownloadDataCommand(t *testing.T) {
	var good bytes.Buffer
	if err := dataset.Generate(&good, dataset.GenerateOptions{Rows: 120, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	html := "<!DOCTYPE html><html><body>Access denied</body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/award_data.csv":
			w.Write(good.Bytes())
		case "/page":
			w.Write([]byte(html))
		default:
			w.WriteHeader(http.StatusForbidden)
		}
	}))
	defer srv.Close()
	cache := t.TempDir()
	env := map[string]string{"SBIR_CACHE_DIR": cache, "SBIR_CSV_URL": srv.URL + "/award_data.csv"}

	stdout, stderr, code := runCLI(t, env, "download-data")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"downloaded", srv.URL + "/award_data.csv", filepath.Join(cache, "award_data.arrow"), "120 rows"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "downloading") || !strings.Contains(stderr, "converting to Arrow") {
		t.Errorf("no plain progress lines on a non-terminal stderr:\n%s", stderr)
	}
	before, _ := os.ReadFile(filepath.Join(cache, "award_data.csv"))

	// The argument wins over SBIR_CSV_URL; failures keep the data.
	_, stderr, code = runCLI(t, env, "download-data", "-q", srv.URL+"/page")
	if code != 1 || !strings.Contains(stderr, "not an SBIR awards CSV: starts with <!DOCTYPE html>") {
		t.Errorf("HTML page: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runCLI(t, env, "download-data", "-q", srv.URL+"/forbidden")
	if code != 1 || !strings.Contains(stderr, "HTTP 403 Forbidden from "+srv.URL+"/forbidden") {
		t.Errorf("403: exit %d, stderr %q", code, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(cache, "award_data.csv"))
	if !bytes.Equal(before, after) {
		t.Error("a failed download changed the cached CSV")
	}

	_, stderr, code = runCLI(t, env, "download-data", "a", "b")
	if code != 2 || !strings.Contains(stderr, `unexpected argument "b"`) {
		t.Errorf("two arguments: exit %d, stderr %q", code, stderr)
	}
}

func TestDownloadProgressBar(t *testing.T) {
	var out bytes.Buffer
	p := newDownloadProgress(&out, true)
	p(dataset.StageDownload, 0, 50e6)
	p(dataset.StageDownload, 50e6, 50e6)
	p(dataset.StageConvert, 50e6, 50e6)
	p("", 0, 0)
	s := out.String()
	if !strings.Contains(s, "downloading") || !strings.Contains(s, "MB") || !strings.Contains(s, "converting to Arrow") {
		t.Errorf("progress bar output:\n%q", s)
	}
}

// TestDownloadDataInterrupt sends a real SIGINT to a real sbir-kernel
// process in the middle of a download: it must stop, say so, and leave the
// previous data exactly as it was.
func TestDownloadDataInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildKernel(t, t.TempDir())
	cache := t.TempDir()
	var good bytes.Buffer
	if err := dataset.Generate(&good, dataset.GenerateOptions{Rows: 100, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "good.csv")
	os.WriteFile(local, good.Bytes(), 0o644)
	if _, err := dataset.Download(context.Background(), dataset.DownloadOptions{URL: local, CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	csvBefore, _ := os.ReadFile(filepath.Join(cache, "award_data.csv"))
	arrowBefore, _ := os.ReadFile(filepath.Join(cache, "award_data.arrow"))

	streaming := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "500000000")
		w.Write(good.Bytes())
		w.(http.Flusher).Flush()
		once.Do(func() { close(streaming) })
		<-r.Context().Done() // a slow server: nothing more until the client leaves
	}))
	defer srv.Close()

	cmd := exec.Command(bin, "download-data", srv.URL+"/award_data.csv")
	cmd.Env = append(os.Environ(), "SBIR_CACHE_DIR="+cache)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-streaming:
	case <-time.After(testenv.Scale(30 * time.Second)):
		cmd.Process.Kill()
		t.Fatal("the download did not start")
	}
	// Interrupt once the client has written what it received, so that
	// the interrupt finds a partial download to throw away.
	deadline := time.Now().Add(testenv.Scale(30 * time.Second))
	for partialDownload(cache) < int64(good.Len()) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the client did not write the %d bytes it received", good.Len())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "the previous data is kept") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	csvAfter, _ := os.ReadFile(filepath.Join(cache, "award_data.csv"))
	arrowAfter, _ := os.ReadFile(filepath.Join(cache, "award_data.arrow"))
	if !bytes.Equal(csvBefore, csvAfter) || !bytes.Equal(arrowBefore, arrowAfter) {
		t.Error("the interrupted download changed the cached data")
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".download-") || strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// partialDownload returns the size of the download in progress in cache
// (dataset.Download's temporary file), 0 when there is none.
func partialDownload(cache string) int64 {
	tmps, _ := filepath.Glob(filepath.Join(cache, dataset.CSVFileName+".download-*"))
	var n int64
	for _, p := range tmps {
		if st, err := os.Stat(p); err == nil {
			n = max(n, st.Size())
		}
	}
	return n
}
