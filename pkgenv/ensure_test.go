package pkgenv

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/note"

	"github.com/sbirtools/sbir-kernel/pkgenv/pkgenvtest"
)

// fixtureModules is the module world the tests install from.
func fixtureModules() []testModule {
	sum := `package numbers

// Sum adds xs.
func Sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}
`
	return []testModule{
		{Path: "example.com/numbers", Version: "v1.0.0", Files: map[string]string{"numbers.go": sum}},
		{Path: "example.com/numbers", Version: "v1.1.0", Files: map[string]string{"numbers.go": sum + `
// Max returns the largest of xs.
func Max(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}
`}},
		{Path: "example.com/testonly", Version: "v1.0.0", Files: map[string]string{"t.go": "package testonly\n\nconst X = 1\n"}},
		{
			Path: "example.com/stats", Version: "v1.0.0",
			Requires: []string{"example.com/numbers v1.0.0", "example.com/testonly v1.0.0"},
			Files: map[string]string{
				"stats.go": `package stats

import (
	"example.com/numbers"
	"example.com/stats/internal/check"
)

// Mean is the arithmetic mean of xs.
func Mean(xs []float64) float64 {
	check.NonEmpty(len(xs))
	return numbers.Sum(xs) / float64(len(xs))
}
`,
				"internal/check/check.go": "package check\n\n// NonEmpty panics on n == 0.\nfunc NonEmpty(n int) {\n\tif n == 0 {\n\t\tpanic(\"empty\")\n\t}\n}\n",
				"stats_test.go":           "package stats\n\nimport _ \"example.com/testonly\"\n",
				"cmd/statstool/main.go":   "package main\n\nimport \"os\"\n\nfunc main() { os.Exit(0) }\n",
				"testdata/broken.go":      "package broken\n\nimport \"example.com/nowhere\"\n",
			},
		},
		{
			Path: "example.com/textutil", Version: "v0.2.0",
			Requires: []string{"example.com/numbers v1.1.0"},
			Files: map[string]string{"text.go": `package textutil

import (
	"strings"

	"example.com/numbers"
)

// Longest returns the length of the longest word.
func Longest(s string) float64 {
	var n []float64
	for _, w := range strings.Fields(s) {
		n = append(n, float64(len(w)))
	}
	return numbers.Max(n)
}
`},
		},
		{Path: "example.com/osuser", Version: "v1.0.0", Files: map[string]string{
			"osuser.go": "package osuser\n\nimport \"os\"\n\n// Home is the home directory.\nfunc Home() string { return os.Getenv(\"HOME\") }\n",
		}},
		{Path: "example.com/cgouser", Version: "v1.0.0", Files: map[string]string{
			"pure.go":          "package cgouser\n\n// Two is 2.\nconst Two = 2\n",
			"native/native.go": "package native\n\n// int add(int a, int b) { return a + b; }\nimport \"C\"\n\n// Add adds.\nfunc Add(a, b int) int { return int(C.add(C.int(a), C.int(b))) }\n",
		}},
		{Path: "example.com/platform", Version: "v1.0.0", Files: map[string]string{
			"unix.go":    "//go:build !windows\n\npackage platform\n\n// Sep is the path separator.\nconst Sep = \"/\"\n",
			"windows.go": "//go:build windows\n\npackage platform\n\nimport \"syscall\"\n\n// Page is the page size.\nvar Page = syscall.Getpagesize()\n",
		}},
		{Path: "example.com/usesplatform", Version: "v1.0.0", Requires: []string{"example.com/platform v1.0.0"}, Files: map[string]string{
			"u.go":         "package usesplatform\n\nimport \"example.com/platform\"\n\n// Sep is platform.Sep.\nconst Sep = platform.Sep\n",
			"pure/pure.go": "package pure\n\n// One is 1.\nconst One = 1\n",
		}},
		{Path: "example.com/nest", Version: "v1.0.0", Files: map[string]string{
			"nest.go": "package nest\n\n// V is 1.\nconst V = 1\n",
		}},
		{Path: "example.com/nest/v2", Version: "v2.0.0", Requires: []string{"example.com/nest v1.0.0"}, Files: map[string]string{
			"nest.go": "package nest\n\nimport v1 \"example.com/nest\"\n\n// V is 2.\nconst V = v1.V + 1\n",
		}},
		{Path: "example.com/renamed", Version: "v1.0.0", DeclaredPath: "example.com/original", Files: map[string]string{"r.go": "package renamed\n"}},
		{Path: "example.com/newgo", Version: "v1.0.0", GoVersion: "1.99", Files: map[string]string{"n.go": "package newgo\n"}},
		{Path: "example.com/big", Version: "v1.0.0", Files: map[string]string{
			"big.go": "package big\n\n// Data is large.\nconst Data = \"" + strings.Repeat("x", 300<<10) + "\"\n",
		}},
		{Path: "example.com/chain/a", Version: "v1.0.0", Requires: []string{"example.com/chain/b v1.0.0"}, Files: map[string]string{
			"a.go": "package a\n\nimport \"example.com/chain/b\"\n\n// A is B.\nconst A = b.B\n",
		}},
		{Path: "example.com/chain/b", Version: "v1.0.0", Requires: []string{"example.com/chain/c v1.0.0"}, Files: map[string]string{
			"b.go": "package b\n\nimport \"example.com/chain/c\"\n\n// B is C.\nconst B = c.C\n",
		}},
		{Path: "example.com/chain/c", Version: "v1.0.0", Files: map[string]string{"c.go": "package c\n\n// C is 3.\nconst C = 3\n"}},
	}
}

