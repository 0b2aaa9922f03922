package sandbox_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/progen"
)

// Differential testing (issue 27): programs written by
// sandbox/internal/progen run with gc and through the kernel in three
// forms, and any difference in what they print or how they end is a
// divergence. The comparison is the gorun corpus's (judgeGoRun): stdout
// exactly, stderr exactly (up to gc's first panic line), the exit status
// as success, the recorded panic or a failure.
//
// The forms:
//   - file: the whole program as one cell (what `sbir-kernel run` does);
//   - cells: imports and declarations in one cell or more, then func main
//     (which the kernel runs when a cell declares it);
//   - top: one cell with the declarations and main's body at the top level.
//
// Speed: gc builds a batch of programs into one binary (progen.BuildBatch)
// and each kernel worker runs many programs in turn: every program
// declares its own names (progen.Options.Suffix), a worker is replaced
// after a failed cell (which may leave goroutines behind) and every
// genWorkerPrograms programs, and a divergence is confirmed in a fresh
// worker before it counts.
//
// testdata/generated/KNOWN_DIVERGENCES lists the constructs the generator
// avoids because the kernel diverges on them today, each with the gorun
// corpus program that reproduces it and its cause; -gen.all generates
// them too, to measure the raw rate. A listed corpus program must still
// be in testdata/gorun/KNOWN_FAILURES: once it passes, its construct comes
// off the list.
//
// Divergences found and not fixed yet are listed by seed, with their
// cause, in testdata/generated/LISTED_DIVERGENCES (generated_listed_test.go).
//
// CI runs -gen.n programs from -gen.seed. By hand (docs/fidelity.md):
//
//	go test ./sandbox -run TestGeneratedPrograms -gen.n=10000 -gen.report=/tmp/gen.md -timeout 6h -v

var (
	genN      = flag.Int("gen.n", 100, "how many generated programs TestGeneratedPrograms runs")
	genSeed   = flag.Uint64("gen.seed", 1, "the first seed of TestGeneratedPrograms")
	genSeeds  = flag.String("gen.seeds", "", "a file of seeds (one a line) TestGeneratedPrograms runs instead of -gen.seed and -gen.n: re-running the divergences of a large run")
	genAll    = flag.Bool("gen.all", false, "generate the constructs of KNOWN_DIVERGENCES too")
	genReport = flag.String("gen.report", "", "write TestGeneratedPrograms' report (rates, divergences, suspects) to this file")
	genKeep   = flag.String("gen.keep", "", "write each diverging program to this directory (SEED.go, SEED.cellN.go, SEED.top.go)")
)

// genCellTimeout bounds a generated program in the kernel: gc runs each
// in milliseconds, the interpreter in well under a second.
var genCellTimeout = time.Duration(3*slowFactor()) * time.Second

const (
	genBatchSize      = 200 // programs per gc binary
	genWorkerPrograms = 150 // programs a kernel worker runs before it is replaced
	knownDivergences  = "testdata/generated/KNOWN_DIVERGENCES"
)

var genForms = []string{"file", "cells", "top"}

// genCase is one generated program and how each form did.
type genCase struct {
	p       *progen.Program
	want    *gorunProgram // gc's run, as the corpus records one
	results [3]genResult
}

type genResult struct {
	ok     bool
	class  string // of a divergence: silent, wrong-then-error, error, panic-message
	cause  string
	status string // confirmation in a fresh worker: "" or "passes alone"
}

func TestGeneratedPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated programs with gc and runs them in sandbox sessions")
	}
	goBin := goCommandForGen(t)
	known := loadKnownDivergences(t)
	checkKnownAgainstCorpus(t, known)
	list := loadListedDivergences(t)
	avoid := map[string]bool{}
	if !*genAll {
		for c := range known {
			avoid[c] = true
		}
	}
	start := time.Now()
	var cases []*genCase
	for _, seed := range genSeedList(t) {
		p := progen.Generate(seed, progen.Options{Suffix: "_" + strconv.FormatUint(seed, 36), Avoid: avoid})
		cases = append(cases, &genCase{p: p})
	}
	ctx := context.Background()
	for lo := 0; lo < len(cases); lo += genBatchSize {
		chunk := cases[lo:min(lo+genBatchSize, len(cases))]
		runWithGc(t, ctx, goBin, chunk)
		runInKernel(t, ctx, chunk)
		t.Logf("%d/%d programs (%v)", lo+len(chunk), len(cases), time.Since(start).Round(time.Second))
	}
	report := genSummary(cases, time.Since(start))
	t.Log(report)
	if *genReport != "" {
		if err := os.WriteFile(*genReport, []byte(report+genDetails(cases)), 0o644); err != nil {
			t.Error(err)
		}
	}
	keepDiverging(t, cases)
	if genList() {
		writeListed(t, cases, list)
		return
	}
	if n := checkListed(t, cases, list); n > 0 {
		t.Logf("%d divergences are listed in %s", n, listedDivergences)
	}
}

// genSeedList is -gen.n seeds from -gen.seed, or those of -gen.seeds.
func genSeedList(t *testing.T) []uint64 {
	t.Helper()
	var seeds []uint64
	if *genSeeds == "" {
		for i := 0; i < *genN; i++ {
			seeds = append(seeds, *genSeed+uint64(i))
		}
		return seeds
	}
	b, err := os.ReadFile(*genSeeds)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range strings.Fields(string(b)) {
		seed, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			t.Fatalf("%s: word %d: %q is not a seed", *genSeeds, i+1, f)
		}
		seeds = append(seeds, seed)
	}
	return seeds
}

func confirm(r genResult) string {
	if r.status == "" {
		return ""
	}
	return " (" + r.status + ")"
}

func goCommandForGen(t *testing.T) string {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		p, err := exec.LookPath("go")
		if err != nil {
			t.Skipf("no go command: %v", err)
		}
		goBin = p
	}
	return goBin
}

// runWithGc builds the programs into one binary and records each run the
// way the corpus records go run (recordOne).
func runWithGc(t *testing.T, ctx context.Context, goBin string, cases []*genCase) {
	var progs []*progen.Program
	for _, c := range cases {
		progs = append(progs, c.p)
	}
	b, err := progen.BuildBatch(ctx, goBin, t.TempDir(), progs)
	if err != nil {
		t.Fatal(err)
	}
	parallel(len(cases), 2, func(i int) {
		r, err := b.Run(ctx, i, time.Minute)
		if err != nil {
			t.Error(err)
			return
		}
		c := cases[i]
		errOut := r.Stderr
		if before, line, ok := cutFatal(errOut); r.Status == 2 && ok {
			errOut = before + line + "\n"
		}
		c.want = &gorunProgram{name: fmt.Sprint(c.p.Seed), prog: c.p.File(), cells: c.p.Cells(),
			stdout: r.Stdout, stderr: errOut, status: r.Status}
	})
}

// parallel calls f(0..n-1) on w goroutines.
func parallel(n, w int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// genForm returns the cells of a form.
func genForm(p *progen.Program, form int) []string {
	switch form {
	case 0:
		return []string{p.File()}
	case 1:
		return p.Cells()
	}
	return []string{p.TopLevel()}
}

// runInKernel runs every form of every program on two kernel workers.
func runInKernel(t *testing.T, ctx context.Context, cases []*genCase) {
	var mu sync.Mutex
	workers := make([]*genWorker, 2)
	for i := range workers {
		workers[i] = &genWorker{t: t}
	}
	defer func() {
		for _, w := range workers {
			w.close()
		}
	}()
	next := make(chan *genCase)
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				if c.want == nil {
					continue // gc did not run it: reported already
				}
				// Cells first: a later form declares every type with its
				// methods in one cell, which redeclares it with them; the
				// cells form after another would redeclare a type in a
				// cell without the methods a later cell adds (refused).
				for _, form := range []int{1, 0, 2} {
					r := w.judge(ctx, c, form)
					if !r.ok {
						// A fresh worker tells a divergence from state
						// left behind by earlier programs.
						fresh := &genWorker{t: t}
						if again := fresh.judge(ctx, c, form); again.ok {
							r.status = "passes alone"
						}
						fresh.close()
					}
					mu.Lock()
					c.results[form] = r
					mu.Unlock()
				}
			}
		}()
	}
	for _, c := range cases {
		next <- c
	}
	close(next)
	wg.Wait()
}

