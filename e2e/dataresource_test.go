package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTableReadByPandas: a frame's table representation
// (application/vnd.dataresource+json) is the Table Schema JSON pandas
// writes, so pandas.read_json(orient="table") reads it back: the same
// values as the frame's CSV, with the types the schema gives (Int64 for
// int columns with nulls, float64, category, datetime64), over every column
// of 60 awards of the sample (testdata/scripts/read_table.py).
func TestTableReadByPandas(t *testing.T) {
	j := newJupyterEnv(t)
	if err := exec.Command(systemPython, "-c", "import pandas").Run(); err != nil {
		requireClient(t, systemPython+" has no pandas", "python3-pandas")
	}
	code := "f := award_data.Where(\"Agency\", \"!=\", \"\").Head(60)\nfmt.Print(f.ToCSV())\nf"
	run := exec.Command(j.bin, "run", "--json", "--max-rows", "60", "-c", code)
	run.Env = j.env
	out, err := run.Output()
	if err != nil {
		t.Fatalf("run --json: %v\n%.2000s", err, out)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "scripts", "read_table.py"))
	if err != nil {
		t.Fatal(err)
	}
	check := exec.Command(systemPython, script)
	check.Env = j.env
	check.Stdin = strings.NewReader(string(out))
	check.Stderr = os.Stderr
	res, err := check.Output()
	if err != nil || !strings.HasPrefix(string(res), "ok (") {
		t.Fatalf("read_table.py: %v\n%s", err, res)
	}
	t.Log(strings.TrimSpace(string(res)))
}