// fixture returns the fixture module path@vers.
func fixture(t testing.TB, path, vers string) testModule {
	t.Helper()
	for _, m := range fixtureModules() {
		if m.Path == path && m.Version == vers {
			return m
		}
	}
	t.Fatalf("no fixture module %s@%s", path, vers)
	return testModule{}
}

func req(path, vers string) Requirement { return Requirement{Path: path, Version: vers} }

var (
	reqStats    = req("example.com/stats", "v1.0.0")
	reqTextutil = req("example.com/textutil", "v0.2.0")
	reqNumbers  = req("example.com/numbers", "v1.0.0")
)

// testOptions returns Options for installing from tp into a fresh cache.
func testOptions(t testing.TB, tp *testProxy) Options {
	return Options{
		Dir:           t.TempDir(),
		Proxy:         tp.URL,
		SumDBKey:      tp.SumDBKey,
		AllowInstall:  true,
		KernelVersion: "test",
		Preflight:     yaegiPreflight(nil),
	}
}

func TestEnsureInstallsAndReuses(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	var progress strings.Builder
	opts.Progress = &progress
	ctx := context.Background()

	env, err := Ensure(ctx, []Requirement{reqTextutil, reqStats}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if !env.Installed {
		t.Error("first Ensure: Installed = false, want true")
	}
	// Minimal version selection: textutil needs numbers v1.1.0, stats v1.0.0.
	wantMods := []module.Version{
		{Path: "example.com/numbers", Version: "v1.1.0"},
		{Path: "example.com/stats", Version: "v1.0.0"},
		{Path: "example.com/textutil", Version: "v0.2.0"},
	}
	if got := describe(env.Modules); got != describe(wantMods) {
		t.Errorf("Modules = %s, want %s", got, describe(wantMods))
	}
	if got, want := strings.Join(env.Packages, " "), "example.com/stats example.com/textutil"; got != want {
		t.Errorf("Packages = %q, want %q (no internal or main packages)", got, want)
	}
	if len(env.Problems) != 0 {
		t.Errorf("Problems = %v, want none", env.Problems)
	}
	// testonly is required by stats' go.mod but only imported by a test:
	// like the go command, the install never downloads it.
	if n := tp.ZipHits(module.Version{Path: "example.com/testonly", Version: "v1.0.0"}); n != 0 {
		t.Errorf("testonly zip downloaded %d times, want 0", n)
	}
	if !strings.Contains(progress.String(), "go: downloading example.com/numbers v1.1.0\n") {
		t.Errorf("progress = %q, want a go: downloading line for numbers", progress.String())
	}
	src := filepath.Join(env.SrcDir(), "example.com", "numbers", "numbers.go")
	data, err := os.ReadFile(src)
	if err != nil || !strings.Contains(string(data), "func Max") {
		t.Fatalf("reading %s: %v (want numbers v1.1.0 with Max)", src, err)
	}
	// Read-only, and readable by a worker running as another user.
	for path, want := range map[string]os.FileMode{src: 0o444, filepath.Dir(src): 0o555, env.SrcDir(): 0o555, env.Dir: 0o755} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("mode of %s = %v (%v), want %v", path, fi.Mode().Perm(), err, want)
		}
	}

	// A second session asking for the same set (in any order) shares it
	// without touching the proxy, even with the gate closed.
	before := tp.Hits()
	opts.AllowInstall = false
	env2, err := Ensure(ctx, []Requirement{reqStats, reqTextutil}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env2.Close()
	if env2.Installed || env2.Dir != env.Dir {
		t.Errorf("second Ensure: Installed=%v Dir=%s, want a cache hit on %s", env2.Installed, env2.Dir, env.Dir)
	}
	if after := tp.Hits(); after != before {
		t.Errorf("cache hit made %d proxy requests, want 0", after-before)
	}
}

