package gobuild

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// testSource is a module holding nothing but its go.mod: the programs
// built in these tests use the standard library only.
var testSource = fstest.MapFS{
	"go.mod":            {Data: []byte("module github.com/sbirtools/sbir-kernel\n\ngo 1.26.0\n\nrequire golang.org/x/mod v0.42.0\n\nreplace golang.org/x/mod => ./third_party/mod\n")},
	"go.sum":            {Data: nil},
	"dataset/x.go":      {Data: []byte("package dataset\n")},
	"dataset/x_test.go": {Data: []byte("package dataset\n")},
}

// newTestBuilder returns a builder with the host's toolchain and build
// cache (which `go test` already uses), or skips when there is no go
// command.
func newTestBuilder(t *testing.T, limits Limits) *Builder {
	t.Helper()
	tc, err := Find(context.Background(), "go", os.Environ(), "1.26.0")
	if err != nil {
		t.Skipf("no Go toolchain found: builds are not tested here (install Go 1.26 or later to test them): %v", err)
	}
	cache, err := exec.Command(tc.Go, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(Options{Toolchain: tc, Source: testSource, Dir: t.TempDir(), GoCache: strings.TrimSpace(string(cache)), Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const helloProgram = "package main\n\nimport \"fmt\"\n\nfunc main() {\n/*line cell:1:1*/fmt.Println(\"hello from gc\")\n}\n"

func TestBuildRunsAndCaches(t *testing.T) {
	b := newTestBuilder(t, Limits{})
	bin, err := b.Build(context.Background(), helloProgram, nil)
	if err != nil {
		t.Fatal(err)
	}
	if bin.Cached {
		t.Error("the first build reports a cached binary")
	}
	out, err := exec.Command(bin.Path).Output()
	if err != nil || string(out) != "hello from gc\n" {
		t.Fatalf("running the binary: %q, %v", out, err)
	}
	again, err := b.Build(context.Background(), helloProgram, nil)
	if err != nil || !again.Cached || again.Path != bin.Path {
		t.Errorf("the same program again: %+v, %v; want the cached binary", again, err)
	}
	other, err := b.Build(context.Background(), strings.Replace(helloProgram, "from gc", "again", 1), nil)
	if err != nil || other.Cached || other.Path == bin.Path {
		t.Errorf("a changed program: %+v, %v; want a new build", other, err)
	}
	// The written source has no test files, and a go.mod without the
	// repository's replace directives.
	dir, _, _ := b.source()
	if _, err := os.Stat(filepath.Join(dir, "dataset", "x_test.go")); err == nil {
		t.Error("test files were written to the build's source")
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if strings.Contains(string(gomod), "replace") || strings.Contains(string(gomod), "x/mod") {
		t.Errorf("go.mod keeps the replaced module:\n%s", gomod)
	}
}

func TestBuildCompileErrorsAtCellPositions(t *testing.T) {
	b := newTestBuilder(t, Limits{})
	src := "package main\n\n/*line earlier-f:4:1*/func f() int { return undefinedName }\n\n/*line generated:1:1*/func main() {\n/*line cell:2:3*/x := 1\n/*line cell:3:1*/_sbirMain()\n}\n"
	_, err := b.Build(context.Background(), src, nil)
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("Build: %v; want a CompileError", err)
	}
	msg := ce.Error()
	for _, want := range []string{
		"in f, declared in an earlier cell (at 4:23 there): undefined: undefinedName",
		"line 2, column 3: declared and not used: x",
		"line 3, column 1: undefined: main",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("errors lack %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, b.opts.Dir) || strings.Contains(msg, ".go") {
		t.Errorf("errors name files of the cache:\n%s", msg)
	}
}

func TestBuildLimits(t *testing.T) {
	b := newTestBuilder(t, Limits{Timeout: time.Millisecond, MemoryBytes: 4 << 30, OutputBytes: 1 << 10, MaxBinaries: 2})
	_, err := b.Build(context.Background(), strings.Replace(helloProgram, "gc", "a timeout", 1), nil)
	var le *LimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "time limit") {
		t.Errorf("a build past its time limit: %v; want a LimitError", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b = newTestBuilder(t, Limits{})
	if _, err := b.Build(ctx, strings.Replace(helloProgram, "gc", "an interrupt", 1), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("an interrupted build: %v; want context.Canceled", err)
	}
}

func TestFindRefusesWhatIsNoToolchain(t *testing.T) {
	ctx := context.Background()
	if _, err := Find(ctx, "go", []string{"PATH=/nonexistent"}, ""); !errors.Is(err, ErrNoToolchain) || !strings.Contains(err.Error(), "no go command on PATH") {
		t.Errorf("no go on PATH: %v", err)
	}
	if _, err := Find(ctx, "/bin/true", nil, ""); !errors.Is(err, ErrNoToolchain) {
		t.Errorf("/bin/true as the go command: %v", err)
	}
	tc, err := Find(ctx, "go", os.Environ(), "")
	if err != nil {
		t.Skip(err)
	}
	if _, err := Find(ctx, tc.Go, os.Environ(), "9.0"); err == nil || !strings.Contains(err.Error(), "compiled cells need go9.0 or later") {
		t.Errorf("a toolchain older than the module: %v", err)
	}
}

// TestPruneKeepsTheMostRecentlyUsed: the binary cache keeps MaxBinaries,
// the least recently used dropped, and what an interrupted build left.
func TestPruneKeepsTheMostRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	b := &Builder{opts: Options{Dir: dir, Limits: Limits{MaxBinaries: 2, Timeout: time.Minute}}}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for name, age := range map[string]time.Duration{"old": 3 * time.Hour, "mid": 2 * time.Hour, "new": time.Hour, "x.tmp-stale": 3 * time.Hour, "y.tmp-building": 0} {
		p := filepath.Join(bin, name)
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	b.prune()
	entries, _ := os.ReadDir(bin)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "mid new y.tmp-building" {
		t.Errorf("after pruning: %q; want mid, new and the build in progress", left)
	}
}

// TestBuildSurvivesThreadExits: goroutines that end on a locked OS thread
// (as the sandbox's worker starts do) end that thread; a build started on
// it once must not receive the parent-death signal.
func TestBuildSurvivesThreadExits(t *testing.T) {
	b := newTestBuilder(t, Limits{})
	stop := make(chan struct{})
	churned := make(chan struct{})
	go func() {
		defer close(churned)
		for {
			select {
			case <-stop:
				return
			default:
			}
			done := make(chan struct{})
			for range 64 {
				go func() {
					runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
					done <- struct{}{}
				}()
			}
			for range 64 {
				<-done
			}
		}
	}()
	defer func() { close(stop); <-churned }()
	for i := range 6 {
		prog := strings.Replace(helloProgram, "from gc", "from build "+strconv.Itoa(i)+" "+t.Name(), 1)
		if _, err := b.Build(context.Background(), prog, nil); err != nil {
			t.Fatalf("build %d while threads end: %v", i, err)
		}
	}
}

// TestWarmBuildRunsNoGoCommand: once the builder knows what a program's
// imports link, a changed program is compiled and linked without the go
// command (which spends half a second checking every package), also by
// a new builder on the same directory (a new kernel process); the
// binary is what go build makes of it. (go list's answer is longer than
// the output a build keeps of the toolchain's messages.)
func TestWarmBuildRunsNoGoCommand(t *testing.T) {
	l := DefaultLimits()
	l.OutputBytes = 1 << 10
	b := newTestBuilder(t, l)
	if _, err := b.Build(context.Background(), helloProgram, nil); err != nil {
		t.Fatal(err)
	}
	runs := b.goRuns.Load()
	changed := strings.Replace(helloProgram, "from gc", "changed", 1)
	bin, err := b.Build(context.Background(), changed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := b.goRuns.Load() - runs; n != 0 || b.fallback.Load() != 0 {
		t.Errorf("a changed program with the same imports ran the go command %d times (%d go builds); want none", n, b.fallback.Load())
	}
	if out, err := exec.Command(bin.Path).Output(); err != nil || string(out) != "hello changed\n" {
		t.Fatalf("running the binary: %q, %v", out, err)
	}
	again, err := New(b.opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := again.Build(context.Background(), strings.Replace(helloProgram, "from gc", "from a new builder", 1), nil); err != nil {
		t.Fatal(err)
	}
	if n := again.goRuns.Load(); n != 0 {
		t.Errorf("a new builder on the same directory ran the go command %d times; want none (the index is kept on disk)", n)
	}
}

// TestDirectBuildRefreshesAStaleIndex: export data the index names but
// the build cache no longer holds (trimmed) makes the builder ask go
// list again, not fail, nor fall back to go build.
func TestDirectBuildRefreshesAStaleIndex(t *testing.T) {
	b := newTestBuilder(t, Limits{})
	if _, err := b.Build(context.Background(), helloProgram, nil); err != nil {
		t.Fatal(err)
	}
	_, hash, _ := b.source()
	e := b.index["fmt"]
	e.Export = filepath.Join(t.TempDir(), "trimmed")
	b.index["fmt"] = e
	b.saveIndex(hash)
	fresh, err := New(b.opts)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := fresh.Build(context.Background(), strings.Replace(helloProgram, "from gc", "after a trim", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin.Path).Output(); err != nil || string(out) != "hello after a trim\n" {
		t.Fatalf("running the binary: %q, %v", out, err)
	}
	if runs, fb := fresh.goRuns.Load(), fresh.fallback.Load(); runs != 1 || fb != 0 {
		t.Errorf("with a stale index: %d go commands, %d go builds; want one go list and no go build", runs, fb)
	}
}
