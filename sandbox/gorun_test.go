package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// The gorun corpus (testdata/gorun/*.txtar) measures how far cells behave
// as `go run` does for Go written the way people write it (issue 11).
// Each program is one txtar archive:
//
//	-- prog.go --      the whole program, exactly what `go run` ran
//	-- cell1.go --     the same program split where a person would split it
//	-- cell2.go --     into notebook cells (imports and types, then funcs,
//	...                then statements, or whatever the program invites)
//	-- stdout --       what `go run` wrote to standard output
//	-- stderr --       what it wrote to standard error (see below)
//	-- status --       the program's exit status
//
// The stdout, stderr and status sections are recorded with -update, never
// by hand: each prog.go is run with `go run .` in a temporary module
// (GOFLAGS=-mod=mod, GOTOOLCHAIN=local, GOPROXY=off; the corpus uses the
// standard library only). `go run` reports a failing program with a last
// stderr line "exit status N" and exits 1 itself; the harness takes the
// status from that line and drops it. For a panic or a fatal error such
// as a deadlock (status 2) the recorded stderr ends at the first line
// that starts with "panic: " or "fatal error: ": the goroutine trace
// after it names temporary paths and addresses, and only that first line
// is compared.
//
// Snippets (code pasted without package clause or func main) are cells
// that run top-level statements; their file form, prog.go, is the same
// code as a Go program would have to be written: imports and declarations
// at the top level and the statements wrapped in func main.
//
// Each program runs three times, each time in a fresh session:
//   - as a file: prog.go submitted as one cell, which is what
//     `sbir-kernel run prog.go` does. Like `run`, the text of a last
//     expression's value (if any) counts as stdout after the output.
//   - as cells: cell1.go, cell2.go, ... in order through one session,
//     stopping at the first cell that fails. Values of cells are not
//     compared: a notebook shows them apart from the output.
//   - at the top level: one cell holding prog.go's imports, declarations
//     and functions, then the statements of func main's body, pasted at
//     the cell's top level as notebook users write them (derived from
//     prog.go: splitProgram in gorun_forms_test.go). Values are not
//     compared.
//
// A form passes when
//   - status 0: every cell succeeds, stdout is exactly the recorded stdout
//     (concatenated over cells) and stderr exactly the recorded stderr;
//   - status 2 with a panic or fatal error: a cell fails, stdout is exact,
//     stderr starts with what the program wrote before panicking, and the
//     recorded "panic: ..." (or "fatal error: ...") line appears as a line
//     of the rest of stderr, as "panic: " (or "fatal error: ") + the first
//     line of the error message, as the error message itself, or as a
//     line of the traceback;
//   - any other status: a cell fails, stdout and stderr are exact.
//
// A cell that fails where the program does not counts as a failure with
// the cell's error as cause.
//
// testdata/gorun/KNOWN_FAILURES lists the forms expected to fail today,
// one per line: "<program> <file|cells|toplevel> <cause>". The test fails when a
// form fails that is not listed, or a listed one passes (so the list stays
// true). -gorun.known rewrites the list from the current results.
//
// Sessions need the test binary to double as the sandbox worker: the
// package's TestMain (main_test.go) does that for this file too.
//
// The summary line (pass rates) is logged; the per-program table is
// written to $SBIR_GORUN_RESULTS, or under -v to gorun-results.md in the
// system temporary directory.

var (
	gorunUpdate = boolFlag("update", "re-record the expected outputs of testdata/gorun with `go run`")
	gorunKnown  = boolFlag("gorun.known", "rewrite testdata/gorun/KNOWN_FAILURES from the current results")
)

// boolFlag defines a bool flag, or reuses one of the same name that
// another test file of the binary already defined.
func boolFlag(name, usage string) func() bool {
	if f := flag.Lookup(name); f != nil {
		return func() bool { return f.Value.String() == "true" }
	}
	p := flag.Bool(name, false, usage)
	return func() bool { return *p }
}

const gorunDir = "testdata/gorun"

// gorunProgram is one corpus archive.
type gorunProgram struct {
	name    string
	path    string
	comment string
	prog    string
	cells   []string
	stdout  string
	stderr  string
	status  int
	// timeout is each cell's time limit; 0 means 5 s, well past what
	// every program of the corpus takes.
	timeout time.Duration
}

// gorunOutcome is how one form of a program did.
type gorunOutcome struct {
	ok    bool
	cause string
}

func TestGoRunCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("gorun corpus: skipped under -short (starts two sandbox sessions per program)")
	}
	progs := loadGoRunCorpus(t)
	if gorunUpdate() {
		recordGoRun(t, progs)
	}
	known := loadKnownFailures(t, progs)

	var mu sync.Mutex
	results := map[string][3]gorunOutcome{}
	t.Run("programs", func(t *testing.T) {
		for _, p := range progs {
			t.Run(p.name, func(t *testing.T) {
				t.Parallel()
				r := runGoRunForms(t, p)
				mu.Lock()
				results[p.name] = r
				mu.Unlock()
				if gorunKnown() {
					return
				}
				for i, o := range r {
					form := gorunForms[i]
					_, listed := known[p.name+" "+form]
					switch {
					case !o.ok && !listed:
						t.Errorf("%s as %s: %s (not in KNOWN_FAILURES)", p.name, form, o.cause)
					case o.ok && listed:
						t.Errorf("%s as %s passes but is listed in KNOWN_FAILURES: remove its line", p.name, form)
					}
				}
			})
		}
	})

	t.Log("gorun corpus: " + passRates(results, len(progs)))
	if len(results) != len(progs) {
		return // a subtest stopped early; its error says why
	}
	writeGoRunTable(t, progs, results)
	if gorunKnown() {
		writeKnownFailures(t, progs, results)
	}
}

// gorunForms name the forms each program runs in: the program as one
// cell, the cells a person splits it into, and main's body pasted at the
// top level of one cell after the imports and declarations (derived from
// prog.go by splitProgram, gorun_forms_test.go).
var gorunForms = [3]string{"file", "cells", "toplevel"}

// runGoRunForms runs p in its three forms, each in a fresh session.
func runGoRunForms(t *testing.T, p *gorunProgram) [3]gorunOutcome {
	var r [3]gorunOutcome
	r[0] = runGoRunForm(t, p, []string{p.prog}, true)
	r[1] = runGoRunForm(t, p, p.cells, false)
	pp, err := splitProgram(p.prog)
	if err != nil {
		r[2] = gorunOutcome{cause: "no top-level form: " + err.Error()}
		return r
	}
	r[2] = runGoRunForm(t, p, []string{pp.topLevel()}, false)
	return r
}

// passRates formats how many of n programs passed in each form.
func passRates(results map[string][3]gorunOutcome, n int) string {
	var ok [3]int
	for _, r := range results {
		for i, o := range r {
			if o.ok {
				ok[i]++
			}
		}
	}
	parts := make([]string, len(gorunForms))
	for i, f := range gorunForms {
		parts[i] = fmt.Sprintf("%s %d/%d passed (%.1f%%)", f, ok[i], n, pct(ok[i], n))
	}
	return strings.Join(parts, ", ")
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

// runGoRunForm runs cells in order in a fresh session and judges the
// result against p's recorded run. As a file, like `sbir-kernel run`, the
// value of the last expression is printed after the output.
func runGoRunForm(t *testing.T, p *gorunProgram, cells []string, asFile bool) gorunOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(40*time.Second+time.Duration(len(cells))*p.timeout))
	defer cancel()
	l := sandbox.DefaultLimits()
	l.CellTimeout = testenv.Scale(5 * time.Second) // every program ends in well under a second
	if p.timeout > 0 {
		l.CellTimeout = testenv.Scale(p.timeout)
	}
	s, err := sandbox.NewSession(ctx, sandbox.Options{Limits: l})
	if err != nil {
		t.Fatalf("starting a session: %v", err)
	}
	defer s.Close()

	var stdout, stderr strings.Builder
	var failed *sandbox.Result
	failedAt := 0
	for i, c := range cells {
		res, err := s.Run(ctx, c, nil)
		if err != nil {
			return gorunOutcome{cause: fmt.Sprintf("cell %d: session error: %v", i+1, err)}
		}
		stdout.WriteString(res.Stdout)
		stderr.WriteString(res.Stderr)
		if asFile {
			if v, ok := res.Value["text/plain"].(string); ok && v != "" {
				stdout.WriteString(strings.TrimSuffix(v, "\n") + "\n")
			}
		}
		if !res.Success {
			failed, failedAt = res, i+1
			break
		}
	}
	n := len(cells)
	if asFile {
		n = 0
	}
	return judgeGoRun(p, stdout.String(), stderr.String(), failed, failedAt, n)
}

