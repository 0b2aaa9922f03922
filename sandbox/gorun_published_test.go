package sandbox_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
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

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
)

// TestGoRunPublished measures the kernel on Go programs published by
// others, which the repository never holds (issue 27): point
// SBIR_GORUN_PUBLISHED at a directory of checkouts (Go by Example, the Go
// Tour, tutorial repositories, ...) and every .go file in it that is a
// whole program (package main with func main) importing only packages
// cells may import runs in the three forms of the gorun corpus (file,
// cells, top level), each compared with what `go run` printed for it.
//
// Each program is built as go run builds it and run eight times, on an
// empty standard input and with a 10 s limit; a program whose runs differ (time, random
// numbers, goroutine scheduling), that does not build alone, that runs
// longer or prints more than a cell may is skipped, with its reason in
// the results, as is one that prints its binary's path (os.Args[0]).
// Recordings are kept in $SBIR_GORUN_PUBLISHED/.gorun-record by the hash
// of the program, so later runs skip go run. Build-constraint
// lines (the Go Tour's `// +build OMIT`) are dropped from every program:
// cells refuse directives.
//
// The pass rates are logged and the per-program table, with every
// failure's cause, written to $SBIR_GORUN_RESULTS, or else to
// published-results.md in the directory. SBIR_GORUN_PUBLISHED_MATCH, a
// regular expression, restricts the run to the programs whose path
// matches.
//
//	SBIR_GORUN_PUBLISHED=/work/wt/top-ext/src go test ./sandbox -run TestGoRunPublished -v -timeout 2h
func TestGoRunPublished(t *testing.T) {
	dir := os.Getenv("SBIR_GORUN_PUBLISHED")
	if dir == "" {
		t.Skip("SBIR_GORUN_PUBLISHED is not set: no published programs to measure")
	}
	var match *regexp.Regexp
	if m := os.Getenv("SBIR_GORUN_PUBLISHED_MATCH"); m != "" {
		match = regexp.MustCompile(m)
	}
	progs, skipped := collectPublished(t, dir, match)
	t.Logf("published programs: %d to run, %d skipped", len(progs), len(skipped))

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
			})
		}
	})
	t.Log("published programs: " + passRates(results, len(progs)))
	out := os.Getenv("SBIR_GORUN_RESULTS")
	if out == "" {
		out = filepath.Join(dir, "published-results.md")
	}
	writePublishedTable(t, out, progs, results, skipped)
}

// collectPublished finds, filters and records the published programs
// under dir. skipped maps a program's name to why it does not run.
func collectPublished(t *testing.T, dir string, match *regexp.Regexp) (progs []*gorunProgram, skipped map[string]string) {
	t.Helper()
	allowed := map[string]bool{}
	for _, p := range allowlist.Packages() {
		allowed[p] = true
	}
	skipped = map[string]string{}
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != dir {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, ".gorun-record")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	var todo []*gorunProgram
	for _, path := range paths {
		rel, _ := filepath.Rel(dir, path)
		if match != nil && !match.MatchString(rel) {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := dropBuildLines(string(b))
		if why := publishedProgram(src, allowed); why != "" {
			if why != "not a program" {
				skipped[rel] = why
			}
			continue
		}
		pp, err := splitProgram(src)
		if err != nil {
			skipped[rel] = err.Error()
			continue
		}
		todo = append(todo, &gorunProgram{name: rel, prog: src, cells: pp.cells(), timeout: 15 * time.Second})
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, p := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			why := recordPublished(goBin, cache, p)
			mu.Lock()
			defer mu.Unlock()
			if why != "" {
				skipped[p.name] = why
				return
			}
			progs = append(progs, p)
		}()
	}
	wg.Wait()
	slices.SortFunc(progs, func(a, b *gorunProgram) int { return strings.Compare(a.name, b.name) })
	return progs, skipped
}

var buildLine = regexp.MustCompile(`(?m)^//(go:build|\s*\+build) .*\n`)

// dropBuildLines removes build-constraint lines.
func dropBuildLines(src string) string { return buildLine.ReplaceAllString(src, "") }

// publishedProgram says why src is not a program to measure, or "": it
// must be a whole program that cells could run as go run does, so it may
// import only the packages cells may import, use only their members cells
// have, read no standard input (go run's is empty, a cell asks the
// notebook) and not read the clock.
func publishedProgram(src string, allowed map[string]bool) string {
	f, err := parser.ParseFile(token.NewFileSet(), "prog.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "does not parse"
	}
	hasMain := false
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" {
			hasMain = true
		}
	}
	if f.Name.Name != "main" || !hasMain {
		return "not a program"
	}
	pkgs := map[string]string{} // name in the file → import path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !allowed[path] {
			return "imports " + path
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		pkgs[name] = path
	}
	why := ""
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || why != "" {
			return why == ""
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || pkgs[id.Name] == "" {
			return true
		}
		member := id.Name + "." + sel.Sel.Name
		switch {
		case member == "os.Stdin" || strings.HasPrefix(member, "fmt.Scan"):
			why = "reads standard input"
		case member == "time.Now" || member == "time.Since" || member == "time.Until":
			why = "reads the clock"
		case member == "os.Args":
			// Cells have it: the arguments of a program run without any.
		case !slices.Contains(symbols.Members(pkgs[id.Name]), sel.Sel.Name):
			why = "uses " + member + ", which cells do not have"
		}
		return why == ""
	})
	return why
}

