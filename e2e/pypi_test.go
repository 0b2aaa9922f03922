package e2e

// The clients users install from PyPI today (jupyter_client 8,
// jupyter_kernel_test, nbclient, papermill), run on the same checks as the
// Debian 12 generation in conformance_test.go, kernelmanager_test.go,
// nbconvert_test.go and papermill_test.go, so that both generations are
// proven on every run.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// logVersions logs the PyPI versions a test ran against.
func logVersions(t *testing.T, j *jupyterEnv, dists ...string) {
	t.Helper()
	script := "from importlib.metadata import version\nimport sys\nprint(', '.join(d + ' ' + version(d) for d in sys.argv[1:]))"
	out, err := exec.Command(j.pythonExe, append([]string{"-c", script}, dists...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("reading versions from %s: %v\n%s", j.pythonExe, err, out)
	}
	t.Logf("PyPI clients: %s", strings.TrimSpace(string(out)))
}

// runVenvConformance runs one KernelTests class of conformance.py with the
// environment's python (runConformance in conformance_test.go always uses
// Debian's).
func runVenvConformance(t *testing.T, j *jupyterEnv, class string, allowedSkips map[string]bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(5*time.Minute))
	defer cancel()
	dir, _ := filepath.Abs(filepath.Join("testdata", "scripts"))
	cmd := j.command(ctx, j.pythonExe, "-m", "unittest", "-v", "conformance."+class)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	report := string(out)
	results, skipped := parseUnittest(report)
	if len(results) == 0 {
		t.Fatalf("no test results from the conformance suite (%v):\n%s", err, report)
	}
	allowed := 0
	for _, r := range results {
		base, _, _ := strings.Cut(r.test, " ")
		switch {
		case r.outcome == "ok", r.outcome == noOutcome:
		case strings.HasPrefix(r.outcome, "skipped") && allowedSkips[base]:
			allowed++
		case strings.HasPrefix(r.outcome, "skipped"):
			t.Errorf("%s was skipped (%s): a sample attribute is missing or the kernel lacks the feature", r.test, r.outcome)
		default:
			t.Errorf("%s: %s\n%s", r.test, r.outcome, failureSections(report, base))
		}
	}
	if skipped > allowed {
		t.Errorf("the suite reports %d skipped tests, only %d of them allowed:\n%s", skipped, allowed, lastLines(report, 40))
	}
	if err != nil && !t.Failed() {
		t.Errorf("the conformance suite failed (%v) without a failing test line:\n%s", err, lastLines(report, 60))
	}
	t.Logf("%d conformance tests, %d skipped", len(results), skipped)
}

// TestE2EPyPIConformance is TestE2EConformance on jupyter_kernel_test and
// jupyter_client from PyPI, cross-checked on the virtualenv's ipykernel.
func TestE2EPyPIConformance(t *testing.T) {
	j := newVenvJupyterEnv(t, "jupyter_kernel_test", "jupyter_client", "ipykernel")
	logVersions(t, j, "jupyter_kernel_test", "jupyter_client", "ipykernel")
	j.install()
	t.Run("harness_on_ipykernel", func(t *testing.T) {
		runVenvConformance(t, j, "IPyKernelTests", map[string]bool{"test_history": true})
	})
	if t.Failed() {
		t.Fatal("the conformance harness fails on ipykernel, so its verdict on sbir would mean nothing")
	}
	t.Run("sbir", func(t *testing.T) {
		runVenvConformance(t, j, "SBIRKernelTests", map[string]bool{"test_pager": true})
	})
}

// TestE2EPyPIKernelManager is TestE2EKernelManager on jupyter_client 8,
// whose KernelManager starts kernels through a provisioner
// (LocalProvisioner, as JupyterLab 4 does): interrupt, restart, shutdown,
// no process left behind.
func TestE2EPyPIKernelManager(t *testing.T) {
	j := newVenvJupyterEnv(t, "jupyter_client", "ipykernel")
	logVersions(t, j, "jupyter_client", "ipykernel")
	j.install()
	t.Run("harness_on_ipykernel", func(t *testing.T) { runLifecycle(t, j, "python3") })
	if t.Failed() {
		t.Fatal("kernel_lifecycle.py fails on ipykernel, so its verdict on sbir would mean nothing")
	}
	t.Run("sbir", func(t *testing.T) { runLifecycle(t, j, "sbir", "--binary", j.bin) })
}

