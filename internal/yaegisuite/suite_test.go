package yaegisuite

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	full      = flag.Bool("yaegisuite.full", false, "run upstream's tests without -short (TestInterpConsistencyBuild builds every _test program with gc: about 8 minutes per tree)")
	writeList = flag.Bool("yaegisuite.known", false, "rewrite third_party/yaegi/UPSTREAM_FAILURES from today's results, keeping the causes already written")
)

var (
	patchedDir    = filepath.Join("..", "..", "third_party", "yaegi")
	knownPath     = filepath.Join(patchedDir, "UPSTREAM_FAILURES")
	patchesMDPath = filepath.Join(patchedDir, "PATCHES.md")
)

const knownHeader = `# Tests of upstream yaegi v0.16.1 (go test -short ./interp, with each _test program a subtest of
# TestFile) that do not pass on the patched copy: "<test> <fail|refuses> <cause>". "refuses": an
# "// Error:" program that gc refuses too, refused here with another message (it counts as a
# pass). A cause starts with "regression:" when the test fails and v0.16.1 passes it.
# internal/yaegisuite's TestUpstreamSuite keeps this list true; -yaegisuite.known rewrites it,
# keeping the causes written here.
`

// TestUpstreamSuite runs upstream yaegi's tests on v0.16.1 and on the
// patched copy and compares them (see doc.go). Running both trees takes
// about a minute and a half on two loaded cores.
func TestUpstreamSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs upstream yaegi's tests twice")
	}
	goBin := goCommand(t)
	ctx := context.Background()
	scratch := t.TempDir()
	upstream, err := Download(ctx, goBin, scratch)
	if err != nil {
		if os.Getenv("SBIR_E2E") == "1" {
			t.Fatal(err)
		}
		t.Skipf("upstream yaegi is not available (SBIR_E2E=1 makes this an error): %v", err)
	}
	up, pa, err := BuildTrees(upstream, patchedDir, scratch)
	if err != nil {
		t.Fatal(err)
	}
	modCache, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	opts := TestOptions{GoBin: goBin, ModCache: strings.TrimSpace(string(modCache)), Full: *full, Timeout: 25 * time.Minute}

	var verdicts [2]map[string]Verdict
	var runs [2]*Run
	var errs [2]error
	var wg sync.WaitGroup
	for i, tree := range []Tree{up, pa} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			run, err := tree.Test(ctx, opts)
			if err != nil {
				errs[i] = err
				return
			}
			runs[i] = run
			verdicts[i], errs[i] = Judge(run, func(name string) (GoRun, error) { return tree.GoRun(ctx, goBin, name) })
			t.Logf("%s: go test ./interp and judging took %v", tree.Name, time.Since(start).Round(time.Second))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	upV, paV := verdicts[0], verdicts[1]
	summary := Summary(upV, paV)
	t.Log(summary)

	text, err := os.ReadFile(knownPath)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	known, err := ParseKnown(string(text))
	if err != nil {
		t.Fatalf("%s: %v", knownPath, err)
	}
	if *writeList {
		if err := os.WriteFile(knownPath, []byte(FormatKnown(knownHeader, upV, paV, known)), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", knownPath)
		return
	}
	for _, p := range Check(upV, paV, known) {
		t.Error(p)
	}
	if *full {
		compareWithGc(t, ctx, goBin, up, pa, runs, known)
		return // PATCHES.md records the -short run
	}
	md, err := os.ReadFile(patchesMDPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(squeeze(string(md)), summary) {
		t.Errorf("%s does not carry today's numbers; replace its summary of upstream's tests with:\n\n%s", patchesMDPath, summary)
	}
}

// squeeze turns every run of white space into one space, so that the
// summary may be wrapped in PATCHES.md.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

func goCommand(t *testing.T) string {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err == nil {
		return goBin
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return p
}

// compareWithGc is the full run's comparison of every program with gc
// (AgainstGc) on both trees. A program that v0.16.1 runs as gc does and
// the patched copy does not is an error, unless UPSTREAM_FAILURES lists it.
func compareWithGc(t *testing.T, ctx context.Context, goBin string, up, pa Tree, runs [2]*Run, known map[string]Known) {
	var mu sync.Mutex
	cache := map[string]GoRun{}
	goRun := func(tree Tree) func(string) (GoRun, error) {
		return func(name string) (GoRun, error) {
			src, err := os.ReadFile(filepath.Join(tree.Root, "_test", name))
			if err != nil {
				return GoRun{}, err
			}
			// A program built with yaegi itself runs the tree's yaegi.
			shared := !strings.Contains(string(src), Module)
			mu.Lock()
			r, ok := cache[name]
			mu.Unlock()
			if ok && shared {
				return r, nil
			}
			r, err = tree.GoRun(ctx, goBin, name)
			if err == nil && shared {
				mu.Lock()
				cache[name] = r
				mu.Unlock()
			}
			return r, err
		}
	}
	upV, err := AgainstGc(runs[0], goRun(up))
	if err != nil {
		t.Fatal(err)
	}
	paV, err := AgainstGc(runs[1], goRun(pa))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("_test programs with an Output block that behave exactly as gc runs them (stdout, stderr, exit): v0.16.1 %d of %d, the patched copy %d",
		Counts(upV, IsProgram)[AsGc], len(upV), Counts(paV, IsProgram)[AsGc])
	for _, test := range sortedKeys(paV) {
		v := paV[test]
		if v.Class == AsGc {
			continue
		}
		if _, listed := known[test]; upV[test].Class == AsGc && !listed {
			t.Errorf("%s: v0.16.1 runs it as gc does, the patched copy does not: %s", test, v.Detail)
		} else {
			t.Logf("%s differs from gc: %s", test, v.Detail)
		}
	}
}
