package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/pkgenv/pkgenvtest"
)

// TestE2EPackages executes a notebook whose first cell declares a module,
// through Jupyter (nbconvert) and the installed kernelspec: the package
// flags given to `sbir-kernel install` must reach the kernel, which
// installs from a file:// module proxy (never the network) when
// --allow-packages is set, and refuses otherwise.
func TestE2EPackages(t *testing.T) {
	jupyter := requireNotebookClients(t)
	j := newJupyterEnv(t)
	proxy := pkgenvtest.New(t, pkgenvtest.Module{
		Path: "github.com/montanaflynn/stats", Version: "v0.7.1",
		Files: map[string]string{"median.go": "package stats\n\nimport \"sort\"\n\n// Median returns the median of xs.\nfunc Median(xs []float64) (float64, error) {\n\tc := append([]float64(nil), xs...)\n\tsort.Float64s(c)\n\tn := len(c)\n\tif n%2 == 0 {\n\t\treturn (c[n/2-1] + c[n/2]) / 2, nil\n\t}\n\treturn c[n/2], nil\n}\n"},
	})
	source := []string{"--packages-proxy", proxy.FileURL(t), "--packages-sumdb", proxy.SumDBKey}
	j.install(append([]string{"--name", "sbir-closed"}, source...)...)
	j.install(append([]string{"--name", "sbir-pkgs", "--allow-packages"}, source...)...)

	nbPath := filepath.Join(j.root, "packages.ipynb")
	writeNotebook(t, nbPath,
		"//sbir:require github.com/montanaflynn/stats v0.7.1\nimport \"github.com/montanaflynn/stats\"\nstats.Median([]float64{1, 2, 3})",
		"m, _ := stats.Median([]float64{4, 1, 3, 2})\nm",
	)
	execute := func(kernel string) notebook {
		t.Helper()
		out := filepath.Join(j.root, "out-"+kernel)
		ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(3*time.Minute))
		defer cancel()
		cmd := j.command(ctx, jupyter, "nbconvert", "--to", "notebook", "--execute", nbPath,
			"--ExecutePreprocessor.kernel_name="+kernel, "--allow-errors",
			"--output-dir", out, "--output", "packages")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("jupyter nbconvert --execute with %s: %v\n%s", kernel, err, lastLines(string(b), 40))
		}
		return readNotebook(t, filepath.Join(out, "packages.ipynb"))
	}

	nb := execute("sbir-closed")
	if c := nb.cell(t, "cell-1"); !strings.Contains(c.errorText(), "package installs are disabled on this server") ||
		!strings.Contains(c.errorText(), "--allow-packages") {
		t.Errorf("without --allow-packages: %s", c.describe())
	}

	nb = execute("sbir-pkgs")
	c := nb.cell(t, "cell-1")
	if plain(c) != "2 <nil>" || !strings.Contains(streamText(c, "stderr"), "go: downloading github.com/montanaflynn/stats v0.7.1") {
		t.Errorf("install, import and call: %s", c.describe())
	}
	if c := nb.cell(t, "cell-2"); plain(c) != "2.5" {
		t.Errorf("the package in a later cell: %s", c.describe())
	}

	// The set is cached now: the kernel without the gate uses it.
	nb = execute("sbir-closed")
	if c := nb.cell(t, "cell-1"); plain(c) != "2 <nil>" || streamText(c, "stderr") != "" {
		t.Errorf("cached set without --allow-packages: %s", c.describe())
	}
}

// writeNotebook writes a Go notebook whose code cells are cell-1, cell-2...
func writeNotebook(t *testing.T, path string, cells ...string) {
	t.Helper()
	type cell struct {
		ID             string         `json:"id"`
		CellType       string         `json:"cell_type"`
		Metadata       map[string]any `json:"metadata"`
		Source         string         `json:"source"`
		ExecutionCount *int           `json:"execution_count"`
		Outputs        []any          `json:"outputs"`
	}
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"name": "sbir", "display_name": "Go (SBIR awards)", "language": "go"},
			"language_info": map[string]any{"name": "go"},
		},
	}
	var cs []cell
	for i, src := range cells {
		cs = append(cs, cell{ID: "cell-" + string(rune('1'+i)), CellType: "code", Metadata: map[string]any{}, Source: src, Outputs: []any{}})
	}
	nb["cells"] = cs
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// streamText concatenates a cell's stream outputs named name.
func streamText(c nbCell, name string) string {
	var b strings.Builder
	for _, o := range c.Outputs {
		if o.OutputType == "stream" && o.Name == name {
			b.WriteString(string(o.Text))
		}
	}
	return b.String()
}