// judgeGoRun applies the comparison rules of the corpus (see the comment
// at the top of this file). The failing cell is cell at of n; n is 0 for
// the file form.
func judgeGoRun(p *gorunProgram, stdout, stderr string, failed *sandbox.Result, at, n int) gorunOutcome {
	where := func(i int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("cell %d: ", i)
	}
	errText := func() string {
		return where(at) + failed.ErrorName + ": " + firstLine(failed.ErrorMessage)
	}
	if p.status == 0 {
		if failed != nil {
			return gorunOutcome{cause: errText()}
		}
		if d := diffText("stdout", stdout, p.stdout); d != "" {
			return gorunOutcome{cause: d}
		}
		if d := diffText("stderr", stderr, p.stderr); d != "" {
			return gorunOutcome{cause: d}
		}
		return gorunOutcome{ok: true}
	}
	if failed == nil {
		return gorunOutcome{cause: fmt.Sprintf("succeeded; go run exits with status %d", p.status)}
	}
	if refusedBeforeRunning[failed.ErrorName] {
		return gorunOutcome{cause: errText()} // go run compiled what this cell refused
	}
	if d := diffText("stdout", stdout, p.stdout); d != "" {
		return gorunOutcome{cause: d + " (then " + errText() + ")"}
	}
	before, fatalLine, isFatal := cutFatal(p.stderr)
	if p.status != 2 || !isFatal {
		if d := diffText("stderr", stderr, p.stderr); d != "" {
			return gorunOutcome{cause: d + " (then " + errText() + ")"}
		}
		return gorunOutcome{ok: true}
	}
	if !strings.HasPrefix(stderr, before) {
		return gorunOutcome{cause: diffText("stderr before the panic", stderr, before) + " (then " + errText() + ")"}
	}
	candidates := strings.Split(stderr[len(before):], "\n")
	msg := firstLine(failed.ErrorMessage)
	candidates = append(candidates, msg, "panic: "+msg, "fatal error: "+msg, failed.ErrorName+": "+msg)
	candidates = append(candidates, failed.Traceback...)
	for _, c := range candidates {
		if strings.TrimSpace(c) == fatalLine {
			return gorunOutcome{ok: true}
		}
	}
	return gorunOutcome{cause: fmt.Sprintf("%swant %q, got %s", where(at), fatalLine, failed.ErrorName+": "+msg)}
}

// cutFatal splits a recorded stderr at its first line that starts with
// "panic: " or "fatal error: " (how gc reports an uncaught panic or a
// deadlock), returning what came before and that line.
func cutFatal(stderr string) (before, line string, ok bool) {
	for off := 0; off < len(stderr); {
		end := strings.IndexByte(stderr[off:], '\n')
		if end < 0 {
			end = len(stderr) - off
		}
		l := stderr[off : off+end]
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			return stderr[:off], strings.TrimSpace(l), true
		}
		off += end + 1
	}
	return stderr, "", false
}

// refusedBeforeRunning are the error classes of a cell that did not
// start: for a program that go run compiled, they are the cause whatever
// the program does later.
var refusedBeforeRunning = map[string]bool{
	"SyntaxError": true, "NotAllowed": true, "CompileError": true,
	"CodeTooLarge": true, "PackageError": true, "SandboxError": true,
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	return strings.TrimSpace(s)
}

// diffText describes the first difference between got and want, or
// returns "" when they are equal.
func diffText(what, got, want string) string {
	if got == want {
		return ""
	}
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	for i := 0; ; i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("%s line %d: got %q, want %q", what, i+1, clip(gl), clip(wl))
		}
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// loadGoRunCorpus reads every archive of the corpus.
func loadGoRunCorpus(t *testing.T) []*gorunProgram {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(gorunDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", gorunDir, err)
	}
	var progs []*gorunProgram
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parseGoRunProgram(f, b)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	return progs
}

