package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/pkgenv/pkgenvtest"
)

// runEnv returns a cliEnv whose data cache is a private directory.
func runEnv(t testing.TB, stdin string) (*cliEnv, *bytes.Buffer, *bytes.Buffer) {
	cache := t.TempDir()
	var out, errb bytes.Buffer
	env := &cliEnv{
		Stdin:  strings.NewReader(stdin),
		Stdout: &out,
		Stderr: &errb,
		Getenv: func(k string) string {
			if k == "SBIR_CACHE_DIR" {
				return cache
			}
			return ""
		},
	}
	env.Logger = newLogger(env.Stderr, 0)
	return env, &out, &errb
}

func TestRunCommand(t *testing.T) {
	code := filepath.Join(t.TempDir(), "cell.go")
	if err := os.WriteFile(code, []byte("x := 20\nx * 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		stdin    string
		status   int
		stdout   string // exact, unless json
		stderr   string // contained
		stderrRE string // matched, where the numbers vary
		jsonWant map[string]any
	}{
		{name: "print", args: []string{"-c", "fmt.Println(1)"}, status: 0, stdout: "1\n"},
		{name: "value", args: []string{"-c", "award_data.Count()"}, status: 0, stdout: "2000\n", stderr: "note: the data is 2,000 synthetic awards"},
		{name: "hint on stderr", args: []string{"-c", `award_data.Where("Agency", "==", "NASA").Count()`}, status: 0, stdout: "0\n", stderr: `note: no row has Agency == "NASA"`},
		{name: "frame hint on stderr", args: []string{"-c", `award_data.Where("Agency", "==", "NASA").Select("Agency")`}, status: 0, stdout: "  Agency\n[0 rows x 1 columns]\n", stderr: `note: no row has Agency == "NASA"`},
		{name: "csv as text", args: []string{"-c", `award_data.ValueCounts("Phase").ToCSV()`}, status: 0, stdout: "Phase,Count\nPhase I,1385\nPhase II,615\n"},
		{name: "file", args: []string{code}, status: 0, stdout: "40\n"},
		{name: "stdin", args: []string{"-"}, stdin: `fmt.Print("in")`, status: 0, stdout: "in"},
		{name: "cell error", args: []string{"-c", `panic("no")`}, status: 1, stderr: "Panic: no"},
		{name: "refused", args: []string{"-c", `import "net"`}, status: 1, stderr: `NotAllowed: line 1, column 8: import "net" is not allowed`},
		{name: "json", args: []string{"--json", "-c", `fmt.Println("a"); 7`}, status: 0, jsonWant: map[string]any{"schema": "sbir-kernel.run/2", "stdout": "a\n", "success": true, "value": "7", "data.synthetic": true}},
		{name: "json error", args: []string{"--json", "-c", "x := 1\nundefinedName"}, status: 1, jsonWant: map[string]any{"success": false, "error.name": "CompileError", "error.line": 2.0, "error.column": 1.0, "error.message": "undefined: undefinedName"}},
		{name: "json suggestion", args: []string{"--json", "-c", `award_data.Where("Agncy", "==", "x")`}, status: 1, jsonWant: map[string]any{"error.name": "award_data.Error", "error.suggestion": `did you mean "Agency"?`}},
		{name: "json frame", args: []string{"--json", "--max-rows", "2", "-c", `award_data.Head(5).Select("Company", "Award Year")`}, status: 0, jsonWant: map[string]any{"frame.columns.1": "Award Year", "frame.types.1": "integer", "frame.rows": 5.0, "frame.truncated": true, "frame.next_offset": 2.0, "frame.index.1": 1.0, "frame.records.2": nil}},
		{name: "json page", args: []string{"--json", "--max-rows", "2", "--offset", "3", "-c", `award_data.Head(5).Select("Company", "Award Year")`}, status: 0, jsonWant: map[string]any{"frame.offset": 3.0, "frame.index.0": 3.0, "frame.index.1": 4.0, "frame.truncated": nil}},
		{name: "json max rows cap", args: []string{"--json", "--max-rows", "1001", "-c", "1"}, status: 2, jsonWant: map[string]any{"error.name": "UsageError", "error.message": "--max-rows 1001: give 1 to 1000, and page through a larger frame with --offset"}},
		{name: "json usage error", args: []string{"--json", "--bogus"}, status: 2, jsonWant: map[string]any{"schema": "sbir-kernel.run/2", "success": false, "error.name": "UsageError", "error.message": "flag provided but not defined: -bogus"}},
		{name: "json no code", args: []string{"--json"}, status: 2, jsonWant: map[string]any{"error.name": "UsageError", "error.message": "no code: use -c CODE, a FILE, or - for standard input"}},
		{name: "json twice", args: []string{"--json", "-c", "1", "-c", "2"}, status: 2, jsonWant: map[string]any{"error.name": "UsageError"}},
		{name: "json setup error", args: []string{"--json", "--max-code-bytes", "0", "-c", "1"}, status: 1, jsonWant: map[string]any{"error.name": "SetupError"}},
		{name: "twice", args: []string{"-c", "1", "-c", "2"}, status: 2, stderr: "-c given more than once"},
		{name: "memory", args: []string{"--heap-limit", "256MiB", "-c", "var hog [][]byte\nfor { hog = append(hog, make([]byte, 64<<20)) }"}, status: 1,
			// Which of the limit's guards fires first depends on timing:
			// either way the message says the limit and what the cell
			// took or asked for, on one line.
			stderrRE: `(?m)^MemoryError: cell exceeded the 256 MiB heap limit: (its heap reached [0-9.]+ [MG]iB|an allocation that needed [0-9.]+ [KMG]iB more heap was refused, with [0-9.]+ [KMG]iB in use already)$`},
		{name: "no code", args: nil, status: 2, stderr: "no code"},
		{name: "both", args: []string{"-c", "1", code}, status: 2, stderr: "not both"},
		{name: "missing file", args: []string{"/nonexistent/cell.go"}, status: 2, stderr: "no such file"},
		{name: "bad limit", args: []string{"--max-output-bytes", "lots", "-c", "1"}, status: 2, stderr: "invalid size"},
		{name: "small output cap", args: []string{"--max-output-bytes", "10", "-c", `fmt.Println("0123456789abcdef")`}, status: 0, stdout: "0123456789... [output truncated at 10 bytes; dropped 7 bytes]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, out, errb := runEnv(t, tc.stdin)
			status := runMain(context.Background(), env, append([]string{"run"}, tc.args...))
			if status != tc.status {
				t.Fatalf("status %d, want %d\nstdout: %s\nstderr: %s", status, tc.status, out, errb)
			}
			if tc.jsonWant != nil {
				var got map[string]any
				if err := json.Unmarshal(out.Bytes(), &got); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, out)
				}
				for k, v := range tc.jsonWant {
					if g := jsonAt(got, k); g != v {
						t.Errorf("%s = %#v, want %#v\n%s", k, g, v, out)
					}
				}
				for _, k := range []string{"stdout", "stderr", "success"} {
					if _, ok := got[k]; !ok {
						t.Errorf("JSON lacks %q", k)
					}
				}
				return
			}
			if tc.status != 2 && out.String() != tc.stdout {
				t.Errorf("stdout %q, want %q", out, tc.stdout)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q, want it to contain %q", errb, tc.stderr)
			}
			if tc.stderrRE != "" && !regexp.MustCompile(tc.stderrRE).MatchString(errb.String()) {
				t.Errorf("stderr %q, want it to match %s", errb, tc.stderrRE)
			}
		})
	}
}