// TestE2EPyPINbclient executes testdata/notebooks/basics.ipynb with the
// current nbclient.
func TestE2EPyPINbclient(t *testing.T) {
	j := newVenvJupyterEnv(t, "nbclient", "nbformat")
	logVersions(t, j, "nbclient", "nbformat", "jupyter_client")
	j.install()
	nb, res := j.runNotebook(t, "basics")
	if !res.OK {
		t.Fatalf("nbclient failed: %s", res.Error)
	}
	if c := nb.cell(t, "cell-1"); c.stdout() != "hello from Go\n" {
		t.Errorf("want stdout %q; got %s", "hello from Go\n", c.describe())
	}
	if c := nb.cell(t, "cell-4"); plain(c) != "144" {
		t.Errorf("want execute_result 144 (state kept across cells); got %s", c.describe())
	}
	c := nb.cell(t, "cell-8")
	if o, ok := c.output("execute_result"); !ok || !strings.Contains(string(o.Data["text/html"]), "<table") {
		t.Errorf("want a frame as an HTML table; got %s", c.describe())
	}
	nb, res = j.runNotebook(t, "failing")
	if res.OK || !strings.Contains(nb.cell(t, "cell-1").errorText(), "deliberate failure") {
		t.Errorf("a failing cell: nbclient result %+v, cell %s", res, nb.cell(t, "cell-1").describe())
	}
}

// papermill runs papermill (through papermill_go.py, which adds a Go
// translator, when goTranslator is true) and returns the executed notebook.
func (j *jupyterEnv) papermill(t *testing.T, goTranslator bool, src string, args ...string) (notebook, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(2*time.Minute))
	defer cancel()
	dst := filepath.Join(j.root, "out", "papermill-"+strings.ReplaceAll(t.Name(), "/", "_")+".ipynb")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	argv := append([]string{src, dst, "--execution-timeout", "60", "--log-output"}, args...)
	var cmd *exec.Cmd
	if goTranslator {
		script, _ := filepath.Abs(filepath.Join("testdata", "scripts", "papermill_go.py"))
		cmd = j.command(ctx, j.pythonExe, append([]string{script}, argv...)...)
	} else {
		cmd = j.command(ctx, filepath.Join(filepath.Dir(j.pythonExe), "papermill"), argv...)
	}
	out, err := cmd.CombinedOutput()
	var nb notebook
	if data, rerr := readFileIfExists(dst); rerr == nil && data != nil {
		if jerr := json.Unmarshal(data, &nb); jerr != nil {
			t.Fatalf("papermill wrote an unreadable notebook: %v", jerr)
		}
	}
	return nb, string(out), err
}