func TestEnsureFileProxy(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	opts.Proxy = tp.FileURL(t)
	env, err := Ensure(context.Background(), []Requirement{reqStats}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if got, want := describe(env.Modules), "example.com/numbers@v1.0.0, example.com/stats@v1.0.0"; got != want {
		t.Errorf("Modules = %s, want %s", got, want)
	}
	if tp.Hits() != 0 {
		t.Errorf("file:// install made %d HTTP requests, want 0", tp.Hits())
	}
}

func TestEnsureGateClosed(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	opts.AllowInstall = false
	_, err := Ensure(context.Background(), []Requirement{reqStats}, opts)
	if !errors.Is(err, ErrInstallsDisabled) {
		t.Fatalf("Ensure with the gate closed: err = %v, want ErrInstallsDisabled", err)
	}
	for _, want := range []string{"installs are disabled on this server", "example.com/stats@v1.0.0", "--allow-packages"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if n := tp.Hits(); n != 0 {
		t.Errorf("gate closed: %d proxy requests, want 0", n)
	}
	assertNothingCached(t, opts.Dir)
}

// assertNothingCached checks that no environment was published and no
// install left files behind.
func assertNothingCached(t *testing.T, dir string) {
	t.Helper()
	entries, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("cache holds %d environments, want none", len(entries))
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, tmpDir)); len(ents) != 0 {
		t.Errorf("tmp/ holds %d entries after a failed install, want none", len(ents))
	}
}

// ensureRefusal is an install Ensure must refuse, and the error it
// must give.
type ensureRefusal struct {
	name    string
	reqs    []Requirement
	setup   func(*testing.T, *testProxy, *Options)
	is      error
	wantErr []string
}

func TestEnsureRefuses(t *testing.T) {
	var tests []ensureRefusal
	for _, cases := range [][]ensureRefusal{ensureVerificationRefusals(), ensureLimitRefusals(), ensureContentRefusals()} {
		tests = append(tests, cases...)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp := newTestProxy(t, fixtureModules()...)
			opts := testOptions(t, tp)
			if tc.setup != nil {
				tc.setup(t, tp, &opts)
			}
			env, err := Ensure(context.Background(), tc.reqs, opts)
			if err == nil {
				env.Close()
				t.Fatalf("Ensure succeeded, want an error containing %q", tc.wantErr)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error:\n%v\nwant it to contain %q", err, want)
				}
			}
		})
	}
}