// genWorker is one kernel session reused across programs.
type genWorker struct {
	t    *testing.T
	s    *sandbox.Session
	runs int
}

func (w *genWorker) close() {
	if w.s != nil {
		w.s.Close()
		w.s = nil
	}
}

// judge runs one form of a program and compares it with gc's run.
func (w *genWorker) judge(ctx context.Context, c *genCase, form int) genResult {
	if w.s == nil || w.runs >= genWorkerPrograms {
		w.close()
		l := sandbox.DefaultLimits()
		l.CellTimeout = genCellTimeout
		s, err := sandbox.NewSession(ctx, sandbox.Options{Limits: l})
		if err != nil {
			return genResult{class: "error", cause: "starting a session: " + err.Error()}
		}
		w.s, w.runs = s, 0
	}
	w.runs++
	cells := genForm(c.p, form)
	var stdout, stderr strings.Builder
	var failed *sandbox.Result
	at := 0
	for i, cell := range cells {
		res, err := w.s.Run(ctx, cell, nil)
		if err != nil {
			w.close()
			return genResult{class: "error", cause: fmt.Sprintf("cell %d: session error: %v", i+1, err)}
		}
		stdout.WriteString(res.Stdout)
		stderr.WriteString(res.Stderr)
		if !res.Success {
			failed, at = res, i+1
			break
		}
	}
	if failed != nil {
		w.close() // a failed cell may leave goroutines or state behind
	}
	n := len(cells)
	if form == 0 {
		n = 0
	}
	o := judgeGoRun(c.want, stdout.String(), stderr.String(), failed, at, n)
	if o.ok {
		return genResult{ok: true}
	}
	return genResult{class: divergenceClass(c.want, stdout.String(), failed), cause: o.cause}
}

// divergenceClass says how bad a divergence is: silent (the kernel
// reports success), wrong-then-error (it printed something else, then
// failed), error (it failed where gc did not, its output right so far),
// panic-message (both panicked, with other messages).
func divergenceClass(want *gorunProgram, stdout string, failed *sandbox.Result) string {
	switch {
	case failed == nil:
		return "silent"
	case refusedBeforeRunning[failed.ErrorName]:
		return "error"
	case !strings.HasPrefix(want.stdout, stdout):
		return "wrong-then-error"
	case want.status != 0 && stdout == want.stdout:
		return "panic-message"
	}
	return "error"
}

// loadKnownDivergences reads "<construct> <gorun program> <cause>" lines.
func loadKnownDivergences(t *testing.T) map[string][2]string {
	t.Helper()
	f, err := os.Open(knownDivergences)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	known := map[string][2]string{}
	constructs := map[string]bool{}
	for _, c := range progen.Constructs() {
		constructs[c] = true
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 3)
		if len(fields) < 3 {
			t.Fatalf("%s:%d: want \"<construct> <gorun program> <cause>\", got %q", knownDivergences, n, line)
		}
		if !constructs[fields[0]] {
			t.Fatalf("%s:%d: no construct %q (progen.Constructs)", knownDivergences, n, fields[0])
		}
		known[fields[0]] = [2]string{fields[1], fields[2]}
	}
	return known
}

// checkKnownAgainstCorpus requires each listed construct's corpus program
// to exist and to still fail (be listed in the corpus's KNOWN_FAILURES).
func checkKnownAgainstCorpus(t *testing.T, known map[string][2]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(gorunDir, "KNOWN_FAILURES"))
	if err != nil {
		t.Fatal(err)
	}
	failing := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			failing[f[0]] = true
		}
	}
	for c, k := range known {
		if _, err := os.Stat(filepath.Join(gorunDir, k[0]+".txtar")); err != nil {
			t.Errorf("%s: construct %s: no corpus program %s", knownDivergences, c, k[0])
			continue
		}
		if !failing[k[0]] {
			t.Errorf("%s: construct %s: %s passes now: remove its line, so that programs contain it again", knownDivergences, c, k[0])
		}
	}
}

