package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/pkgenv/pkgenvtest"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// testModules are the modules the tests' proxy serves. The stats module
// stands in for the real github.com/montanaflynn/stats (the tests never
// reach the network).
func testModules() []pkgenvtest.Module {
	return []pkgenvtest.Module{
		{Path: "github.com/montanaflynn/stats", Version: "v0.7.1", Files: map[string]string{
			"doc.go": "// Package stats computes statistics of float64 samples.\npackage stats\n",
			"data.go": `package stats

// Float64Data is a sample.
type Float64Data []float64

// Len returns the size of the sample.
func (f Float64Data) Len() int { return len(f) }

// LoadRawData converts a slice of numbers to a sample.
func LoadRawData(raw []float64) Float64Data { return Float64Data(raw) }

func unexportedHelper() {}
`,
			"median.go": `package stats

import (
	"errors"
	"sort"
)

// ErrEmptyInput is returned for an empty slice.
var ErrEmptyInput = errors.New("Input must not be empty.")

// Median returns the median of input.
func Median(input []float64) (float64, error) {
	n := len(input)
	if n == 0 {
		return 0, ErrEmptyInput
	}
	c := append([]float64(nil), input...)
	sort.Float64s(c)
	if n%2 == 0 {
		return (c[n/2-1] + c[n/2]) / 2, nil
	}
	return c[n/2], nil
}
`,
		}},
		{Path: "example.com/readsfiles", Version: "v1.0.0", Files: map[string]string{
			"r.go": "package readsfiles\n\nimport \"os\"\n\n// Passwd reads /etc/passwd.\nfunc Passwd() string {\n\tb, _ := os.ReadFile(\"/etc/passwd\")\n\treturn string(b)\n}\n",
		}},
		{Path: "example.com/runs", Version: "v1.0.0", Files: map[string]string{
			"runs.go": "package runs\n\nimport \"os/exec\"\n\n// Run runs a command.\nfunc Run() error { return exec.Command(\"true\").Run() }\n",
		}},
		{Path: "example.com/mixed", Version: "v1.0.0", Files: map[string]string{
			"mixed.go":   "package mixed\n\n// Two is 2.\nconst Two = 2\n",
			"net/net.go": "package net\n\nimport \"net\"\n\n// Dial dials.\nfunc Dial() { net.Dial(\"tcp\", \"1.1.1.1:80\") }\n",
		}},
	}
}

const statsDecl = "//sbir:require github.com/montanaflynn/stats v0.7.1\n"

// packageOptions returns session options that install from a local proxy
// into a fresh cache, with installs allowed.
func packageOptions(t testing.TB, proxy *pkgenvtest.Proxy, cache string) Options {
	l := DefaultLimits()
	l.CellTimeout = testenv.Scale(10 * time.Second)
	return Options{Limits: l, Packages: pkgenv.Options{
		Dir:           cache,
		Proxy:         proxy.URL,
		SumDBKey:      proxy.SumDBKey,
		AllowInstall:  true,
		KernelVersion: "test",
	}}
}