// TestRunLeavesDurableCache runs code on an empty cache: the conversion's
// sync goes on in the background while the code runs, and run returns only
// once the Arrow file is durable (marked), so that the next run uses it.
func TestRunLeavesDurableCache(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "awards.csv")
	var csv bytes.Buffer
	if err := dataset.Generate(&csv, dataset.GenerateOptions{Rows: 3000, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csvPath, csv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SBIR_CACHE_DIR": filepath.Join(dir, "cache"), "SBIR_CSV_PATH": csvPath}
	for i, want := range []string{"converting awards CSV", ""} {
		stdout, stderr, code := runCLI(t, env, "run", "--log-level", "info", "-c", "award_data.Count()")
		if code != 0 || stdout != "3000\n" {
			t.Fatalf("run %d: status %d, stdout %q, stderr %s", i, code, stdout, stderr)
		}
		if converted := strings.Contains(stderr, "converting awards CSV"); converted != (want != "") {
			t.Fatalf("run %d: converted %v, want %v (stderr %s)", i, converted, want != "", stderr)
		}
		markers, _ := filepath.Glob(filepath.Join(dir, "cache", "*.arrow.synced"))
		if len(markers) != 1 {
			t.Fatalf("run %d: markers %v after the run, want the Arrow file's", i, markers)
		}
	}
}

// jsonAt follows a dotted path ("error.name", "frame.columns.0") into a
// decoded JSON value; a missing element is nil.
func jsonAt(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// TestRunCommandPackages runs a cell that declares a module through the
// whole command, from a file:// module proxy (never the network): refused
// without --allow-packages, installed with it, then used from the cache
// with the gate closed again.
func TestRunCommandPackages(t *testing.T) {
	proxy := pkgenvtest.New(t, pkgenvtest.Module{
		Path: "github.com/montanaflynn/stats", Version: "v0.7.1",
		Files: map[string]string{"median.go": "package stats\n\nimport \"sort\"\n\n// Median returns the median of xs (odd length).\nfunc Median(xs []float64) (float64, error) {\n\tc := append([]float64(nil), xs...)\n\tsort.Float64s(c)\n\treturn c[len(c)/2], nil\n}\n"},
	})
	proxyURL := proxy.FileURL(t)
	code := "//sbir:require github.com/montanaflynn/stats v0.7.1\nimport \"github.com/montanaflynn/stats\"\nstats.Median([]float64{1, 2, 3})"
	env, out, errb := runEnv(t, "")
	flags := []string{"run", "--packages-proxy", proxyURL, "--packages-sumdb", proxy.SumDBKey}

	steps := []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr []string
	}{
		{"gate closed", []string{"-c", code}, 1, "", []string{"PackageError: go: cannot install github.com/montanaflynn/stats@v0.7.1: package installs are disabled on this server", "--allow-packages"}},
		{"install", []string{"--allow-packages", "-c", code}, 0, "2 <nil>\n", []string{"go: downloading github.com/montanaflynn/stats v0.7.1"}},
		{"cached without the gate", []string{"-c", code}, 0, "2 <nil>\n", nil},
		{"bad proxy flag", []string{"--packages-proxy", "direct", "-c", code}, 2, "", []string{"GOPROXY=direct is not supported"}},
	}
	for _, st := range steps {
		out.Reset()
		errb.Reset()
		status := runMain(context.Background(), env, append(append([]string{}, flags...), st.args...))
		if status != st.status || st.status != 2 && out.String() != st.stdout {
			t.Fatalf("%s: status %d (want %d), stdout %q (want %q)\nstderr: %s", st.name, status, st.status, out, st.stdout, errb)
		}
		for _, want := range st.stderr {
			if !strings.Contains(errb.String(), want) {
				t.Errorf("%s: stderr %q does not contain %q", st.name, errb, want)
			}
		}
		if st.name == "cached without the gate" && strings.Contains(errb.String(), "downloading") {
			t.Errorf("%s: installed again: %s", st.name, errb)
		}
	}
}

// BenchmarkRunCommandProcess measures `sbir-kernel run -c 'fmt.Println(1)'`
// as a whole process (data already converted).
func BenchmarkRunCommandProcess(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "sbir-kernel")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	env := []string{"SBIR_CACHE_DIR=" + filepath.Join(dir, "cache"), "HOME=" + dir}
	warm := exec.Command(bin, "run", "-c", "1")
	warm.Env = env
	if out, err := warm.CombinedOutput(); err != nil {
		b.Fatalf("warm-up: %v\n%s", err, out)
	}
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(bin, "run", "-c", "fmt.Println(1)")
		cmd.Env = env
		out, err := cmd.Output()
		times = append(times, time.Since(start))
		if err != nil || string(out) != "1\n" {
			b.Fatalf("%v: %q", err, out)
		}
	}
	// The target (300 ms) is a median.
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/op")
}