// keepDiverging writes the diverging programs for a person to read.
func keepDiverging(t *testing.T, cases []*genCase) {
	if *genKeep == "" {
		return
	}
	if err := os.MkdirAll(*genKeep, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		diverges := false
		for _, r := range c.results {
			diverges = diverges || !r.ok
		}
		if !diverges {
			continue
		}
		base := filepath.Join(*genKeep, strconv.FormatUint(c.p.Seed, 10))
		files := map[string]string{base + ".go": c.p.File(), base + ".top.go": c.p.TopLevel()}
		for i, cell := range c.p.Cells() {
			files[fmt.Sprintf("%s.cell%d.go", base, i+1)] = cell
		}
		if c.want != nil {
			files[base+".gc.txt"] = fmt.Sprintf("status %d\n-- stdout --\n%s-- stderr --\n%s", c.want.status, c.want.stdout, c.want.stderr)
		}
		for name, text := range files {
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// genSummary counts passes and divergences by form and class.
func genSummary(cases []*genCase, took time.Duration) string {
	var b strings.Builder
	n := len(cases)
	seeds := fmt.Sprintf("seeds %d..%d", *genSeed, *genSeed+uint64(n)-1)
	if *genSeeds != "" {
		seeds = "seeds of " + *genSeeds
	}
	fmt.Fprintf(&b, "generated programs: %d (%s), %v\n", n, seeds, took.Round(time.Second))
	anyDiv := 0
	for _, c := range cases {
		for _, r := range c.results {
			if !r.ok {
				anyDiv++
				break
			}
		}
	}
	fmt.Fprintf(&b, "programs diverging in some form: %d (%.2f%%)\n", anyDiv, pct(anyDiv, n))
	for i, f := range genForms {
		classes := map[string]int{}
		div := 0
		for _, c := range cases {
			if r := c.results[i]; !r.ok {
				div++
				classes[r.class]++
			}
		}
		fmt.Fprintf(&b, "  %-5s %d diverge (%.2f%%)", f, div, pct(div, n))
		for _, k := range sortedKeysOf(classes) {
			fmt.Fprintf(&b, ", %s %d", k, classes[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// genDetails lists the divergences and the constructs most common in
// diverging programs (the suspects).
func genDetails(cases []*genCase) string {
	var b strings.Builder
	b.WriteString("\n## Divergences\n\n| seed | form | class | cause |\n|---|---|---|---|\n")
	uses, divUses := map[string]int{}, map[string]int{}
	divN := 0
	for _, c := range cases {
		div := false
		for i, r := range c.results {
			if !r.ok {
				div = true
				fmt.Fprintf(&b, "| %d | %s | %s | %s%s |\n", c.p.Seed, genForms[i], r.class, strings.ReplaceAll(clip(r.cause), "|", `\|`), confirm(r))
			}
		}
		for k := range c.p.Used {
			uses[k]++
			if div {
				divUses[k]++
			}
		}
		if div {
			divN++
		}
	}
	b.WriteString("\n## Suspects: constructs by the share of their programs that diverge\n\n| construct | programs | diverging | share |\n|---|---|---|---|\n")
	keys := sortedKeysOf(uses)
	sort.SliceStable(keys, func(i, j int) bool {
		return float64(divUses[keys[i]])/float64(uses[keys[i]]) > float64(divUses[keys[j]])/float64(uses[keys[j]])
	})
	for _, k := range keys {
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f%% |\n", k, uses[k], divUses[k], pct(divUses[k], uses[k]))
	}
	return b.String()
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// slowFactor scales time limits on slow machines ($SBIR_TEST_SLOW,
// default 1).
func slowFactor() float64 {
	if f, err := strconv.ParseFloat(os.Getenv("SBIR_TEST_SLOW"), 64); err == nil && f > 0 {
		return f
	}
	return 1
}
