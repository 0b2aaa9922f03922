package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pandasVenvPython is the python of the virtualenv of
// .ci/setup.d/50-pandas.sh, which holds nbconvert 7: $SBIR_PANDAS_VENV,
// else the script's default.
func pandasVenvPython() string {
	venv := os.Getenv("SBIR_PANDAS_VENV")
	if venv == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		venv = filepath.Join(base, "sbir-kernel-ci", "pandas", "venv")
	}
	return filepath.Join(venv, "bin", "python")
}

// chartLine is one line of testdata/scripts/charts_html.js's output.
type chartLine struct {
	File   string `json:"file"`
	Chart  int    `json:"chart"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Done   bool   `json:"done"`
}

// TestE2EChartsInHTML executes a notebook of every chart type
// (testdata/notebooks/charts.ipynb) and exports it to HTML with Debian's
// nbconvert 6.5 and with nbconvert 7 from PyPI, then opens both pages in
// Debian's Chromium and checks that every chart shows as a picture that
// is not blank: 6.5 strips SVG to its text, so what it shows is the PNG
// the kernel draws in Go.
func TestE2EChartsInHTML(t *testing.T) {
	jupyter := requireNotebookClients(t)
	node := requireNode(t, true, "playwright-core")
	nbconvert7 := pandasVenvPython()
	if err := exec.Command(nbconvert7, "-c", "import nbconvert; assert int(nbconvert.__version__.split('.')[0]) >= 7").Run(); err != nil {
		t.Fatalf("SBIR_E2E=1 makes this test mandatory, but %s has no nbconvert 7 (create it with: bash .ci/setup.d/50-pandas.sh)", nbconvert7)
	}
	j := newJupyterEnv(t)
	j.install()
	src, _ := filepath.Abs(filepath.Join("testdata", "notebooks", "charts.ipynb"))
	charts := strings.Count(mustRead(t, src), `"cell_type": "code"`)
	outDir := artifactDir(t, j.root, "charts-html")
	var pages []string
	for _, exporter := range []struct{ name, exe string }{
		{"nbconvert6", jupyter},
		{"nbconvert7", filepath.Join(filepath.Dir(nbconvert7), "jupyter-nbconvert")},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		args := []string{"--to", "html", "--execute", src, "--output-dir", outDir, "--output", exporter.name, "--ExecutePreprocessor.timeout=120"}
		if filepath.Base(exporter.exe) == "jupyter" {
			args = append([]string{"nbconvert"}, args...)
		}
		out, err := j.command(ctx, exporter.exe, args...).CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("%s --to html --execute charts.ipynb: %v\n%s", exporter.name, err, lastLines(string(out), 30))
		}
		t.Logf("%s: %s", exporter.name, lastLines(string(out), 1))
		pages = append(pages, filepath.Join(outDir, exporter.name+".html"))
	}
	checkChartPages(t, j, node, charts, pages)
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkChartPages runs charts_html.js on the pages and turns its report
// into test results.
func checkChartPages(t *testing.T, j *jupyterEnv, node string, charts int, pages []string) {
	t.Helper()
	script, _ := filepath.Abs(filepath.Join("testdata", "scripts", "charts_html.js"))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := j.command(ctx, node, append([]string{script}, pages...)...)
	cmd.Env = append(cmd.Env, "NODE_PATH="+nodeModulesDir(), "CHROMIUM="+chromiumPath, fmt.Sprintf("CHARTS=%d", charts))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	checked, done := 0, false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var l chartLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Logf("charts_html.js: %s", sc.Text())
			continue
		}
		if l.Done {
			done = true
			continue
		}
		name := fmt.Sprintf("%s chart %d", filepath.Base(l.File), l.Chart+1)
		if l.Chart < 0 {
			name = filepath.Base(l.File)
		}
		if l.OK {
			checked++
			t.Logf("ok: %s: %s", name, l.Detail)
		} else {
			t.Errorf("%s: %s", name, l.Detail)
		}
	}
	werr := cmd.Wait()
	if !done || werr != nil {
		t.Errorf("charts_html.js did not finish (%v):\n%s", werr, lastLines(stderr.String(), 30))
	}
	if want := len(pages) * (charts + 1); checked != want && !t.Failed() {
		t.Errorf("%d checks passed, want %d", checked, want)
	}
}