// parseGoRunProgram reads one archive. The format is txtar
// (golang.org/x/tools/txtar); it is parsed here because the module does
// not otherwise depend on x/tools.
func parseGoRunProgram(path string, b []byte) (*gorunProgram, error) {
	p := &gorunProgram{name: strings.TrimSuffix(filepath.Base(path), ".txtar"), path: path, status: -1}
	comment, files := parseTxtar(string(b))
	p.comment = comment
	var cellNames []string
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f.name] {
			return nil, fmt.Errorf("%s: section %q appears twice", path, f.name)
		}
		seen[f.name] = true
		switch {
		case f.name == "prog.go":
			p.prog = f.data
		case f.name == "stdout":
			p.stdout = f.data
		case f.name == "stderr":
			p.stderr = f.data
		case f.name == "status":
			n, err := strconv.Atoi(strings.TrimSpace(f.data))
			if err != nil {
				return nil, fmt.Errorf("%s: status: %v", path, err)
			}
			p.status = n
		case cellName.MatchString(f.name):
			if want := fmt.Sprintf("cell%d.go", len(p.cells)+1); f.name != want {
				return nil, fmt.Errorf("%s: section %q out of order, want %q", path, f.name, want)
			}
			p.cells = append(p.cells, f.data)
			cellNames = append(cellNames, f.name)
		default:
			return nil, fmt.Errorf("%s: unknown section %q (want prog.go, cellN.go, stdout, stderr, status)", path, f.name)
		}
	}
	switch {
	case p.prog == "":
		return nil, fmt.Errorf("%s: no prog.go section", path)
	case len(p.cells) == 0:
		return nil, fmt.Errorf("%s: no cell1.go section", path)
	case !seen["status"] && !gorunUpdate():
		return nil, fmt.Errorf("%s: not recorded yet: run go test -run TestGoRunCorpus -update ./sandbox/", path)
	}
	return p, nil
}

var cellName = regexp.MustCompile(`^cell[0-9]+\.go$`)

type txtarFile struct{ name, data string }

// parseTxtar splits a txtar archive into its comment and files: a file
// starts at a line "-- NAME --" and runs to the next such line.
func parseTxtar(s string) (comment string, files []txtarFile) {
	lines := strings.SplitAfter(s, "\n")
	var cur *strings.Builder
	var b strings.Builder
	cur = &b
	flush := func() string { v := cur.String(); cur.Reset(); return v }
	name := ""
	started := false
	for _, line := range lines {
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			if !started {
				comment = flush()
			} else {
				files = append(files, txtarFile{name, flush()})
			}
			name = strings.TrimSpace(trimmed[3 : len(trimmed)-3])
			started = true
			continue
		}
		cur.WriteString(line)
	}
	if started {
		files = append(files, txtarFile{name, flush()})
	} else {
		comment = flush()
	}
	return comment, files
}

// formatGoRunProgram writes p back as an archive.
func formatGoRunProgram(p *gorunProgram) []byte {
	var b bytes.Buffer
	b.WriteString(p.comment)
	section := func(name, data string) {
		fmt.Fprintf(&b, "-- %s --\n", name)
		b.WriteString(data)
		if data != "" && !strings.HasSuffix(data, "\n") {
			b.WriteString("\n")
		}
	}
	section("prog.go", p.prog)
	for i, c := range p.cells {
		section(fmt.Sprintf("cell%d.go", i+1), c)
	}
	section("stdout", p.stdout)
	section("stderr", p.stderr)
	section("status", strconv.Itoa(p.status))
	return b.Bytes()
}

