package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// result is the part of compare.py's --json output the test reads.
type result struct {
	Results []struct {
		Engine     string    `json:"engine"`
		PrintOne   []float64 `json:"print_1mib"`
		PrintLines []float64 `json:"print_lines"`
		Questions  map[string]struct {
			Warm   []float64       `json:"warm"`
			First  float64         `json:"first"`
			Answer json.RawMessage `json:"answer"`
			// sbir's worker page faults per run (compare.py's first_runs).
			FirstFaults *float64 `json:"first_faults"`
			WarmFaults  *float64 `json:"warm_faults"`
		} `json:"questions"`
	} `json:"results"`
}

// TestCompareSmallFile runs bench/compare.sh on a few thousand generated
// awards with every engine. compare.sh --check fails if the engines'
// answers differ; the test also checks the answers against the data read
// directly from the Arrow file. No timing is asserted.
func TestCompareSmallFile(t *testing.T) {
	if os.Getenv("SBIR_E2E") != "1" {
		t.Skip("skipping: the comparison benchmark starts real kernels, Node and pandas; set SBIR_E2E=1 to run it (CI does)")
	}
	dir := t.TempDir()
	csv := filepath.Join(dir, "awards.csv")
	f, err := os.Create(csv)
	if err != nil {
		t.Fatal(err)
	}
	if err := dataset.Generate(f, dataset.GenerateOptions{Rows: 4000, Seed: 14}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "results.json")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(8*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "compare.sh", "--check", "--json", out, csv)
	cmd.Env = append(os.Environ(), "RUNS=2", "MEM_CELLS=50", "TMPDIR="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("compare.sh: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("compare.sh on %s:\n%s", csv, stdout.String())
	for _, section := range []string{"### Output", "### Queries", "sbir's worker page faults per run, first / warm", "### Loading", "The conversions, in order: ", "free page reporting", "### Memory", "All 4 engines gave the same answers"} {
		if !strings.Contains(stdout.String(), section) {
			t.Errorf("the report lacks %q", section)
		}
	}

	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res result
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	var engines []string
	for _, r := range res.Results {
		engines = append(engines, r.Engine)
	}
	if strings.Join(engines, ",") != "sbir,pandas,duckdb,polars" {
		t.Fatalf("engines %v, want sbir, pandas, duckdb, polars", engines)
	}

	truth := groundTruth(t, csv, dir)
	for _, r := range res.Results {
		var yearPhase, quantum int64
		var agency map[string]float64
		mustUnmarshal(t, r.Questions["year_phase_count"].Answer, &yearPhase)
		mustUnmarshal(t, r.Questions["quantum_count"].Answer, &quantum)
		mustUnmarshal(t, r.Questions["agency_sum"].Answer, &agency)
		if yearPhase != truth.yearPhase || quantum != truth.quantum {
			t.Errorf("%s: year/phase count %d, quantum count %d; the data says %d and %d",
				r.Engine, yearPhase, quantum, truth.yearPhase, truth.quantum)
		}
		if len(agency) != len(truth.agency) {
			t.Errorf("%s: %d agencies, the data has %d", r.Engine, len(agency), len(truth.agency))
		}
		for name, sum := range truth.agency {
			if math.Abs(agency[name]-sum) > 0.005 {
				t.Errorf("%s: %s sums to %.2f, the data says %.2f", r.Engine, name, agency[name], sum)
			}
		}
		// The two kernels' output cells, taken in turns (compare.py's
		// interleaved_output); the in-process engines have none.
		wantPrints := 0
		if r.Engine == "sbir" || r.Engine == "pandas" {
			wantPrints = 2
		}
		if len(r.PrintOne) != wantPrints || len(r.PrintLines) != wantPrints {
			t.Errorf("%s: %d and %d output cells timed, want %d each", r.Engine, len(r.PrintOne), len(r.PrintLines), wantPrints)
		}
		for q, a := range r.Questions {
			if len(a.Warm) != 2 {
				t.Errorf("%s %s: %d timed runs, want 2", r.Engine, q, len(a.Warm))
			}
			if a.First <= 0 {
				t.Errorf("%s %s: no first run timed", r.Engine, q)
			}
			if counted := a.FirstFaults != nil && a.WarmFaults != nil; counted != (r.Engine == "sbir") {
				t.Errorf("%s %s: worker page faults counted: %v, want them for sbir only", r.Engine, q, counted)
			}
		}
	}
}

type truth struct {
	yearPhase, quantum int64
	agency             map[string]float64
}

// groundTruth answers three of the questions by reading the columns of
// the converted file directly.
func groundTruth(t *testing.T, csv, dir string) truth {
	t.Helper()
	arrowPath := filepath.Join(dir, "truth.arrow")
	if _, err := dataset.ConvertFile(context.Background(), csv, arrowPath, dataset.ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.OpenFile(arrowPath)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rec := d.Record()
	col := func(name string) int {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Fatalf("no column %q", name)
		}
		return idx[0]
	}
	agency := rec.Column(col(dataset.ColAgency)).(*array.Dictionary)
	agencyNames := agency.Dictionary().(*array.String)
	phase := rec.Column(col(dataset.ColPhase)).(*array.Dictionary)
	phaseNames := phase.Dictionary().(*array.String)
	year := rec.Column(col(dataset.ColAwardYear)).(*array.Int64)
	amount := rec.Column(col(dataset.ColAwardAmount)).(*array.Float64)
	abstract := rec.Column(col(dataset.ColAbstract)).(*array.String)
	tr := truth{agency: make(map[string]float64)}
	for i := 0; i < int(rec.NumRows()); i++ {
		if year.IsValid(i) && year.Value(i) >= 2015 && phase.IsValid(i) && phaseNames.Value(phase.GetValueIndex(i)) == "Phase II" {
			tr.yearPhase++
		}
		if abstract.IsValid(i) && strings.Contains(strings.ToLower(abstract.Value(i)), "quantum") {
			tr.quantum++
		}
		if agency.IsValid(i) && amount.IsValid(i) {
			// Clone: the name points into the mapping, which Close unmaps.
			tr.agency[strings.Clone(agencyNames.Value(agency.GetValueIndex(i)))] += amount.Value(i)
		}
	}
	if tr.yearPhase == 0 || tr.quantum == 0 || len(tr.agency) < 5 {
		t.Fatalf("the generated file is too small to test anything: %+v", tr)
	}
	return tr
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
}