var updateRunGolden = flag.Bool("update-run-json", false, "rewrite testdata/run_json/*.json from the current output")

// TestRunJSONGolden pins the --json contract (docs/agents.md): each case's
// whole output is compared with testdata/run_json/NAME.json. Run with
// -update-run-json after an intended change, and bump cellresult.Schema
// when a field changes meaning or goes away.
func TestRunJSONGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"value", []string{"-c", `fmt.Println("counted"); award_data.Count()`}},
		{"frame", []string{"--max-rows", "2", "-c", `award_data.ValueCounts("Phase")`}},
		{"error", []string{"-c", `award_data.Where("Agncy", "==", "DOD")`}},
		{"display", []string{"-c", `display.Markdown("**hi**")`}},
		{"usage", []string{"-c", "1", "-c", "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, out, _ := runEnv(t, "")
			runMain(context.Background(), env, append([]string{"run", "--json"}, tc.args...))
			path := filepath.Join("testdata", "run_json", tc.name+".json")
			if *updateRunGolden {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-run-json to create it)", err)
			}
			if out.String() != string(want) {
				t.Errorf("run --json %v differs from %s (run with -update-run-json if intended):\n%s", tc.args, path, out)
			}
		})
	}
}

// TestReleaseConversion: after a conversion, a long-lived process gives
// the columns' memory back to the system instead of keeping it for good:
// the mapped columns (dataset gives their pages back as it writes them
// and unmaps the rest) and what the conversion left in the Go heap
// (releaseConversion). When the columns' mappings go with DeferSync is
// dataset's TestLocateUnmapsColumnsAtSync.
func TestReleaseConversion(t *testing.T) {
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		t.Skipf("no /proc/self/statm to read the resident size from: %v", err)
	}
	rss := func() int64 {
		b, err := os.ReadFile("/proc/self/statm")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(b))
		pages, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatalf("/proc/self/statm %q: %v", b, err)
		}
		return pages * int64(os.Getpagesize())
	}
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "awards.csv")
	f, err := os.Create(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := dataset.Generate(f, dataset.GenerateOptions{Rows: 30000, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, deferSync := range []bool{false, true} {
		t.Run(fmt.Sprintf("DeferSync=%v", deferSync), func(t *testing.T) {
			debug.FreeOSMemory()
			before := rss()
			cfg := dataset.Config{CacheDir: filepath.Join(t.TempDir(), "cache"), CSVPath: csvPath, DeferSync: deferSync}
			src, err := dataset.Locate(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !src.Converted {
				t.Fatal("Locate did not convert")
			}
			releaseConversion(src)
			// The columns are about the size of the Arrow file; all but a
			// quarter of that must go back (their unmapping runs in the
			// background).
			deadline := time.Now().Add(testenv.Scale(10 * time.Second))
			for {
				grown := rss() - before
				if grown < src.ArrowSize/4 {
					t.Logf("resident size grew %d MB over a conversion of %d MB", grown>>20, src.ArrowSize>>20)
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("resident size still %d MB above its size before a conversion of %d MB", grown>>20, src.ArrowSize>>20)
				}
				time.Sleep(5 * time.Millisecond)
			}
			if err := src.WaitDurable(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
