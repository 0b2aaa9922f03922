package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// labLine is one line of testdata/lab/lab.js's output: a check, or the
// closing summary.
type labLine struct {
	Check         string         `json:"check"`
	OK            bool           `json:"ok"`
	Detail        string         `json:"detail"`
	Timings       map[string]any `json:"timings"`
	Screenshots   []string       `json:"screenshots"`
	ConsoleErrors []string       `json:"console_errors"`
}

// artifactDir is where a test keeps files for people to look at:
// $SBIR_E2E_ARTIFACTS/NAME when set (kept after the run), else a
// directory under the test's temporary root.
func artifactDir(t *testing.T, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if base := os.Getenv("SBIR_E2E_ARTIFACTS"); base != "" {
		dir = filepath.Join(base, name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startLab starts JupyterLab from the virtualenv on a loopback port, serving
// dir, and returns its URL and token.
func startLab(t *testing.T, j *jupyterEnv, dir string, extra ...string) (*server, string, string) {
	t.Helper()
	// No announcements or update checks: the frontend would ask the server
	// to fetch them from the internet.
	settings := filepath.Join(j.root, "config", "lab", "user-settings", "@jupyterlab", "apputils-extension")
	if err := os.MkdirAll(settings, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(settings, "notification.jupyterlab-settings"), []byte(`{"fetchNews": "false", "checkForUpdates": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	token := fmt.Sprintf("sbir-%d", time.Now().UnixNano())
	args := append([]string{"lab", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--IdentityProvider.token=" + token, "--ServerApp.root_dir=" + dir,
		"--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly"}, extra...)
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	lab := startServer(t, "jupyter lab", j.command(context.Background(), filepath.Join(filepath.Dir(j.pythonExe), "jupyter"), args...))
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	lab.waitHTTP(t, url+"/api/status?token="+token, 90*time.Second)
	return lab, url, token
}

// TestE2EJupyterLab drives JupyterLab 4 in Debian's headless chromium with
// playwright-core (testdata/lab/lab.js): the launcher, a new "Go (SBIR
// awards)" notebook, a frame as an HTML table, a Vega-Lite chart, the
// completer, the tooltip, the stop button on an endless cell, restart, save
// and reopen. Screenshots are saved (SBIR_E2E_ARTIFACTS keeps them); the
// kernel's ready time and Shift-Enter → output latency are logged, not
// asserted.
func TestE2EJupyterLab(t *testing.T) {
	node := requireNode(t, true, "playwright-core")
	j := newVenvJupyterEnv(t, "jupyterlab", "jupyter_server")
	logVersions(t, j, "jupyterlab", "jupyter_server", "jupyter_client")
	out := j.install()
	const displayName = "Go (SBIR awards)"
	if !strings.Contains(out, `"sbir" (`+displayName+`)`) {
		t.Fatalf("sbir-kernel install does not name the kernelspec %q:\n%s", displayName, out)
	}
	notebooks := filepath.Join(j.root, "notebooks")
	if err := os.MkdirAll(notebooks, 0o755); err != nil {
		t.Fatal(err)
	}
	lab, url, token := startLab(t, j, notebooks)
	shots := artifactDir(t, j.root, "jupyterlab-screenshots")

	script, _ := filepath.Abs(filepath.Join("testdata", "lab", "lab.js"))
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(6*time.Minute))
	defer cancel()
	cmd := j.command(ctx, node, script)
	cmd.Env = append(cmd.Env, "NODE_PATH="+nodeModulesDir(), "LAB_URL="+url, "LAB_TOKEN="+token,
		"SHOT_DIR="+shots, "KERNEL_DISPLAY_NAME="+displayName, "CHROMIUM="+chromiumPath)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	checks := 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var l labLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Logf("lab.js: %s", sc.Text())
			continue
		}
		switch {
		case l.Check != "":
			checks++
			if l.OK {
				t.Logf("ok: %s: %s", l.Check, l.Detail)
			} else {
				t.Errorf("%s: FAILED: %s", l.Check, l.Detail)
			}
		case l.Timings != nil:
			b, _ := json.Marshal(l.Timings)
			t.Logf("timings (ms; reported, not asserted): %s", b)
			t.Logf("screenshots: %s", strings.Join(l.Screenshots, " "))
			if len(l.ConsoleErrors) > 0 {
				t.Logf("browser console errors: %q", l.ConsoleErrors)
			}
		}
	}
	werr := cmd.Wait()
	if checks < 10 {
		t.Errorf("lab.js reported %d of 10 checks (%v):\n%s", checks, werr, lastLines(stderr.String(), 30))
	}
	if werr != nil && !t.Failed() {
		t.Errorf("lab.js failed (%v) without a failed check:\n%s", werr, lastLines(stderr.String(), 30))
	}
	if t.Failed() {
		t.Logf("JupyterLab's log:\n%s", lastLines(lab.output(), 40))
	}

	// The saved notebook is a Go notebook with its rich outputs in place.
	saved := filepath.Join(notebooks, "sbir-analysis.ipynb")
	data, err := os.ReadFile(saved)
	if err == nil && os.Getenv("SBIR_E2E_ARTIFACTS") != "" {
		os.WriteFile(filepath.Join(shots, "sbir-analysis.ipynb"), data, 0o644)
	}
	if err != nil {
		t.Fatalf("the notebook saved from JupyterLab: %v", err)
	}
	var nb struct {
		Metadata struct {
			Kernelspec   map[string]string `json:"kernelspec"`
			LanguageInfo map[string]any    `json:"language_info"`
		} `json:"metadata"`
		Cells []struct {
			Outputs []struct {
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("sbir-analysis.ipynb: %v", err)
	}
	if ks := nb.Metadata.Kernelspec; ks["name"] != "sbir" || ks["display_name"] != displayName || ks["language"] != "go" {
		t.Errorf("saved kernelspec metadata %v, want name sbir, display_name %q, language go", ks, displayName)
	}
	mimes := map[string]bool{}
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			for m := range o.Data {
				mimes[m] = true
			}
		}
	}
	for _, m := range []string{"text/html", "application/vnd.vegalite.v5+json", "text/plain"} {
		if !mimes[m] {
			t.Errorf("the saved notebook has no %s output (it has %v)", m, mimes)
		}
	}

	// Shutting JupyterLab down shuts its kernels down: no kernel or worker
	// process may outlive it (newJupyterEnv's cleanup checks).
	if !lab.stop(20 * time.Second) {
		t.Errorf("JupyterLab did not exit within 20 s of SIGTERM:\n%s", lastLines(lab.output(), 20))
	}
}

// TestE2EJupyterLabClockSkew opens a notebook from a browser whose clock is
// two minutes behind the server's, as a laptop off NTP is. JupyterLab dates
// messages with the browser's clock; when the kernel's replay defence
// (kernel/replay.go) refused requests dated before its start less 30 s, the
// kernel stayed "unknown" with nothing but a line in the server's log. The
// replay floor now starts one window (10 minutes) before the kernel's start.
func TestE2EJupyterLabClockSkew(t *testing.T) {
	node := requireNode(t, true, "playwright-core")
	j := newVenvJupyterEnv(t, "jupyterlab", "jupyter_server")
	j.install()
	notebooks := filepath.Join(j.root, "notebooks")
	os.MkdirAll(notebooks, 0o755)
	lab, url, token := startLab(t, j, notebooks)
	script, _ := filepath.Abs(filepath.Join("testdata", "lab", "clock_skew.js"))
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(3*time.Minute))
	defer cancel()
	cmd := j.command(ctx, node, script)
	cmd.Env = append(cmd.Env, "NODE_PATH="+nodeModulesDir(), "LAB_URL="+url, "LAB_TOKEN="+token,
		"SKEW_SECONDS=-120", "KERNEL_DISPLAY_NAME=Go (SBIR awards)", "CHROMIUM="+chromiumPath)
	out, err := cmd.Output()
	var res struct {
		Status      string   `json:"status"`
		Output      []string `json:"output"`
		BrowserDate string   `json:"browser_date"`
		Error       string   `json:"error"`
	}
	if jerr := json.Unmarshal([]byte(lastLines(string(out), 1)), &res); jerr != nil {
		t.Fatalf("clock_skew.js (%v): %s", err, out)
	}
	if res.Status != "idle" || len(res.Output) == 0 || strings.TrimSpace(res.Output[0]) != "42" {
		t.Errorf("browser clock %s (2 minutes behind): kernel status %q, outputs %q, error %q; server log:\n%s",
			res.BrowserDate, res.Status, res.Output, res.Error, lastLines(lab.output(), 5))
	}
	lab.stop(20 * time.Second)
}
