package e2e

import (
	"bytes"
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

// multiline is a notebook string field: JSON holds it as a string or as a
// list of lines. A JSON output (a MIME type ending in +json) is an object:
// it is kept as its JSON text.
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		*m = multiline(t)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	*m = multiline(strings.Join(parts, ""))
	return nil
}

type nbOutput struct {
	OutputType string               `json:"output_type"`
	Name       string               `json:"name"`
	Text       multiline            `json:"text"`
	Data       map[string]multiline `json:"data"`
	Ename      string               `json:"ename"`
	Evalue     string               `json:"evalue"`
	Traceback  []string             `json:"traceback"`
}

type nbCell struct {
	ID             string     `json:"id"`
	CellType       string     `json:"cell_type"`
	Source         multiline  `json:"source"`
	ExecutionCount *int       `json:"execution_count"`
	Outputs        []nbOutput `json:"outputs"`
}

type notebook struct {
	Cells []nbCell `json:"cells"`
}

func readNotebook(t *testing.T, path string) notebook {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("executed notebook: %v", err)
	}
	var nb notebook
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("executed notebook %s: %v", path, err)
	}
	return nb
}

func (nb notebook) cell(t *testing.T, id string) nbCell {
	t.Helper()
	for _, c := range nb.Cells {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("notebook has no cell %q", id)
	return nbCell{}
}

// describe renders a cell's outputs for failure messages.
func (c nbCell) describe() string {
	b, _ := json.MarshalIndent(c.Outputs, "", " ")
	return fmt.Sprintf("cell %s %q outputs: %s", c.ID, c.Source, b)
}

// stdout concatenates the cell's stdout streams.
func (c nbCell) stdout() string {
	var b strings.Builder
	for _, o := range c.Outputs {
		if o.OutputType == "stream" && o.Name == "stdout" {
			b.WriteString(string(o.Text))
		}
	}
	return b.String()
}

func (c nbCell) output(kind string) (nbOutput, bool) {
	for _, o := range c.Outputs {
		if o.OutputType == kind {
			return o, true
		}
	}
	return nbOutput{}, false
}

// errorText is the cell's error output as a user reads it.
func (c nbCell) errorText() string {
	o, ok := c.output("error")
	if !ok {
		return ""
	}
	return o.Ename + ": " + o.Evalue + "\n" + strings.Join(o.Traceback, "\n")
}

func requireNotebookClients(t *testing.T) string {
	t.Helper()
	jupyter := requireJupyter(t, "jupyter-core jupyter-nbconvert jupyter-client")
	requirePython(t, map[string]string{
		"nbclient":       "python3-nbclient",
		"nbformat":       "python3-nbformat",
		"nbconvert":      "jupyter-nbconvert",
		"jupyter_client": "python3-jupyter-client",
		"jupyter_core":   "jupyter-core",
	})
	return jupyter
}

// nbconvert executes a notebook from testdata/notebooks with
// `jupyter nbconvert --to notebook --execute` and returns the path of the
// executed notebook, the combined output and the error.
func (j *jupyterEnv) nbconvert(jupyter, name string, extra ...string) (string, string, error) {
	src, _ := filepath.Abs(filepath.Join("testdata", "notebooks", name+".ipynb"))
	outDir := filepath.Join(j.root, "out")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(3*time.Minute))
	defer cancel()
	args := append([]string{"nbconvert", "--to", "notebook", "--execute", src,
		"--output-dir", outDir, "--output", name + ".nbconvert",
		"--ExecutePreprocessor.timeout=120"}, extra...)
	out, err := j.command(ctx, jupyter, args...).CombinedOutput()
	return filepath.Join(outDir, name+".nbconvert.ipynb"), string(out), err
}

