package pkgenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/mod/module"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// The tests below run Ensure in real separate processes: the test binary
// re-executed with PKGENV_HELPER set runs TestHelperProcess only.

type helperResult struct {
	Dir       string `json:"dir"`
	Installed bool   `json:"installed"`
	Err       string `json:"err"`
}

// TestHelperProcess is not a test: it is the child process of the
// multi-process tests.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("PKGENV_HELPER") != "ensure" {
		t.Skip("helper process for the multi-process tests")
	}
	var reqs []Requirement
	for _, r := range strings.Split(os.Getenv("PKGENV_REQS"), ",") {
		p, v, _ := strings.Cut(r, "@")
		reqs = append(reqs, req(p, v))
	}
	opts := Options{
		Dir:           os.Getenv("PKGENV_DIR"),
		Proxy:         os.Getenv("PKGENV_PROXY"),
		SumDBKey:      os.Getenv("PKGENV_SUMDB"),
		AllowInstall:  os.Getenv("PKGENV_ALLOW") == "1",
		KernelVersion: "test",
		Preflight: func(ctx context.Context, gopath string, pkgs []string) ([]PackageProblem, error) {
			if marker := os.Getenv("PKGENV_BLOCK"); marker != "" {
				// Tell the parent the install is in pre-flight (everything
				// unpacked, not yet published), then wait to be killed.
				os.WriteFile(marker, []byte(gopath), 0o644)
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return nil, nil
		},
	}
	env, err := Ensure(context.Background(), reqs, opts)
	var res helperResult
	if err != nil {
		res.Err = err.Error()
	} else {
		res.Dir, res.Installed = env.Dir, env.Installed
		env.Close()
	}
	json.NewEncoder(os.Stdout).Encode(res)
	os.Exit(0)
}

// helperCmd returns a child process that runs Ensure for reqs.
func helperCmd(t *testing.T, tp *testProxy, dir string, allow bool, extraEnv []string, reqs ...Requirement) *exec.Cmd {
	t.Helper()
	var rs []string
	for _, r := range reqs {
		rs = append(rs, r.String())
	}
	allowVal := "0"
	if allow {
		allowVal = "1"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		"PKGENV_HELPER=ensure",
		"PKGENV_DIR="+dir,
		"PKGENV_PROXY="+tp.URL,
		"PKGENV_SUMDB="+tp.SumDBKey,
		"PKGENV_ALLOW="+allowVal,
		"PKGENV_REQS="+strings.Join(rs, ","),
	)
	cmd.Env = append(cmd.Env, extraEnv...)
	return cmd
}

func runHelper(t *testing.T, cmd *exec.Cmd) helperResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("helper process: %v\nstderr: %s", err, stderr.String())
	}
	return decodeHelper(t, stdout.Bytes(), stderr.String())
}

func decodeHelper(t *testing.T, out []byte, stderr string) helperResult {
	t.Helper()
	var res helperResult
	line := out
	if i := bytes.IndexByte(out, '{'); i >= 0 {
		line = out[i:]
	}
	if err := json.NewDecoder(bytes.NewReader(line)).Decode(&res); err != nil {
		t.Fatalf("helper output %q: %v\nstderr: %s", out, err, stderr)
	}
	return res
}

func TestSecondProcessUsesCache(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	env, err := Ensure(context.Background(), []Requirement{reqStats}, opts)
	if err != nil {
		t.Fatal(err)
	}
	env.Close()
	before := tp.Hits()
	// Another kernel process, with installs disabled, gets the cached set.
	res := runHelper(t, helperCmd(t, tp, opts.Dir, false, nil, reqStats))
	if res.Err != "" || res.Installed || res.Dir != env.Dir {
		t.Errorf("second process: %+v, want a cache hit on %s", res, env.Dir)
	}
	if n := tp.Hits() - before; n != 0 {
		t.Errorf("second process made %d proxy requests, want 0", n)
	}
}

