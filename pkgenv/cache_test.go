package pkgenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// installAll installs each requirement set into opts.Dir and closes the
// environments, returning their directories in order.
func installAll(t *testing.T, opts Options, sets ...[]Requirement) []*Env {
	t.Helper()
	var envs []*Env
	for _, s := range sets {
		env, err := Ensure(context.Background(), s, opts)
		if err != nil {
			t.Fatal(err)
		}
		env.Close()
		envs = append(envs, env)
	}
	return envs
}

// setLastUsed backdates an environment's LRU clock.
func setLastUsed(t *testing.T, env *Env, ago time.Duration) {
	t.Helper()
	when := time.Now().Add(-ago)
	if err := os.Chtimes(filepath.Join(env.Dir, stampName), when, when); err != nil {
		t.Fatal(err)
	}
}

func TestPruneEvictsLeastRecentlyUsed(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	envs := installAll(t, opts, []Requirement{reqNumbers}, []Requirement{reqStats}, []Requirement{reqTextutil})
	numbers, stats, textutil := envs[0], envs[1], envs[2]
	setLastUsed(t, numbers, 3*time.Hour)
	setLastUsed(t, stats, 2*time.Hour)
	setLastUsed(t, textutil, time.Hour)

	entries, err := List(opts.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 || entries[0].Key != numbers.Key || entries[2].Key != textutil.Key {
		t.Fatalf("List = %+v, want numbers, stats, textutil (least recently used first)", entries)
	}
	if e := entries[1]; e.Size != stats.Size || e.Modules != 2 || e.InUse || e.Broken != "" ||
		len(e.Requirements) != 1 || e.Requirements[0].Path != "example.com/stats" {
		t.Errorf("List entry for stats = %+v", e)
	}

	// A budget that fits the two most recent evicts only the oldest.
	rep, err := Prune(opts.Dir, stats.Size+textutil.Size)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) != 1 || rep.Removed[0].Key != numbers.Key || rep.Freed != numbers.Size || rep.Kept != 2 {
		t.Errorf("Prune = %+v, want numbers evicted", rep)
	}
	if _, err := os.Stat(numbers.Dir); !os.IsNotExist(err) {
		t.Errorf("%s survives eviction (%v)", numbers.Dir, err)
	}

	// An environment in use is never evicted, however old.
	held, err := Ensure(context.Background(), []Requirement{reqStats}, opts)
	if err != nil {
		t.Fatal(err)
	}
	setLastUsed(t, held, 5*time.Hour)
	rep, err = Prune(opts.Dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) != 1 || rep.Removed[0].Key != textutil.Key || rep.Busy != 1 || rep.Kept != 1 {
		t.Errorf("Prune(0) with stats in use = %+v, want textutil evicted and stats kept", rep)
	}
	if _, err := os.Stat(filepath.Join(held.SrcDir(), "example.com", "stats", "stats.go")); err != nil {
		t.Errorf("the environment in use lost its files: %v", err)
	}
	held.Close()
	if rep, err := Prune(opts.Dir, 0); err != nil || len(rep.Removed) != 1 {
		t.Errorf("Prune(0) after Close = %+v, %v, want stats evicted", rep, err)
	}
	// An evicted set is installed again on demand.
	env, err := Ensure(context.Background(), []Requirement{reqStats}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if !env.Installed {
		t.Error("Ensure after eviction: Installed = false, want a reinstall")
	}
}

func TestEnsureEvictsPastBudget(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	opts.Limits.Budget = 1 // every install evicts all others not in use
	inUse, err := Ensure(context.Background(), []Requirement{reqNumbers}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer inUse.Close()
	old := installAll(t, opts, []Requirement{reqStats})[0]
	setLastUsed(t, old, time.Hour)
	latest, err := Ensure(context.Background(), []Requirement{reqTextutil}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer latest.Close()
	entries, err := List(opts.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		got[e.Key] = true
	}
	if got[old.Key] || !got[inUse.Key] || !got[latest.Key] || len(entries) != 2 {
		t.Errorf("after an install over budget the cache holds %+v; want the old set evicted, the set in use and the new one kept", entries)
	}
}

func TestListReportsBrokenEnvironments(t *testing.T) {
	dir := t.TempDir()
	key := "0123"
	if err := os.MkdirAll(filepath.Join(dir, envsDir, key, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, envsDir, key, "src", "x.go"), []byte("package x\n"))
	entries, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Broken == "" || entries[0].Size != 10 {
		t.Fatalf("List = %+v, want one broken entry of 10 bytes", entries)
	}
	rep, err := Prune(dir, 1<<40)
	if err != nil || len(rep.Removed) != 1 {
		t.Fatalf("Prune = %+v, %v, want the broken entry removed whatever the budget", rep, err)
	}
}

func TestListEmptyCache(t *testing.T) {
	entries, err := List(filepath.Join(t.TempDir(), "nothing-here"))
	if err != nil || len(entries) != 0 {
		t.Errorf("List(missing dir) = %v, %v; want empty, nil", entries, err)
	}
}

func TestEnsureReplacesBrokenEnvironment(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	env := installAll(t, opts, []Requirement{reqNumbers})[0]
	manifestPath := filepath.Join(env.Dir, manifestName)
	os.Chmod(manifestPath, 0o644)
	writeFile(t, manifestPath, []byte("{not json"))
	again, err := Ensure(context.Background(), []Requirement{reqNumbers}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if !again.Installed || again.Dir != env.Dir {
		t.Errorf("Ensure over a broken manifest: Installed=%v Dir=%s, want a reinstall in %s", again.Installed, again.Dir, env.Dir)
	}
}

func TestProblemsInDependencies(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	env, err := Ensure(context.Background(), []Requirement{req("example.com/usesplatform", "v1.0.0")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if got, want := strings.Join(env.Packages, " "), "example.com/usesplatform/pure"; got != want {
		t.Errorf("Packages = %q, want %q", got, want)
	}
	sum := env.ProblemSummary()
	for _, want := range []string{
		"go: some packages cannot be used in cells:\n\texample.com/usesplatform: ",
		"(note: the interpreter ignores //go:build lines and honours only // +build, so it also loaded example.com/platform: unix.go, windows.go)",
	} {
		if !strings.Contains(sum, want) {
			t.Errorf("ProblemSummary:\n%s\nwant it to contain %q", sum, want)
		}
	}
	err = env.CheckImports([]string{"example.com/usesplatform"})
	if err == nil || !strings.Contains(err.Error(), "package example.com/usesplatform cannot be used in cells: ") {
		t.Errorf("CheckImports = %v, want the recorded reason", err)
	}
}

func TestMentionsPackage(t *testing.T) {
	tests := []struct {
		msg, ip string
		want    bool
	}{
		{`import "a.example/x/internal/language" error: found packages`, "a.example/x/internal/language", true},
		{`src/a.example/x/internal/language/coverage.go:11:2: bad`, "a.example/x/internal/language", true},
		{`src/a.example/x/internal/language/coverage.go:11:2: bad`, "a.example/x/internal", false},
		{`(at a.example/x/lang/a.go:5:8)`, "a.example/x/lang", true},
		{`(at b.a.example/x/lang/a.go:5:8)`, "a.example/x/lang", false},
		{`found packages language and main in src/a.example/x/lang`, "a.example/x/lang", true},
		{`found packages language and main in src/a.example/x/language`, "a.example/x/lang", false},
		{`nothing here`, "a.example/x", false},
	}
	for _, tc := range tests {
		if got := mentionsPackage(tc.msg, tc.ip); got != tc.want {
			t.Errorf("mentionsPackage(%q, %q) = %v, want %v", tc.msg, tc.ip, got, tc.want)
		}
	}
}

func TestNestedModulesShareATree(t *testing.T) {
	// example.com/nest/v2 is unpacked first (it is requested) and imports
	// example.com/nest, whose tree then has to merge around it.
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	env, err := Ensure(context.Background(), []Requirement{req("example.com/nest/v2", "v2.0.0")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	for _, f := range []string{"example.com/nest/nest.go", "example.com/nest/v2/nest.go"} {
		if _, err := os.Stat(filepath.Join(env.SrcDir(), filepath.FromSlash(f))); err != nil {
			t.Errorf("%s missing: %v", f, err)
		}
	}
	if got, want := strings.Join(env.Packages, " "), "example.com/nest/v2"; got != want {
		t.Errorf("Packages = %q, want %q", got, want)
	}
}

func TestMoveIntoConflict(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	for _, d := range []string{src, dst} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(d, "sub", "x.go"), []byte("package sub\n"))
	}
	writeFile(t, filepath.Join(src, "sub", "y.go"), []byte("package sub\n"))
	err := moveInto(src, dst)
	if err == nil || !strings.Contains(err.Error(), "x.go is provided by two modules") {
		t.Errorf("moveInto = %v, want a conflict on x.go", err)
	}
}

func TestCheckImports(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	env, err := Ensure(context.Background(), []Requirement{reqStats, req("example.com/cgouser", "v1.0.0")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	tests := []struct {
		imp  string
		want string // "" for allowed
	}{
		{"fmt", ""},
		{"os", ""}, // the sandbox's allow-list decides about the standard library
		{"example.com/stats", ""},
		{"example.com/cgouser", ""},
		{"example.com/cgouser/native", `package example.com/cgouser/native cannot be used in cells: uses cgo (import "C" in native.go), which the interpreter cannot run`},
		{"example.com/stats/internal/check", "package example.com/stats/internal/check is internal to example.com/stats and cannot be imported"},
		{"example.com/stats/sttas", "package example.com/stats/sttas is not an importable package of example.com/stats@v1.0.0; it has example.com/stats"},
		{"example.com/numbers", "package example.com/numbers belongs to example.com/numbers v1.0.0, a dependency of the declared modules; to import it directly, declare it: //sbir:require example.com/numbers v1.0.0"},
		{"github.com/other/pkg/sub", "package github.com/other/pkg/sub is not in this session's packages; declare its module first, e.g. //sbir:require github.com/other/pkg vX.Y.Z"},
	}
	for _, tc := range tests {
		err := env.CheckImports([]string{tc.imp})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckImports(%q) = %q\nwant %q", tc.imp, got, tc.want)
		}
	}
}