// runNotebook executes a notebook with testdata/scripts/run_notebook.py
// (nbclient, as papermill does), which saves it even when a cell fails.
func (j *jupyterEnv) runNotebook(t *testing.T, name string, args ...string) (notebook, runResult) {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("testdata", "notebooks", name+".ipynb"))
	dst := filepath.Join(j.root, "out", fmt.Sprintf("%s.run%d.ipynb", name, time.Now().UnixNano()))
	os.MkdirAll(filepath.Dir(dst), 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(3*time.Minute))
	defer cancel()
	stdout, stderr, _ := j.python(ctx, "run_notebook.py", append([]string{src, dst}, args...)...)
	var res runResult
	if err := json.Unmarshal([]byte(lastLines(stdout, 1)), &res); err != nil {
		t.Fatalf("run_notebook.py printed no result (%v):\nstdout:\n%s\nstderr:\n%s", err, stdout, lastLines(stderr, 40))
	}
	return readNotebook(t, dst), res
}

type runResult struct {
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Injected string `json:"injected"`
}

// TestE2ENotebooks executes the notebooks in testdata/notebooks with
// nbconvert and nbclient, the engine papermill uses.
// frameResult checks cell-8's award_data.Head(3): an execute_result with
// the text and HTML tables, and the rows as data.
func frameResult(c nbCell) bool {
	o, ok := c.output("execute_result")
	var table struct {
		Schema struct {
			Fields []struct{ Name, Type string }
		}
		Data []map[string]any
	}
	err := json.Unmarshal([]byte(o.Data["application/vnd.dataresource+json"]), &table)
	return ok && strings.Contains(string(o.Data["text/html"]), "<table") && strings.Contains(string(o.Data["text/plain"]), "Company") &&
		err == nil && len(table.Data) == 3 && len(table.Schema.Fields) == 43 && table.Schema.Fields[1].Name == "Company"
}