func newPackageSession(t testing.TB, opts Options) *Session {
	t.Helper()
	s, err := NewSession(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPackagesInstallImportCall(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	opts := packageOptions(t, proxy, t.TempDir())
	s := newPackageSession(t, opts)
	var streamed strings.Builder
	h := &Handlers{Stream: func(name, text string) {
		if name == "stderr" {
			streamed.WriteString(text)
		}
	}}
	code := statsDecl + `import "github.com/montanaflynn/stats"` + "\n" + `stats.Median([]float64{1, 2, 3})`
	res, err := s.Run(context.Background(), code, h)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success || res.Value["text/plain"] != "2 <nil>" {
		t.Fatalf("got %+v", res)
	}
	if !strings.Contains(streamed.String(), "go: downloading github.com/montanaflynn/stats v0.7.1") || !strings.Contains(res.Stderr, "go: downloading") {
		t.Errorf("install progress not on the cell's stderr: streamed %q, result %q", streamed.String(), res.Stderr)
	}
	// Later cells use the package without importing it again.
	res = mustRun(t, s, `m, _ := stats.Median([]float64{4, 1, 3, 2}); m`)
	if res.Value["text/plain"] != "2.5" {
		t.Errorf("second cell: %+v", res)
	}
	// Re-running the first cell (the same set) is a no-op that keeps the
	// session's variables.
	mustRun(t, s, code)
	if res := mustRun(t, s, "m"); res.Value["text/plain"] != "2.5" {
		t.Errorf("re-declaring the set lost the session: %+v", res)
	}
	// The landlock layer says the environment is readable.
	for _, l := range s.Layers() {
		if l.Name == "landlock" && l.Active && !strings.Contains(l.Detail, "package environment") {
			t.Errorf("landlock layer does not mention the environment: %s", l.Detail)
		}
	}
}

// mustRun runs a cell that must succeed.
func mustRun(t testing.TB, s *Session, code string) *Result {
	t.Helper()
	res, err := s.Run(context.Background(), code, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success {
		t.Fatalf("%q failed: %s: %s", code, res.ErrorName, res.ErrorMessage)
	}
	return res
}

func TestPackagesSecondSessionUsesCache(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	cache := t.TempDir()
	opts := packageOptions(t, proxy, cache)
	code := statsDecl + `import "github.com/montanaflynn/stats"` + "\n" + `stats.Median([]float64{5, 1, 9})`
	s1 := newPackageSession(t, opts)
	if res := mustRun(t, s1, code); !strings.Contains(res.Stderr, "go: downloading") {
		t.Errorf("first session did not install: %q", res.Stderr)
	}
	// The second session, with installs disabled and the proxy gone,
	// still gets the cached environment.
	opts.Packages.AllowInstall = false
	opts.Packages.Proxy = "http://127.0.0.1:1"
	s2 := newPackageSession(t, opts)
	res := mustRun(t, s2, code)
	if res.Stderr != "" || res.Value["text/plain"] != "5 <nil>" {
		t.Errorf("cache hit: %+v", res)
	}
}

func TestPackagesRefusals(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	cache := t.TempDir()
	opts := packageOptions(t, proxy, cache)
	closed := opts
	closed.Packages.AllowInstall = false
	cases := []struct {
		name    string
		opts    Options
		cells   []string // all but the last must succeed
		errName string
		errText []string
	}{
		{name: "gate closed", opts: closed,
			cells: []string{statsDecl + "1"}, errName: "PackageError",
			errText: []string{"package installs are disabled on this server", "--allow-packages"}},
		// A cell that does not parse fails before anything is resolved:
		// with the gate closed, the error is the syntax, not the gate.
		{name: "syntax error before install", opts: closed,
			cells: []string{statsDecl + "x := )"}, errName: "SyntaxError",
			errText: []string{"line 2"}},
		{name: "typo in the directive", opts: opts,
			cells: []string{"//sbir:requires github.com/montanaflynn/stats v0.7.1\n1"}, errName: "SyntaxError",
			errText: []string{"line 1", "//sbir:require github.com/montanaflynn/stats v0.7.1"}},
		{name: "inexact version", opts: opts,
			cells: []string{"//sbir:require github.com/montanaflynn/stats latest\n1"}, errName: "SyntaxError",
			errText: []string{"line 1", "exact"}},
		{name: "new set after cells ran", opts: opts,
			cells:   []string{"x := 1", statsDecl + "x"},
			errName: "PackageError", errText: []string{"restart the kernel to change packages (put //sbir:require lines in the first cell)", "github.com/montanaflynn/stats@v0.7.1"}},
		{name: "undeclared import", opts: opts,
			cells: []string{`import "github.com/montanaflynn/stats"`}, errName: "NotAllowed",
			errText: []string{"line 1, column 8", "declare its module first, e.g. //sbir:require github.com/montanaflynn/stats"}},
		{name: "two versions in a cell", opts: opts,
			cells:   []string{statsDecl + "//sbir:require github.com/montanaflynn/stats v0.7.0\n1"},
			errName: "SyntaxError", errText: []string{"line 2", "one version"}},
		{name: "another version than the session's", opts: opts,
			cells:   []string{statsDecl, "//sbir:require github.com/montanaflynn/stats v0.7.0\n1"},
			errName: "PackageError", errText: []string{"line 1", "this session already uses v0.7.1", "restart the kernel"}},
		{name: "package using os.ReadFile", opts: opts,
			cells:   []string{"//sbir:require example.com/readsfiles v1.0.0\nimport \"example.com/readsfiles\""},
			errName: "PackageError", errText: []string{"no package of this module can be used in cells", "example.com/readsfiles: uses os.ReadFile, which cells may not use (at example.com/readsfiles/r.go:7:10)"}},
		{name: "package importing os/exec", opts: opts,
			cells:   []string{"//sbir:require example.com/runs v1.0.0\nimport \"example.com/runs\""},
			errName: "PackageError", errText: []string{"example.com/runs", "imports os/exec, which cells may not use"}},
		{name: "bad subpackage of a usable module", opts: opts,
			cells:   []string{"//sbir:require example.com/mixed v1.0.0\nimport \"example.com/mixed\"\nmixed.Two", "import \"example.com/mixed/net\""},
			errName: "NotAllowed", errText: []string{"package example.com/mixed/net cannot be used in cells: imports net, which cells may not use"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newPackageSession(t, tc.opts)
			for _, c := range tc.cells[:len(tc.cells)-1] {
				mustRun(t, s, c)
			}
			res, err := s.Run(context.Background(), tc.cells[len(tc.cells)-1], nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Success || res.ErrorName != tc.errName {
				t.Fatalf("want %s, got %+v", tc.errName, res)
			}
			for _, want := range tc.errText {
				if !strings.Contains(res.ErrorMessage, want) {
					t.Errorf("error %q does not say %q", res.ErrorMessage, want)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(cache, "tmp")); err == nil {
		entries, _ := os.ReadDir(filepath.Join(cache, "tmp"))
		if len(entries) > 0 {
			t.Errorf("installs left %d temporary directories", len(entries))
		}
	}
}

// TestPackagesIsolationHolds checks that a worker with a package
// environment reads it and still nothing else.
func TestPackagesIsolationHolds(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	cache := t.TempDir()
	s := newPackageSession(t, packageOptions(t, proxy, cache))
	mustRun(t, s, statsDecl+`import "github.com/montanaflynn/stats"`)
	if !landlockActive(s) {
		t.Skip("Landlock is not active on this host")
	}
	// A file of the cache beside the environment stays out of reach.
	beside := filepath.Join(cache, "beside.txt")
	if err := os.WriteFile(beside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	results, err := s.probe(wire.ProbeTarget{File: beside})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if !r.Blocked {
			t.Errorf("with a package environment, %s was not blocked: %s", r.Name, r.Detail)
		}
	}
}

func landlockActive(s *Session) bool {
	for _, l := range s.Layers() {
		if l.Name == "landlock" {
			return l.Active
		}
	}
	return false
}

func TestPackagesInterruptedInstall(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	s := newPackageSession(t, packageOptions(t, proxy, t.TempDir()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := s.Run(ctx, statsDecl+"1", nil)
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if err == nil && (res.Success || res.ErrorName != "Interrupted") {
		t.Fatalf("want Interrupted, got %+v", res)
	}
}

// TestPreflightHostilePackages checks the real pre-flight against packages
// that hang or kill the interpreter while loading: each is refused with
// why, its worker is replaced, and the module's other packages stay
// usable.
func TestPreflightHostilePackages(t *testing.T) {
	proxy := pkgenvtest.New(t, pkgenvtest.Module{Path: "example.com/hostile", Version: "v1.0.0", Files: map[string]string{
		"fine/fine.go":   "package fine\n\n// One is 1.\nconst One = 1\n",
		"hog/hog.go":     "package hog\n\n// Big holds 3 GiB.\nvar Big = make([]byte, 3<<30)\n\nfunc init() {\n\tfor i := 0; i < len(Big); i += 4096 {\n\t\tBig[i] = 1\n\t}\n}\n",
		"spin/spin.go":   "package spin\n\nvar n int\n\nfunc init() {\n\tfor {\n\t\tn++\n\t}\n}\n",
		"zfine/zfine.go": "package zfine\n\n// Two is 2.\nconst Two = 2\n",
	}})
	opts := packageOptions(t, proxy, t.TempDir())
	// Long enough for the hog to reach the heap limit on a loaded machine
	// before the spinner's timeout is all that is left to report.
	opts.testPreflightTimeout = testenv.Scale(5 * time.Second)
	s := newPackageSession(t, opts)
	res, err := s.Run(context.Background(), "//sbir:require example.com/hostile v1.0.0\nimport \"example.com/hostile/zfine\"\nzfine.Two", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success || res.Value["text/plain"] != "2" {
		t.Fatalf("the usable packages of the module: %+v", res)
	}
	for _, want := range []string{
		"example.com/hostile/spin: loading it took longer than " + opts.testPreflightTimeout.String(),
		"example.com/hostile/hog: loading it ended the sandbox worker (", // MemoryError (WorkerCrashed under -race)
	} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("the install warnings do not say %q:\n%s", want, res.Stderr)
		}
	}
}

// TestPackagesDeclaredOverSeveralCells checks that declarations in cells
// that run no code add up, and that the union is usable.
func TestPackagesDeclaredOverSeveralCells(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	s := newPackageSession(t, packageOptions(t, proxy, t.TempDir()))
	mustRun(t, s, statsDecl)
	mustRun(t, s, "//sbir:require example.com/mixed v1.0.0")
	res := mustRun(t, s, "import (\n\t\"example.com/mixed\"\n\tst \"github.com/montanaflynn/stats\"\n)\nm, _ := st.Median([]float64{1, 5, 9})\nm * mixed.Two")
	if res.Value["text/plain"] != "10" {
		t.Fatalf("got %+v", res)
	}
	// The renamed import is remembered: importing it again is harmless.
	if res := mustRun(t, s, "import st \"github.com/montanaflynn/stats\"\nst.ErrEmptyInput"); res.Value["text/plain"] != "Input must not be empty." {
		t.Fatalf("got %+v", res)
	}
}

// TestPackagesCompletion checks that completion offers the exported members
// of third-party packages by the name a cell imported them as: in a cell
// that ran, renamed, or in the cell being edited.
func TestPackagesCompletion(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	s := newPackageSession(t, packageOptions(t, proxy, t.TempDir()))
	mustRun(t, s, statsDecl+`import "github.com/montanaflynn/stats"`)
	mustRun(t, s, `import st "github.com/montanaflynn/stats"`)
	cases := []struct {
		name, code string
		want       []string // exactly, when notWant is nil; else a subset
		notWant    []string
		prefix     int // runes of the completed prefix
	}{
		{name: "member prefix", code: "stats.Me", want: []string{"Median"}, prefix: 2},
		{name: "all members", code: "x := stats.", prefix: 0,
			want: []string{"ErrEmptyInput", "Float64Data", "LoadRawData", "Median"}},
		{name: "renamed import", code: "st.Lo", want: []string{"LoadRawData"}, prefix: 2},
		{name: "import in the edited cell", code: "import sx \"github.com/montanaflynn/stats\"\nsx.Err", want: []string{"ErrEmptyInput"}, prefix: 3},
		{name: "package names", code: "st", want: []string{"st", "stats", "strings"}, notWant: []string{"Median"}, prefix: 2},
		{name: "standard library unchanged", code: "strings.ToUpperS", want: []string{"ToUpperSpecial"}, prefix: 8},
		{name: "unknown package", code: "nosuch.Me", want: nil, prefix: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cursor := len([]rune(tc.code))
			c, err := s.Complete(context.Background(), tc.code, cursor)
			if err != nil {
				t.Fatal(err)
			}
			if c.Start != cursor-tc.prefix || c.End != cursor {
				t.Errorf("range [%d, %d), want [%d, %d)", c.Start, c.End, cursor-tc.prefix, cursor)
			}
			if tc.notWant == nil {
				if strings.Join(c.Matches, ",") != strings.Join(tc.want, ",") {
					t.Errorf("matches %q, want %q", c.Matches, tc.want)
				}
				return
			}
			for _, w := range tc.want {
				if !slices.Contains(c.Matches, w) {
					t.Errorf("matches %q lack %q", c.Matches, w)
				}
			}
			for _, w := range tc.notWant {
				if slices.Contains(c.Matches, w) {
					t.Errorf("matches %q include %q", c.Matches, w)
				}
			}
		})
	}
}

// TestPackagesInspect checks that inspecting a member of a third-party
// package shows its declaration and doc comment, read from its source.
func TestPackagesInspect(t *testing.T) {
	proxy := pkgenvtest.New(t, testModules()...)
	s := newPackageSession(t, packageOptions(t, proxy, t.TempDir()))
	mustRun(t, s, statsDecl+"import (\n\t\"github.com/montanaflynn/stats\"\n\tst \"github.com/montanaflynn/stats\"\n)")
	cases := []struct {
		name, code string
		cursor     int      // runes; -1: the end
		want       []string // in text/plain; nil: nothing found
	}{
		{name: "function", code: "m, _ := stats.Median([]float64{1})", cursor: 16,
			want: []string{"func Median(input []float64) (float64, error)", "Median returns the median of input."}},
		{name: "variable", code: "stats.ErrEmptyInput", cursor: -1,
			want: []string{`var ErrEmptyInput = errors.New("Input must not be empty.")`, "ErrEmptyInput is returned for an empty slice."}},
		{name: "type", code: "st.Float64Data", cursor: -1,
			want: []string{"type Float64Data []float64", "Float64Data is a sample."}},
		{name: "renamed import, constructor", code: "st.LoadRawData(nil)", cursor: 5,
			want: []string{"func LoadRawData(raw []float64) Float64Data", "LoadRawData converts"}},
		{name: "package", code: "stats", cursor: 2,
			want: []string{"package stats", "Package stats computes statistics of float64 samples."}},
		{name: "unexported", code: "stats.unexportedHelper", cursor: -1},
		{name: "no such member", code: "stats.Mode", cursor: -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cursor := tc.cursor
			if cursor < 0 {
				cursor = len([]rune(tc.code))
			}
			in, err := s.Inspect(context.Background(), tc.code, cursor, 0)
			if err != nil {
				t.Fatal(err)
			}
			if in.Found != (tc.want != nil) {
				t.Fatalf("found %v, want %v: %v", in.Found, tc.want != nil, in.Data)
			}
			text, _ := in.Data["text/plain"].(string)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("text/plain %q does not say %q", text, w)
				}
			}
			if md, _ := in.Data["text/markdown"].(string); tc.want != nil && !strings.HasPrefix(md, "```go\n"+tc.want[0]) {
				t.Errorf("text/markdown %q does not start with the declaration", md)
			}
		})
	}
}

// ghostModule is a module whose functions start goroutines: one that
// prints forever, and n that block forever.
func ghostModule() pkgenvtest.Module {
	return pkgenvtest.Module{Path: "example.com/ghost", Version: "v1.0.0", Files: map[string]string{
		"ghost.go": `package ghost

import (
	"fmt"
	"time"
)

// Spin starts a goroutine that prints forever.
func Spin() {
	go func() {
		for i := 0; ; i++ {
			time.Sleep(100 * time.Millisecond)
			fmt.Println("ghost", i)
		}
	}()
}

// Bomb starts n goroutines that block forever.
func Bomb(n int) {
	for i := 0; i < n; i++ {
		go func() { select {} }()
	}
}
`,
	}}
}

// TestPackageGoroutinesBelongToTheCell replays issue 30's hole 4: go
// statements in the source of a //sbir:require module were never
// rewritten as a cell's are, so their goroutines were nobody's: they
// outlived the cell, printed into later cells (or, stopped in a
// time.Sleep by the next cell's end, crashed the worker), and passed the
// 10,000-goroutine limit (a Bomb(50000) was accepted, and the deadlock
// detector stopped working). Now they belong to the cell that called the
// package, as the cell's own do.
func TestPackageGoroutinesBelongToTheCell(t *testing.T) {
	proxy := pkgenvtest.New(t, ghostModule())
	opts := packageOptions(t, proxy, t.TempDir())
	const decl = "//sbir:require example.com/ghost v1.0.0\nimport \"example.com/ghost\"\n"

	// A snippet waits for its goroutines until its limit, which stops them.
	opts.Limits.CellTimeout = testenv.Scale(3 * time.Second)
	s := newPackageSession(t, opts)
	mustRun(t, s, decl+"1")
	r, err := s.Run(context.Background(), "ghost.Spin()", nil)
	if err != nil || r.Success || r.ErrorName != ClassTimeout || r.Restarted {
		t.Fatalf("a cell whose package started a goroutine that never ends: %v %+v; want it to wait until its limit, as for its own goroutines", err, r)
	}
	r = mustRun(t, s, "time.Sleep(time.Second)\n2")
	if r.Stdout != "" || r.Restarted {
		t.Fatalf("the next cell: stdout %q, restarted %v; the package's goroutine outlived its cell", r.Stdout, r.Restarted)
	}

	// The limit on goroutines holds for packages' too, and deadlocks are
	// still reported after. (The goroutines blocked in select{} cannot be
	// stopped: the worker is replaced.)
	opts.Limits.CellTimeout = testenv.Scale(time.Minute)
	s = newPackageSession(t, opts)
	mustRun(t, s, decl+"1")
	r, err = s.Run(context.Background(), "ghost.Bomb(50000)", nil)
	if err != nil || r.Success || r.ErrorName != ClassPanic || !strings.Contains(r.ErrorMessage, "too many goroutines") {
		t.Fatalf("a package starting 50,000 goroutines: %v %+v; want the cell's Panic at the limit", err, r)
	}
	r, err = s.Run(context.Background(), "ch := make(chan int)\n<-ch", nil)
	if err != nil || r.ErrorName != ClassDeadlock {
		t.Fatalf("a deadlock after the bomb: %v %+v", err, r)
	}
}