// ensureVerificationRefusals are modules whose content, go.mod or checksum database cannot be verified: nothing is installed from a proxy that lies.
func ensureVerificationRefusals() []ensureRefusal {
	return []ensureRefusal{
		{
			name: "checksum mismatch",
			reqs: []Requirement{reqStats},
			setup: func(t *testing.T, tp *testProxy, _ *Options) {
				m := fixture(t, "example.com/numbers", "v1.0.0")
				m.Files = map[string]string{"numbers.go": "package numbers\n\nfunc Sum(xs []float64) float64 { return 42 }\n"}
				tp.Tamper(t, m)
			},
			is:      ErrChecksumMismatch,
			wantErr: []string{"go: example.com/numbers@v1.0.0: verifying module: checksum mismatch", "downloaded: h1:", pkgenvtest.SumDBName + ": h1:", "SECURITY ERROR"},
		},
		{
			name: "go.mod checksum mismatch",
			reqs: []Requirement{reqStats},
			setup: func(t *testing.T, tp *testProxy, _ *Options) {
				m := fixture(t, "example.com/stats", "v1.0.0")
				m.Requires = append(m.Requires, "example.com/big v1.0.0")
				tp.Tamper(t, m)
			},
			is:      ErrChecksumMismatch,
			wantErr: []string{"go: example.com/stats@v1.0.0: verifying go.mod: checksum mismatch"},
		},
		{
			name:    "module path mismatch",
			reqs:    []Requirement{req("example.com/renamed", "v1.0.0")},
			wantErr: []string{"go: example.com/renamed@v1.0.0: parsing go.mod:\n\tmodule declares its path as: example.com/original\n\t        but was required as: example.com/renamed"},
		},
		{
			name:  "proxy without checksum database",
			reqs:  []Requirement{reqStats},
			setup: func(t *testing.T, tp *testProxy, _ *Options) { tp.DisableSumDB() },
			wantErr: []string{"go: example.com/stats@v1.0.0: verifying go.mod: ", "/sumdb/sumdb.test/lookup/example.com/stats@v1.0.0: 404 Not Found",
				"the module proxy must serve the checksum database at http://127.0.0.1:", "/sumdb/sumdb.test/ (it is never contacted directly)"},
		},
		{
			name: "checksum database signed by another key",
			reqs: []Requirement{reqStats},
			setup: func(t *testing.T, _ *testProxy, o *Options) {
				_, vkey, err := note.GenerateKey(rand.Reader, pkgenvtest.SumDBName)
				if err != nil {
					t.Fatal(err)
				}
				o.SumDBKey = vkey
			},
			wantErr: []string{"go: example.com/stats@v1.0.0: verifying go.mod: ", "reading tree note: note has no verifiable signatures"},
		},
	}
}

// ensureLimitRefusals are installs past this server's limits: size, module count, time.
func ensureLimitRefusals() []ensureRefusal {
	return []ensureRefusal{
		{
			name:    "over size",
			reqs:    []Requirement{req("example.com/big", "v1.0.0")},
			setup:   func(t *testing.T, _ *testProxy, o *Options) { o.Limits.MaxBytes = 100 << 10 },
			is:      ErrLimit,
			wantErr: []string{"go: example.com/big@v1.0.0: the packages would unpack to more than 100 KiB, this server's limit"},
		},
		{
			name:    "over count",
			reqs:    []Requirement{req("example.com/chain/a", "v1.0.0")},
			setup:   func(t *testing.T, _ *testProxy, o *Options) { o.Limits.MaxModules = 2 },
			is:      ErrLimit,
			wantErr: []string{"go: example.com/chain/c@v1.0.0: the packages need more than 2 modules, this server's limit"},
		},
		{
			name: "timeout",
			reqs: []Requirement{reqStats},
			setup: func(t *testing.T, tp *testProxy, o *Options) {
				tp.SetZipDelay(10 * time.Second)
				o.Limits.InstallTimeout = 300 * time.Millisecond
			},
			is:      ErrLimit,
			wantErr: []string{"go: installing example.com/stats@v1.0.0 took longer than 300ms, this server's limit; nothing was installed"},
		},
	}
}

// ensureContentRefusals are modules that cannot be used: a newer Go, missing, or no package cells may import.
func ensureContentRefusals() []ensureRefusal {
	return []ensureRefusal{
		{
			name:    "newer go",
			reqs:    []Requirement{req("example.com/newgo", "v1.0.0")},
			wantErr: []string{"go: example.com/newgo@v1.0.0 requires go >= 1.99 (running go ", "; GOTOOLCHAIN=local)"},
		},
		{
			name:    "unknown module",
			reqs:    []Requirement{req("example.com/missing", "v1.0.0")},
			wantErr: []string{"go: example.com/missing@v1.0.0: reading http://127.0.0.1:", "/example.com/missing/@v/v1.0.0.mod: 404 Not Found"},
		},
		{
			name: "package importing os",
			reqs: []Requirement{req("example.com/osuser", "v1.0.0")},
			wantErr: []string{"go: example.com/osuser@v1.0.0: no package of this module can be used in cells:",
				"example.com/osuser: imports os, which cells may not use"},
		},
		{
			name: "go:build constraints",
			reqs: []Requirement{req("example.com/platform", "v1.0.0")},
			wantErr: []string{"go: example.com/platform@v1.0.0: no package of this module can be used in cells:",
				"example.com/platform: imports syscall, which cells may not use (note: the interpreter ignores //go:build lines and honours only // +build, so it also loaded unix.go, windows.go)"},
		},
	}
}