func TestE2ENotebooks(t *testing.T) {
	jupyter := requireNotebookClients(t)
	j := newJupyterEnv(t)
	j.install()
	j.install("--name", "sbir-short", "--display-name", "Go (2 s cells)", "--cell-timeout", "2s", "--kill-grace", "1s")

	t.Run("outputs", func(t *testing.T) {
		path, out, err := j.nbconvert(jupyter, "basics")
		if err != nil {
			t.Fatalf("jupyter nbconvert --execute basics.ipynb: %v\n%s", err, lastLines(out, 40))
		}
		nb := readNotebook(t, path)
		checks := []struct {
			id    string
			check func(c nbCell) bool
			want  string
		}{
			{"cell-1", func(c nbCell) bool { return c.stdout() == "hello from Go\n" }, `stdout "hello from Go\n"`},
			{"cell-2", func(c nbCell) bool { return plain(c) == "55" }, `execute_result "55"`},
			{"cell-3", func(c nbCell) bool { return len(c.Outputs) == 0 }, "no output for a func declaration"},
			{"cell-4", func(c nbCell) bool { return plain(c) == "144" }, `execute_result "144" (state kept across cells)`},
			{"cell-5", func(c nbCell) bool { return c.stdout() == "DOD, NASA, NSF\n" }, `stdout "DOD, NASA, NSF\n"`},
			{"cell-6", func(c nbCell) bool {
				o, ok := c.output("display_data")
				return ok && strings.Contains(string(o.Data["text/html"]), "<b>SBIR</b>") && o.Data["text/plain"] != ""
			}, "display_data with text/html and text/plain"},
			{"cell-7", func(c nbCell) bool { return plain(c) == "true" }, `execute_result "true" (the data is loaded)`},
			{"cell-8", frameResult, "a frame as execute_result with an HTML table, a text table and its rows as data (application/vnd.dataresource+json: the index and 42 columns)"},
		}
		for _, ck := range checks {
			c := nb.cell(t, ck.id)
			if !ck.check(c) {
				t.Errorf("want %s; got %s", ck.want, c.describe())
			}
		}
		for i, id := range []string{"cell-1", "cell-2", "cell-3", "cell-4"} {
			if c := nb.cell(t, id); c.ExecutionCount == nil || *c.ExecutionCount != i+1 {
				t.Errorf("%s execution_count = %v, want %d", id, c.ExecutionCount, i+1)
			}
		}
	})

	t.Run("a failing cell stops the run", func(t *testing.T) {
		path, out, err := j.nbconvert(jupyter, "failing")
		if err == nil {
			t.Errorf("nbconvert succeeded on a notebook with a failing cell:\n%s", lastLines(out, 20))
		}
		if !strings.Contains(out, "CellExecutionError") || !strings.Contains(out, "deliberate failure") {
			t.Errorf("nbconvert's report lacks the cell error:\n%s", lastLines(out, 30))
		}
		if _, err := os.Stat(path); err == nil {
			t.Logf("note: nbconvert wrote %s despite the error", path)
		}

		nb, res := j.runNotebook(t, "failing")
		if res.OK || !strings.Contains(res.Error, "deliberate failure") {
			t.Errorf("nbclient result %+v, want a CellExecutionError naming the panic", res)
		}
		if got := nb.cell(t, "cell-0").stdout(); got != "before the failure\n" {
			t.Errorf("first cell: %s", nb.cell(t, "cell-0").describe())
		}
		failed := nb.cell(t, "cell-1")
		if o, ok := failed.output("error"); !ok || !strings.Contains(failed.errorText(), "deliberate failure") || o.Ename == "" {
			t.Errorf("the saved notebook lacks the error: %s", failed.describe())
		}
		if len(failed.Outputs) != 1 {
			t.Errorf("the failing cell has %d outputs, want exactly the error: %s", len(failed.Outputs), failed.describe())
		}
		if after := nb.cell(t, "cell-2"); len(after.Outputs) != 0 || after.ExecutionCount != nil {
			t.Errorf("the cell after the failure ran: %s", after.describe())
		}
	})

	t.Run("reading stdin fails clearly", func(t *testing.T) {
		// nbclient (and so papermill) sends allow_stdin false.
		nb, res := j.runNotebook(t, "stdin")
		cell := nb.cell(t, "cell-0")
		if res.OK || !strings.Contains(cell.errorText(), "not allowed") || !strings.Contains(cell.errorText(), "stdin") {
			t.Errorf("want an error saying that reading input is not allowed; got %s", cell.describe())
		}
		if after := nb.cell(t, "cell-1"); len(after.Outputs) != 0 {
			t.Errorf("the cell after the failed read ran: %s", after.describe())
		}
	})

	t.Run("a cell over the time limit", func(t *testing.T) {
		_, out, err := j.nbconvert(jupyter, "timeout", "--ExecutePreprocessor.kernel_name=sbir-short")
		if err == nil {
			t.Errorf("nbconvert succeeded on an endless cell:\n%s", lastLines(out, 20))
		}
		// Which limit ended the cell (the kernel's 2 s, not nbclient's
		// own) is read from the error below, not from the clock.

		nb, res := j.runNotebook(t, "timeout", "--kernel", "sbir-short")
		cell := nb.cell(t, "cell-1")
		text := cell.errorText()
		lower := strings.ToLower(text)
		if res.OK || strings.Contains(res.Error, "CellTimeoutError") {
			t.Errorf("nbclient result %+v: want the kernel's own timeout error, not nbclient's", res)
		}
		if !strings.Contains(lower, "timeout") && !strings.Contains(lower, "time limit") {
			t.Errorf("the error does not say the cell timed out: %s", cell.describe())
		}
		if !strings.Contains(text, "2s") && !strings.Contains(text, "2 s") {
			t.Errorf("the error does not name the 2 s limit: %s", cell.describe())
		}
		if after := nb.cell(t, "cell-2"); len(after.Outputs) != 0 {
			t.Errorf("the cell after the timeout ran: %s", after.describe())
		}
	})
}

// plain is the text/plain of the cell's execute_result.
func plain(c nbCell) string {
	o, ok := c.output("execute_result")
	if !ok {
		return ""
	}
	return string(o.Data["text/plain"])
}