// recordGoRun runs every prog.go with `go run` and rewrites its archive
// with what it printed.
func recordGoRun(t *testing.T, progs []*gorunProgram) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	errs := make([]error, len(progs))
	for i, p := range progs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = recordOne(goBin, p)
		}()
	}
	wg.Wait()
	for i, p := range progs {
		if errs[i] != nil {
			continue
		}
		if err := os.WriteFile(p.path, formatGoRunProgram(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// exitStatusLine is what go run appends to stderr when the program
// fails; it follows the program's own stderr directly, newline or not.
var exitStatusLine = regexp.MustCompile(`exit status ([0-9]+)\n$`)

func recordOne(goBin string, p *gorunProgram) error {
	return recordOneWithin(goBin, p, 2*time.Minute)
}

// recordOneWithin records p with go run, which may take up to limit.
func recordOneWithin(goBin string, p *gorunProgram, limit time.Duration) error {
	dir, err := os.MkdirTemp("", "gorun-"+p.name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module prog\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "prog.go"), []byte(p.prog), 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off")
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	status := 0
	errOut := stderr.String()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return fmt.Errorf("%s: go run: %v", p.name, err)
		}
		m := exitStatusLine.FindStringSubmatchIndex(errOut)
		if m == nil {
			return fmt.Errorf("%s: go run failed without running the program:\n%s", p.name, errOut)
		}
		status, _ = strconv.Atoi(errOut[m[2]:m[3]])
		errOut = errOut[:m[0]]
	}
	if before, line, ok := cutFatal(errOut); status == 2 && ok {
		errOut = before + line + "\n"
	}
	p.stdout, p.stderr, p.status = stdout.String(), errOut, status
	return nil
}

// loadKnownFailures reads KNOWN_FAILURES into a set of "program form"
// keys, checking that every line names a program and a form.
func loadKnownFailures(t *testing.T, progs []*gorunProgram) map[string]string {
	t.Helper()
	names := map[string]bool{}
	for _, p := range progs {
		names[p.name] = true
	}
	b, err := os.ReadFile(filepath.Join(gorunDir, "KNOWN_FAILURES"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 || !slices.Contains(gorunForms[:], f[1]) {
			t.Fatalf("KNOWN_FAILURES:%d: want \"<program> <file|cells|toplevel> <cause>\", got %q", i+1, line)
		}
		if !names[f[0]] && !gorunKnown() {
			t.Errorf("KNOWN_FAILURES:%d: no program %q in %s: remove the line", i+1, f[0], gorunDir)
		}
		known[f[0]+" "+f[1]] = f[2]
	}
	return known
}

// gorunCategories classify failure causes for KNOWN_FAILURES and the
// table by the cause's main part (before any " (then ..."); first match
// wins.
var gorunCategories = []struct {
	name    string
	pattern *regexp.Regexp
}{
	{"package clause refused", regexp.MustCompile(`package clause is not allowed`)},
	{"go statement refused", regexp.MustCompile(`a go statement is not allowed`)},
	{"import not allowed", regexp.MustCompile(`import "[^"]*" is not allowed`)},
	{"refused by the interpreter", regexp.MustCompile(`^(cell [0-9]+: )?NotAllowed: `)},
	{"parse error after import", regexp.MustCompile(`expected '\(', found|expected ';', found|expected declaration|SyntaxError`)},
	{"package member missing or generic not instantiated", regexp.MustCompile(`undefined selector|undefined type|has no symbol`)},
	{"undefined name", regexp.MustCompile(`undefined: `)},
	{"name collides with a preloaded package", regexp.MustCompile(`redeclared in this block`)},
	{"interpreter cannot compile", regexp.MustCompile(`interpreter cannot compile|variable definition loop|cannot use|does not implement|mismatched types|invalid operation`)},
	{"deadlock not reported", regexp.MustCompile(`want "fatal error: all goroutines are asleep`)},
	{"panic message differs", regexp.MustCompile(`want "panic: `)},
	{"fails at run time", regexp.MustCompile(`^(cell [0-9]+: )?(Panic|RuntimeError|Timeout|StackOverflow|MemoryError|WorkerCrashed|CompileError):`)},
	{"succeeds where go run fails", regexp.MustCompile(`^succeeded`)},
}

// categorise names the kind of failure a cause describes.
func categorise(p *gorunProgram, cause string) string {
	main, _, _ := strings.Cut(cause, " (then ")
	for _, c := range gorunCategories {
		if c.pattern.MatchString(main) {
			return c.name
		}
	}
	m := diffLine.FindStringSubmatch(main)
	if m == nil {
		return "other"
	}
	stream, got, want := m[1], m[2], m[3]
	got, _ = strconv.Unquote(got)
	want, _ = strconv.Unquote(want)
	switch {
	case stream == "stdout" && got != "" && strings.Contains(p.stderr, got):
		return "stderr output on stdout (println)"
	case unexportedField.MatchString(got):
		return "unexported field names renamed"
	case strings.Contains(want, "main.") && !strings.Contains(got, "main."):
		return "type names differ (%T, %#v, errors)"
	}
	return stream + " differs"
}

var (
	diffLine        = regexp.MustCompile(`^(?:cell [0-9]+: )?(stdout|stderr)[a-z ]* line [0-9]+: got ("(?:[^"\\]|\\.)*"), want ("(?:[^"\\]|\\.)*")`)
	unexportedField = regexp.MustCompile(`[{ "]X[a-z]\w*("?:|")`)
)

func writeKnownFailures(t *testing.T, progs []*gorunProgram, results map[string][3]gorunOutcome) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Forms of the gorun corpus expected to fail today: \"<program> <file|cells|toplevel> [category] cause\".\n")
	b.WriteString("# TestGoRunCorpus fails when a form fails that is not listed, or a listed one passes.\n")
	b.WriteString("# Regenerate with: go test ./sandbox/ -run TestGoRunCorpus -gorun.known\n")
	for _, p := range progs {
		r := results[p.name]
		for i, o := range r {
			if !o.ok {
				cause := strings.ReplaceAll(o.cause, "\n", " ")
				if len(cause) > 160 {
					cause = cause[:157] + "..."
				}
				fmt.Fprintf(&b, "%s %s [%s] %s\n", p.name, gorunForms[i], categorise(p, o.cause), cause)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(gorunDir, "KNOWN_FAILURES"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeGoRunTable writes the per-program results where asked.
func writeGoRunTable(t *testing.T, progs []*gorunProgram, results map[string][3]gorunOutcome) {
	t.Helper()
	path := os.Getenv("SBIR_GORUN_RESULTS")
	if path == "" && testing.Verbose() {
		path = filepath.Join(os.TempDir(), "gorun-results.md")
	}
	if path == "" {
		return
	}
	var b strings.Builder
	b.WriteString("| program | file | cells | toplevel | cause |\n|---|---|---|---|---|\n")
	counts := map[string]int{}
	for _, p := range progs {
		r := results[p.name]
		var causes []string
		for i, o := range r {
			if !o.ok {
				cat := categorise(p, o.cause)
				counts[gorunForms[i]+": "+cat]++
				causes = append(causes, gorunForms[i]+": ["+cat+"] "+o.cause)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.name, passMark(r[0].ok), passMark(r[1].ok), passMark(r[2].ok),
			strings.ReplaceAll(strings.Join(causes, "; "), "|", `\|`))
	}
	b.WriteString("\n| form: category | failures |\n|---|---|\n")
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "| %s | %d |\n", k, counts[k])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Errorf("writing the results table: %v", err)
		return
	}
	t.Logf("gorun corpus: per-program results in %s", path)
}

func passMark(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

// TestGoRunJudge pins the comparison rules, so that a pass rate means
// what the comment at the top of this file says.
func TestGoRunJudge(t *testing.T) {
	ok := &gorunProgram{stdout: "a\n", stderr: "w\n", status: 0}
	panics := &gorunProgram{stdout: "a\n", stderr: "debug\npanic: boom\n", status: 2}
	deadlock := &gorunProgram{stdout: "", stderr: "fatal error: all goroutines are asleep - deadlock!\n", status: 2}
	exits := &gorunProgram{stdout: "a\n", stderr: "bad\n", status: 3}
	panicRes := &sandbox.Result{ErrorName: "Panic", ErrorMessage: "boom\nmore"}
	for _, tc := range []struct {
		name           string
		p              *gorunProgram
		stdout, stderr string
		failed         *sandbox.Result
		want           string // "" for a pass, else a substring of the cause
	}{
		{"exact", ok, "a\n", "w\n", nil, ""},
		{"stdout differs", ok, "b\n", "w\n", nil, `stdout line 1: got "b\n", want "a\n"`},
		{"missing trailing line", ok, "a\nz\n", "w\n", nil, `stdout line 2: got "z\n", want ""`},
		{"stderr differs", ok, "a\n", "", nil, `stderr line 1`},
		{"println on stdout", ok, "w\na\n", "", nil, `stdout line 1: got "w\n", want "a\n"`},
		{"cell fails", ok, "a\n", "w\n", &sandbox.Result{ErrorName: "CompileError", ErrorMessage: "x\ny"}, "CompileError: x"},
		{"panic as message", panics, "a\n", "debug\n", panicRes, ""},
		{"panic on stderr", panics, "a\n", "debug\npanic: boom\n\ngoroutine 1 [running]:\n", &sandbox.Result{ErrorName: "Panic"}, ""},
		{"panic in traceback", panics, "a\n", "debug\n", &sandbox.Result{ErrorName: "Panic", Traceback: []string{"panic: boom"}}, ""},
		{"panic without earlier stderr", panics, "a\n", "", panicRes, "stderr before the panic"},
		{"other panic", panics, "a\n", "debug\n", &sandbox.Result{ErrorName: "Panic", ErrorMessage: "bang"}, `want "panic: boom", got Panic: bang`},
		{"no panic", panics, "a\n", "debug\n", nil, "succeeded; go run exits with status 2"},
		{"refused, not panicked", panics, "", "", &sandbox.Result{ErrorName: "NotAllowed", ErrorMessage: "package clause"}, "NotAllowed: package clause"},
		{"stdout before the panic", panics, "", "debug\n", panicRes, `stdout line 1`},
		{"deadlock", deadlock, "", "", &sandbox.Result{ErrorName: "RuntimeError", ErrorMessage: "all goroutines are asleep - deadlock!"}, ""},
		{"deadlock timed out", deadlock, "", "", &sandbox.Result{ErrorName: "Timeout", ErrorMessage: "too long"}, `want "fatal error: all goroutines are asleep - deadlock!"`},
		{"exit status", exits, "a\n", "bad\n", &sandbox.Result{ErrorName: "RuntimeError", ErrorMessage: "exit status 3"}, ""},
		{"exit status, stderr differs", exits, "a\n", "", &sandbox.Result{ErrorName: "RuntimeError"}, "stderr line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judgeGoRun(tc.p, tc.stdout, tc.stderr, tc.failed, 1, 0)
			switch {
			case tc.want == "" && !got.ok:
				t.Errorf("failed with %q, want a pass", got.cause)
			case tc.want != "" && got.ok:
				t.Errorf("passed, want a failure with %q", tc.want)
			case tc.want != "" && !strings.Contains(got.cause, tc.want):
				t.Errorf("cause %q, want it to contain %q", got.cause, tc.want)
			}
		})
	}
}

func TestGoRunArchive(t *testing.T) {
	p := &gorunProgram{
		name: "x", path: "x.txtar", comment: "# about x\n",
		prog:   "package main\n\nfunc main() {}\n",
		cells:  []string{"x := 1\n", "x--\n-- not a section\n"},
		stdout: "1\n", stderr: "", status: 2,
	}
	back, err := parseGoRunProgram("x.txtar", formatGoRunProgram(p))
	if err != nil {
		t.Fatal(err)
	}
	if back.comment != p.comment || back.prog != p.prog || !slices.Equal(back.cells, p.cells) ||
		back.stdout != p.stdout || back.stderr != p.stderr || back.status != p.status {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, p)
	}
	for _, tc := range []struct{ src, want string }{
		{"-- cell1.go --\nx\n-- status --\n0\n", "no prog.go"},
		{"-- prog.go --\nx\n-- status --\n0\n", "no cell1.go"},
		{"-- prog.go --\nx\n-- cell2.go --\ny\n-- status --\n0\n", `"cell2.go" out of order`},
		{"-- prog.go --\nx\n-- cell1.go --\ny\n-- notes --\n", `unknown section "notes"`},
		{"-- prog.go --\nx\n-- prog.go --\ny\n", `"prog.go" appears twice`},
		{"-- prog.go --\nx\n-- cell1.go --\ny\n-- status --\nzero\n", "status"},
	} {
		if _, err := parseGoRunProgram("bad.txtar", []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parse(%q) = %v, want an error containing %q", tc.src, err, tc.want)
		}
	}
}

// TestGoRunRecord records two small programs with the real go command:
// the status comes from go run's "exit status N" line, which is dropped,
// and a panic keeps only its first line.
func TestGoRunRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("gorun record: skipped under -short (builds programs with go run)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	if _, err := os.Stat(goBin); err != nil {
		t.Skipf("no go command: %v", err)
	}
	for _, tc := range []struct {
		prog           string
		stdout, stderr string
		status         int
	}{
		{"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"out\")\n\tprintln(\"err\")\n\tpanic(\"boom\")\n}\n",
			"out\n", "err\npanic: boom\n", 2},
		{"package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Fprint(os.Stderr, \"no newline\")\n\tos.Exit(3)\n}\n",
			"", "no newline", 3},
		{"package main\n\nfunc main() { println(\"fine\") }\n", "", "fine\n", 0},
	} {
		p := &gorunProgram{name: "record", prog: tc.prog}
		if err := recordOne(goBin, p); err != nil {
			t.Fatal(err)
		}
		if p.stdout != tc.stdout || p.stderr != tc.stderr || p.status != tc.status {
			t.Errorf("recorded stdout %q stderr %q status %d, want %q %q %d", p.stdout, p.stderr, p.status, tc.stdout, tc.stderr, tc.status)
		}
	}
	p := &gorunProgram{name: "broken", prog: "package main\n\nfunc main() { undefined() }\n"}
	if err := recordOne(goBin, p); err == nil || !strings.Contains(err.Error(), "without running the program") {
		t.Errorf("recording a program that does not compile: %v", err)
	}
}
