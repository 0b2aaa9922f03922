package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// langResult is the part of lang.py's --json output the test reads.
type langResult struct {
	Small    bool     `json:"small"`
	Engines  []string `json:"engines"`
	Programs []struct {
		Name string `json:"name"`
	} `json:"programs"`
	Results map[string]map[string]struct {
		Work   []*float64 `json:"work"`
		CPU    []*float64 `json:"cpu"`
		Answer *string    `json:"answer"`
		Errors []string   `json:"errors"`
	} `json:"results"`
	Problems   []string              `json:"problems"`
	StartupCPU map[string][]*float64 `json:"startup_cpu"`
}

// TestLangSmall runs bench/lang.sh with the programs' small sizes on a
// small generated file: every program of bench/lang must run in the
// kernel, in CPython and as a gc binary, and give the same answer in all
// three (lang.py --check). No timing is asserted.
func TestLangSmall(t *testing.T) {
	if os.Getenv("SBIR_E2E") != "1" {
		t.Skip("skipping: the language benchmark builds the kernel and every program; set SBIR_E2E=1 to run it (CI does)")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "lang.json")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "lang.sh", "--small", "--check", "--json", out)
	cmd.Env = append(os.Environ(), "RUNS=1", "TMPDIR="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("lang.sh: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("lang.sh --small:\n%s", stdout.String())
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res langResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Small || len(res.Problems) > 0 {
		t.Fatalf("small %v, problems %q", res.Small, res.Problems)
	}
	dirs, err := filepath.Glob(filepath.Join("lang", "*", "main.py"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Programs) != len(dirs) || len(dirs) < 10 {
		t.Errorf("%d programs ran, bench/lang has %d", len(res.Programs), len(dirs))
	}
	for _, e := range []string{"sbir", "CPython", "gc"} {
		if s := res.StartupCPU[e]; len(s) != 1 || s[0] == nil || *s[0] <= 0 {
			t.Errorf("start-up CPU of %s: %v, want one positive", e, s)
		}
	}
	for _, p := range res.Programs {
		for _, e := range []string{"sbir", "CPython", "gc"} {
			r := res.Results[p.Name][e]
			if r.Answer == nil || strings.TrimSpace(*r.Answer) == "" || len(r.Work) != 1 || r.Work[0] == nil {
				t.Errorf("%s in %s: answer %v, times %v, errors %q", p.Name, e, r.Answer, r.Work, r.Errors)
			}
			if len(r.CPU) != 1 || r.CPU[0] == nil || *r.CPU[0] <= 0 {
				t.Errorf("%s in %s: CPU times %v, want one positive", p.Name, e, r.CPU)
			}
		}
	}
}