// publishedRecord is a cached recording of a published program.
type publishedRecord struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Status int    `json:"status"`
	Skip   string `json:"skip,omitempty"` // why the program is not measured
}

// recordPublished fills p's expected output from the cache or by running
// it eight times; it returns why p is skipped, or "".
func recordPublished(goBin, cache string, p *gorunProgram) string {
	sum := sha256.Sum256([]byte(p.prog))
	file := filepath.Join(cache, hex.EncodeToString(sum[:12])+".json")
	var rec publishedRecord
	if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &rec) == nil {
		p.stdout, p.stderr, p.status = rec.Stdout, rec.Stderr, rec.Status
		return rec.Skip
	}
	first := &gorunProgram{}
	bin, cleanup, err := buildPublished(goBin, p.prog)
	defer cleanup()
	switch {
	case err != nil:
		rec.Skip = "does not build alone"
	case runPublished(bin, first) != nil:
		rec.Skip = "runs over 10 s"
	case !sameRuns(bin, first, 7):
		rec.Skip = "nondeterministic: runs differ"
	case len(first.stdout)+len(first.stderr) > 1<<20:
		rec.Skip = "prints more than a cell may (1 MiB)"
	case strings.Contains(first.stdout+first.stderr, filepath.Dir(bin)):
		rec.Skip = "prints the path of its binary (os.Args[0])"
	}
	rec.Stdout, rec.Stderr, rec.Status = first.stdout, first.stderr, first.status
	b, _ := json.Marshal(rec)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return "recording: " + err.Error()
	}
	p.stdout, p.stderr, p.status = rec.Stdout, rec.Stderr, rec.Status
	return rec.Skip
}

// writePublishedTable writes the per-program results and the skipped
// programs with their reasons.
func writePublishedTable(t *testing.T, path string, progs []*gorunProgram, results map[string][3]gorunOutcome, skipped map[string]string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# Published programs through the kernel\n\n%s\n\n", passRates(results, len(progs)))
	b.WriteString("| program | file | cells | toplevel | cause |\n|---|---|---|---|---|\n")
	for _, p := range progs {
		r := results[p.name]
		var causes []string
		for i, o := range r {
			if !o.ok {
				causes = append(causes, gorunForms[i]+": ["+categorise(p, o.cause)+"] "+o.cause)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.name, passMark(r[0].ok), passMark(r[1].ok), passMark(r[2].ok),
			strings.ReplaceAll(strings.Join(causes, "; "), "|", `\|`))
	}
	b.WriteString("\n## Skipped\n\n| program | why |\n|---|---|\n")
	for _, n := range slices.Sorted(maps.Keys(skipped)) {
		fmt.Fprintf(&b, "| %s | %s |\n", n, skipped[n])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Errorf("writing the results: %v", err)
		return
	}
	t.Logf("published programs: per-program results in %s", path)
}

// sameRuns reports whether n more runs of bin print what first did (a
// map of two keys ranged over comes out in the same order in three runs
// a quarter of the time, in eight runs once in 128).
func sameRuns(bin string, first *gorunProgram, n int) bool {
	for range n {
		again := &gorunProgram{}
		if runPublished(bin, again) != nil || again.stdout != first.stdout || again.stderr != first.stderr || again.status != first.status {
			return false
		}
	}
	return true
}

// buildPublished builds prog as go run would (a module of its own, the
// local toolchain, no proxy) and returns the binary.
func buildPublished(goBin, prog string) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "gorun-published-")
	if err != nil {
		return "", func() {}, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module prog\n\ngo 1.26\n"), 0o644); err != nil {
		return "", cleanup, err
	}
	if err := os.WriteFile(filepath.Join(dir, "prog.go"), []byte(prog), 0o644); err != nil {
		return "", cleanup, err
	}
	cmd := exec.Command(goBin, "build", "-o", "prog", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", cleanup, fmt.Errorf("%v: %s", err, out)
	}
	return filepath.Join(dir, "prog"), cleanup, nil
}

// runPublished runs a built program on an empty standard input for at
// most 10 s and records its output as the corpus records go run's.
func runPublished(bin string, p *gorunProgram) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = []string{}
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	if err != nil {
		var ee *exec.ExitError
		if ctx.Err() != nil || !errors.As(err, &ee) || ee.ExitCode() < 0 {
			return fmt.Errorf("running: %v", err)
		}
		status = ee.ExitCode()
	}
	errOut := stderr.String()
	if before, line, ok := cutFatal(errOut); status == 2 && ok {
		errOut = before + line + "\n"
	}
	p.stdout, p.stderr, p.status = stdout.String(), errOut, status
	return nil
}