func TestConcurrentProcessesBuildOnce(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	// Slow zips keep the first install running while the second process
	// starts and waits on the lock.
	tp.SetZipDelay(300 * time.Millisecond)
	dir := t.TempDir()
	const n = 3
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	errs := make([]*bytes.Buffer, n)
	for i := range cmds {
		cmds[i] = helperCmd(t, tp, dir, true, nil, reqStats, reqTextutil)
		outs[i], errs[i] = new(bytes.Buffer), new(bytes.Buffer)
		cmds[i].Stdout, cmds[i].Stderr = outs[i], errs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	installed := 0
	var dirs []string
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, errs[i])
		}
		res := decodeHelper(t, outs[i].Bytes(), errs[i].String())
		if res.Err != "" {
			t.Fatalf("process %d: %s", i, res.Err)
		}
		if res.Installed {
			installed++
		}
		dirs = append(dirs, res.Dir)
	}
	if installed != 1 {
		t.Errorf("%d processes installed the set, want exactly 1", installed)
	}
	for _, d := range dirs[1:] {
		if d != dirs[0] {
			t.Errorf("processes got different environments: %v", dirs)
		}
	}
	for _, m := range []module.Version{{Path: "example.com/stats", Version: "v1.0.0"}, {Path: "example.com/numbers", Version: "v1.1.0"}} {
		if got := tp.ZipHits(m); got != 1 {
			t.Errorf("%s zip downloaded %d times, want 1", m, got)
		}
	}
}

func TestKilledInstallLeavesNothingUsed(t *testing.T) {
	tp := newTestProxy(t, fixtureModules()...)
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "in-preflight")
	cmd := helperCmd(t, tp, dir, true, []string{"PKGENV_BLOCK=" + marker}, reqStats)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(testenv.Scale(30 * time.Second))
	var tmp []byte
	for {
		var err error
		if tmp, err = os.ReadFile(marker); err == nil && len(tmp) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the child never reached pre-flight\nstderr: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The install is fully unpacked in its temporary directory: kill -9.
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(string(tmp), "src", "example.com", "stats", "stats.go")); err != nil {
		t.Fatalf("the killed install's files are not where expected: %v", err)
	}

	// Nothing of it is used: with installs off the set is not cached.
	opts := Options{Dir: dir, Proxy: tp.URL, SumDBKey: tp.SumDBKey, KernelVersion: "test"}
	if _, err := Ensure(context.Background(), []Requirement{reqStats}, opts); err == nil || !strings.Contains(err.Error(), "installs are disabled") {
		t.Fatalf("after a killed install, Ensure without installs = %v, want not cached", err)
	}
	if entries, _ := List(dir); len(entries) != 0 {
		t.Fatalf("List after a killed install = %+v, want nothing", entries)
	}
	// The next install starts clean and removes the leftovers.
	opts.AllowInstall = true
	opts.Preflight = yaegiPreflight(nil)
	env, err := Ensure(context.Background(), []Requirement{reqStats}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if !env.Installed {
		t.Error("Ensure after a killed install: Installed = false, want a fresh install")
	}
	if _, err := os.Stat(string(tmp)); !os.IsNotExist(err) {
		t.Errorf("the killed install's directory %s still exists (%v)", tmp, err)
	}
}

func TestPruneRemovesInterruptedInstalls(t *testing.T) {
	dir := t.TempDir()
	key := fmt.Sprintf("%064x", 1)
	stale := filepath.Join(dir, tmpDir, key+".123")
	if err := os.MkdirAll(filepath.Join(stale, "src", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := makeReadOnly(filepath.Join(stale, "src")); err != nil {
		t.Fatal(err)
	}
	rep, err := Prune(dir, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Interrupted != 1 {
		t.Errorf("Interrupted = %d, want 1", rep.Interrupted)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s survives Prune (%v)", stale, err)
	}
}