// TestE2EPapermill runs papermill from PyPI: without parameters, with
// parameters of every type papermill can pass (-p, -r, -y) through a Go
// translator, and with the C# translator the README describes.
func TestE2EPapermill(t *testing.T) {
	j := newVenvJupyterEnv(t, "papermill", "nbclient")
	logVersions(t, j, "papermill", "nbclient")
	j.install()
	basics, _ := filepath.Abs(filepath.Join("testdata", "notebooks", "basics.ipynb"))
	types, _ := filepath.Abs(filepath.Join("testdata", "pypi", "types.ipynb"))
	params, _ := filepath.Abs(filepath.Join("testdata", "notebooks", "parameters.ipynb"))

	t.Run("no parameters", func(t *testing.T) {
		nb, out, err := j.papermill(t, false, basics)
		if err != nil {
			t.Fatalf("papermill: %v\n%s", err, lastLines(out, 30))
		}
		if c := nb.cell(t, "cell-1"); c.stdout() != "hello from Go\n" {
			t.Errorf("want stdout %q; got %s", "hello from Go\n", c.describe())
		}
	})

	t.Run("plain papermill refuses -p for Go", func(t *testing.T) {
		_, out, err := j.papermill(t, false, params, "-p", "year", "2015")
		if err == nil || !strings.Contains(out, "No parameter translator functions specified for kernel 'sbir' or language 'go'") {
			t.Errorf("want papermill's missing-translator error (the README quotes it); got %v:\n%s", err, lastLines(out, 20))
		}
	})

	t.Run("every type with the Go translator", func(t *testing.T) {
		nb, out, err := j.papermill(t, true, types,
			"-p", "agency", `Agência "Espacial" \ 🚀`,
			"-p", "year", "5000000000",
			"-p", "rate", "0.5",
			"-p", "verbose", "True",
			"-p", "nothing", "None",
			"-r", "raw", "2015",
			"-y", "{ids: [1, 2, 3], mixed: [1, two, 3.5], caps: {NASA: 1.5, DOD: 2}, nested: {a: [1, 2], b: {c: true}}}",
		)
		if err != nil {
			t.Fatalf("papermill_go.py: %v\n%s", err, lastLines(out, 30))
		}
		want := strings.Join([]string{
			`string Agência "Espacial" \ 🚀`,
			"int 5000000000",
			"float64 0.5",
			"bool true",
			"<nil> <nil>",
			"[]int [1 2 3]",
			"[]interface {} [1 two 3.5]",
			"map[string]float64 map[DOD:2 NASA:1.5]",
			"map[string]interface {} map[a:[1 2] b:map[c:true]]",
			"string 2015",
		}, "\n") + "\n"
		var injected string
		for _, c := range nb.Cells {
			if c.CellType == "code" && c.ID != "params" && c.ID != "show" {
				injected = string(c.Source)
			}
		}
		if got := nb.cell(t, "show").stdout(); got != want {
			t.Errorf("injected cell:\n%s\nprinted:\n%s\nwant:\n%s", injected, got, want)
		}
	})

	// The README's table of what papermill -l .net-csharp injects, checked on
	// papermill itself (papermill_test.go checks the same lines emulated).
	for _, tt := range []struct {
		name   string
		args   []string
		stdout string // "" means the injected cell fails
	}{
		{"c#: ints, floats, bools and ASCII strings", []string{"-p", "agency", "NASA", "-p", "year", "2015", "-p", "minAmount", "150000.5", "-p", "verbose", "True"},
			"agency=NASA year=2015 minAmount=150000.5 verbose=true\n"},
		{"c#: a whole number redeclares a float as int", []string{"-p", "minAmount", "150000"},
			"agency=DOD year=2020 minAmount=%!f(int=150000) verbose=false\n"},
		{"c#: integers beyond 32 bits", []string{"-p", "year", "5000000000"}, ""},
		{"c#: lists", []string{"-y", "{xs: [1, 2]}"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nb, out, err := j.papermill(t, false, params, append([]string{"-l", ".net-csharp"}, tt.args...)...)
			if tt.stdout == "" {
				if err == nil {
					t.Errorf("papermill succeeded; the README says this injected cell fails:\n%s", lastLines(out, 20))
				}
				if len(nb.Cells) == 0 {
					t.Fatalf("papermill wrote no notebook (%v):\n%s", err, lastLines(out, 20))
				}
				failed := false
				for _, c := range nb.Cells {
					if _, ok := c.output("error"); ok && strings.Contains(string(c.Source), "var ") {
						failed = true
						t.Logf("injected %q: %s", c.Source, firstLine(c.errorText()))
					}
				}
				if !failed {
					t.Errorf("no injected cell with an error in the output notebook")
				}
				if c := nb.cell(t, "cell-2"); len(c.Outputs) != 0 {
					t.Errorf("the notebook went on after the bad parameters: %s", c.describe())
				}
				return
			}
			if err != nil {
				t.Fatalf("papermill -l .net-csharp: %v\n%s", err, lastLines(out, 30))
			}
			if got := nb.cell(t, "cell-2").stdout(); got != tt.stdout {
				t.Errorf("printed %q, want %q", got, tt.stdout)
			}
		})
	}
}
