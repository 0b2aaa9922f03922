package award_data

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// pandasPython returns the python of the virtualenv holding pandas
// (.ci/setup.d/50-pandas.sh): $SBIR_PANDAS_VENV, else the script's
// default. The test skips without it, unless SBIR_E2E=1 makes it
// mandatory, as CI does.
func pandasPython(t *testing.T) string {
	t.Helper()
	venv := os.Getenv("SBIR_PANDAS_VENV")
	if venv == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		venv = filepath.Join(base, "sbir-kernel-ci", "pandas", "venv")
	}
	py := filepath.Join(venv, "bin", "python")
	if err := exec.Command(py, "-c", "import pandas").Run(); err != nil {
		msg := fmt.Sprintf("no pandas in %s (create it with: bash .ci/setup.d/50-pandas.sh, or point SBIR_PANDAS_VENV at a virtualenv with pandas)", venv)
		if os.Getenv("SBIR_E2E") == "1" {
			t.Fatalf("SBIR_E2E=1 makes this test mandatory, but %s", msg)
		}
		t.Skipf("skipping: %s", msg)
	}
	return py
}

// generatedFrame writes a synthetic awards CSV of n rows, converts it and
// returns all of its rows as a Frame (without Use: the package's fixture
// stays loaded) and the CSV's path.
func generatedFrame(t *testing.T, n int) (Frame, string) {
	t.Helper()
	dir := t.TempDir()
	csvPath, arrowPath := filepath.Join(dir, "awards.csv"), filepath.Join(dir, "awards.arrow")
	var csv bytes.Buffer
	if err := dataset.Generate(&csv, dataset.GenerateOptions{Rows: n, Seed: 31}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csvPath, csv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dst, err := os.Create(arrowPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Convert(context.Background(), bytes.NewReader(csv.Bytes()), int64(csv.Len()), dst, dataset.ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.OpenFile(arrowPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	tab, err := tableFromRecord(d.Record(), true)
	if err != nil {
		t.Fatal(err)
	}
	return frameOf(tab), csvPath
}

// TestAgainstPandas asks each question of issue 31 with one award_data
// call and with pandas' one line (testdata/pandas_answers.py) on the same
// generated file, and checks that the answers are equal: counts and
// labels exactly, numbers to a relative 1e-9 (or half a cent).
func TestAgainstPandas(t *testing.T) {
	py := pandasPython(t)
	all, csvPath := generatedFrame(t, 20000)
	out, err := exec.Command(py, "testdata/pandas_answers.py", csvPath).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("pandas_answers.py: %v\n%s", err, stderr)
	}
	var want map[string]any
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	got := awardDataAnswers(t, all)
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: award_data has no answer", name)
			continue
		}
		gj, _ := json.Marshal(g)
		var gv any
		json.Unmarshal(gj, &gv)
		if diff := sameAnswer(gv, w, ""); diff != "" {
			t.Errorf("%s: award_data and pandas differ at %s\naward_data: %.600s\npandas:     %.600s", name, diff, gj, mustJSON(w))
		}
	}
	if len(got) != len(want) {
		t.Errorf("award_data answered %d questions, pandas %d", len(got), len(want))
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sameAnswer compares two answers decoded from JSON; it returns where they
// differ, or "".
func sameAnswer(a, b any, at string) string {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		if !ok || math.Abs(x-y) > max(0.005, 1e-9*math.Max(math.Abs(x), math.Abs(y))) {
			return fmt.Sprintf("%s (%v vs %v)", at, a, b)
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s (length %d vs %v)", at, len(x), lenOf(b))
		}
		for i := range x {
			if d := sameAnswer(x[i], y[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s (%d keys vs %v)", at, len(x), lenOf(b))
		}
		for k := range x {
			if d := sameAnswer(x[k], y[k], at+"."+k); d != "" {
				return d
			}
		}
		return ""
	}
	if a != b {
		return fmt.Sprintf("%s (%v vs %v)", at, a, b)
	}
	return ""
}

func lenOf(v any) any {
	switch x := v.(type) {
	case []any:
		return len(x)
	case map[string]any:
		return len(x)
	}
	return v
}

// cell is a frame's value as the Python script writes it: numbers as
// floats (NaN null, Inf a string), years as ints, text as it is.
func cell(c *columnar.Vector, i int) any {
	switch v := goValue(c, i).(type) {
	case nil:
		return nil
	case int64:
		if strings.Contains(c.Name, "Year") && !strings.Contains(c.Name, "(") {
			return v
		}
		return float64(v)
	case bool:
		return v
	case float64:
		if math.IsInf(v, 1) {
			return "inf"
		} else if math.IsInf(v, -1) {
			return "-inf"
		}
		return v
	default:
		return v
	}
}

// pairs is the rows of f as [key, value]: the key columns' values (one,
// or a list), the value column last, as pandas' Series.items() gives them.
// Rows with a null key are left out, as pandas' groupby leaves them.
func pairs(f Frame, value string, keys ...string) [][]any {
	f.must()
	vc := f.mustColumn("pairs", value)
	var out [][]any
	for k := 0; k < f.Len(); k++ {
		i := f.row(k)
		var key []any
		null := false
		for _, name := range keys {
			c := f.mustColumn("pairs", name)
			key = append(key, cell(c, i))
			null = null || c.IsNull(i)
		}
		if null {
			continue
		}
		var kv any = key
		if len(key) == 1 {
			kv = key[0]
		}
		out = append(out, []any{kv, cell(vc, i)})
	}
	return out
}

// positionPairs is [position, value] for each row of f.
func positionPairs(f Frame, value string) [][]any {
	vc := f.mustColumn("positionPairs", value)
	out := make([][]any, f.Len())
	for k := range out {
		out[k] = []any{float64(k), cell(vc, f.row(k))}
	}
	return out
}

// counts is a ValueCounts frame as a map (nulls left out, as pandas'
// value_counts leaves them).
func counts(f Frame) map[string]int64 {
	f.must()
	names := f.Columns()
	keys, n := f.Strings(names[0]), f.Ints("Count")
	nulls := f.Nulls(names[0])
	out := map[string]int64{}
	for i := range keys {
		if !nulls[i] {
			out[keys[i]] = n[i]
		}
	}
	return out
}

// rowIndexes lists the data-file positions of f's rows.
func rowIndexes(f Frame) []int {
	f.must()
	out := make([]int, f.Len())
	for k := range out {
		out[k] = f.row(k)
	}
	return out
}