func TestEnsureFailuresCacheNothing(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	opts.Limits.MaxModules = 2
	if _, err := Ensure(context.Background(), []Requirement{req("example.com/chain/a", "v1.0.0")}, opts); err == nil {
		t.Fatal("Ensure succeeded over the module limit")
	}
	assertNothingCached(t, opts.Dir)
}

func TestEnsurePreflightVerdictIsCached(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	calls := 0
	opts.Preflight = yaegiPreflight(&calls)
	reqs := []Requirement{req("example.com/osuser", "v1.0.0")}
	_, err1 := Ensure(context.Background(), reqs, opts)
	_, err2 := Ensure(context.Background(), reqs, opts)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("errors = %v / %v, want the same pre-flight failure twice", err1, err2)
	}
	if calls != 1 {
		t.Errorf("pre-flight ran %d times, want 1 (the verdict is cached with the environment)", calls)
	}
}

func TestEnsureCgoPackage(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	env, err := Ensure(context.Background(), []Requirement{req("example.com/cgouser", "v1.0.0")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if got := env.Problem("example.com/cgouser/native"); !strings.Contains(got, `uses cgo (import "C" in native.go)`) {
		t.Errorf("Problem(native) = %q, want the cgo reason", got)
	}
	err = env.CheckImports([]string{"fmt", "example.com/cgouser", "example.com/cgouser/native"})
	if err == nil || !strings.Contains(err.Error(), "package example.com/cgouser/native cannot be used in cells: uses cgo") {
		t.Errorf("CheckImports = %v, want the cgo package refused", err)
	}
	if err := env.CheckImports([]string{"fmt", "example.com/cgouser"}); err != nil {
		t.Errorf("CheckImports(pure package) = %v, want nil", err)
	}
}

func TestCheckImportsUndeclared(t *testing.T) {
	var env *Env
	if err := env.CheckImports([]string{"fmt", "strings"}); err != nil {
		t.Errorf("nil Env, stdlib imports: %v", err)
	}
	err := env.CheckImports([]string{"github.com/montanaflynn/stats/internal"})
	want := "package github.com/montanaflynn/stats/internal is not in this session's packages; declare its module first, e.g. //sbir:require github.com/montanaflynn/stats vX.Y.Z"
	if err == nil || err.Error() != want {
		t.Errorf("CheckImports = %v\nwant %s", err, want)
	}
}

func TestEnsureRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		reqs []Requirement
		want string
	}{
		{"no dir", Options{}, []Requirement{reqStats}, "Options.Dir is empty"},
		{"no requirements", Options{Dir: "x"}, nil, "no requirements"},
		{"direct", Options{Proxy: "direct", AllowInstall: true}, []Requirement{reqStats}, "GOPROXY=direct is not supported"},
		{"list", Options{Proxy: "https://a.example,direct", AllowInstall: true}, []Requirement{reqStats}, "give one proxy URL"},
		{"scheme", Options{Proxy: "ftp://a.example", AllowInstall: true}, []Requirement{reqStats}, "use https://, http:// or file://"},
		{"no preflight", Options{AllowInstall: true}, []Requirement{reqStats}, "Options.Preflight is nil"},
		{"bad version", Options{Dir: "x"}, []Requirement{req("example.com/m", "latest")}, "invalid version: not a semantic version"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opts.Dir == "" && tc.name != "no dir" {
				tc.opts.Dir = t.TempDir()
			}
			if tc.opts.Preflight == nil && tc.name != "no preflight" {
				tc.opts.Preflight = yaegiPreflight(nil)
			}
			_, err := Ensure(context.Background(), tc.reqs, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Ensure = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
