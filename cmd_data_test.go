package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/dataset"
)

// runDataCLI runs one sbir-kernel command line with the given environment.
func runDataCLI(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cli := &cliEnv{
		Stdin:  strings.NewReader(""),
		Stdout: &o,
		Stderr: &e,
		Getenv: func(k string) string { return env[k] },
	}
	cli.Logger = newLogger(&e, 0)
	code = runMain(context.Background(), cli, args)
	return o.String(), e.String(), code
}

func TestGenerateDataCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.csv")
	_, stderr, code := runDataCLI(t, nil, "generate-data", "-rows", "25", "-seed", "3", "-shape", "41", "-bom", "-o", out)
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
	a, _, _ := runDataCLI(t, nil, "generate-data", "-rows", "5")
	b, _, _ := runDataCLI(t, nil, "generate-data", "-rows", "5")
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
		_, stderr, code := runDataCLI(t, nil, append([]string{"generate-data"}, tt.args...)...)
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

	stdout, stderr, code := runDataCLI(t, env, "download-data")
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
	_, stderr, code = runDataCLI(t, env, "download-data", "-q", srv.URL+"/page")
	if code != 1 || !strings.Contains(stderr, "not an SBIR awards CSV: starts with <!DOCTYPE html>") {
		t.Errorf("HTML page: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runDataCLI(t, env, "download-data", "-q", srv.URL+"/forbidden")
	if code != 1 || !strings.Contains(stderr, "HTTP 403 Forbidden from "+srv.URL+"/forbidden") {
		t.Errorf("403: exit %d, stderr %q", code, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(cache, "award_data.csv"))
	if !bytes.Equal(before, after) {
		t.Error("a failed download changed the cached CSV")
	}

	_, stderr, code = runDataCLI(t, env, "download-data", "a", "b")
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
