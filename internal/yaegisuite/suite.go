package yaegisuite

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Module and Version name the upstream release the patched copy is based on.
const (
	Module  = "github.com/traefik/yaegi"
	Version = "v0.16.1"
)

// recorder is the test file written into both trees (see doc.go).
//
//go:embed recorder.go.txt
var recorder []byte

// Download makes sure upstream's module is in the module cache (`go mod
// download`, through the proxy when it is not there yet) and returns its
// directory. It runs outside any module, so the main module's replace
// directive does not apply.
func Download(ctx context.Context, goBin, scratch string) (string, error) {
	cmd := exec.CommandContext(ctx, goBin, "mod", "download", "-json", Module+"@"+Version)
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GO111MODULE=on")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", Module, Version, info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v: %s", Module, Version, err, strings.TrimSpace(stderr.String()))
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s printed no directory: %s", Module, Version, out)
	}
	return info.Dir, nil
}

// Tree is one GOPATH holding a copy of yaegi where upstream's tests expect it.
type Tree struct {
	Name   string // "upstream" or "patched"
	GOPATH string
	Root   string // GOPATH/src/github.com/traefik/yaegi
}

// BuildTrees copies upstream (the module cache's directory of v0.16.1)
// into scratch twice, lays the non-test files of the patched copy over
// the second, and adds the recorder to both.
func BuildTrees(upstream, patched, scratch string) (up, pa Tree, err error) {
	up, err = copyTree("upstream", upstream, scratch)
	if err != nil {
		return up, pa, err
	}
	pa, err = copyTree("patched", upstream, scratch)
	if err != nil {
		return up, pa, err
	}
	err = filepath.WalkDir(patched, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !overlaid(d.Name()) {
			return err
		}
		rel, err := filepath.Rel(patched, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(pa.Root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	return up, pa, err
}

// overlaid reports whether a file of the patched copy replaces upstream's:
// the code (not the patches' own tests, which upstream's tree does not
// have, nor the copy's notes).
func overlaid(name string) bool {
	if strings.HasSuffix(name, "_test.go") {
		return false
	}
	return strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".s") || name == "go.mod"
}

func copyTree(name, src, scratch string) (Tree, error) {
	t := Tree{Name: name, GOPATH: filepath.Join(scratch, name)}
	t.Root = filepath.Join(t.GOPATH, "src", filepath.FromSlash(Module))
	if err := os.MkdirAll(filepath.Dir(t.Root), 0o755); err != nil {
		return t, err
	}
	if err := os.CopyFS(t.Root, os.DirFS(src)); err != nil {
		return t, fmt.Errorf("copying %s to %s: %w", src, t.Root, err)
	}
	rec := filepath.Join(t.Root, "interp", "sbir_record_test.go")
	return t, os.WriteFile(rec, recorder, 0o644)
}

// Run is what `go test ./interp` reported in one tree.
type Run struct {
	Tests    map[string]string   // test name (with subtests) → pass, fail or skip
	Output   map[string]string   // test name → what it printed
	Parents  map[string]bool     // tests that have subtests
	Programs map[string]*Program // _test file name → what the recorder saw
}

// Program is one _test program as the recorder ran it.
type Program struct {
	Name    string `json:"name"`
	Want    string `json:"want"`    // the Output: or Error: block, trimmed
	WantErr bool   `json:"wantErr"` // an Error: block
	Stdout  string `json:"stdout"`
	Stderr  string `json:"stderr"`
	Merged  string `json:"merged"` // both streams in the order written, trimmed, paths removed
	Err     string `json:"err"`    // the error EvalPath returned
}

// TestOptions says how to run a tree's tests.
type TestOptions struct {
	GoBin    string
	ModCache string // GOMODCACHE to keep (GOPATH is the tree's)
	Full     bool   // without -short (TestInterpConsistencyBuild is skipped: see ConsistencyTest)
	Timeout  time.Duration
}

// ConsistencyTest is upstream's comparison of each _test program with gc.
// It compares the interpreter's stdout with the gc program's stdout and
// stderr together, which holds only while println writes to stdout; the
// full run compares every program with gc stream by stream instead
// (JudgeAllAgainstGc).
const ConsistencyTest = "TestInterpConsistencyBuild"

const recorderTest = "TestSbirRecordPrograms"

// Test runs upstream's tests in the tree with `go test -json ./interp`,
// then the recorder in a process of its own (a program may leave
// process-wide state behind, such as a flag it defined, that would fail it
// when run a second time in one process).
func (t Tree) Test(ctx context.Context, o TestOptions) (*Run, error) {
	args := []string{"test", "-json", "-count=1", "-timeout", o.Timeout.String(), "-skip", "^(" + recorderTest + "|" + ConsistencyTest + ")$"}
	if !o.Full {
		args = append(args, "-short")
	}
	out, err := t.goTest(ctx, o, append(args, "./interp"), "")
	r, perr := parseEvents(bytes.NewReader(out))
	if perr != nil {
		return nil, fmt.Errorf("%s: reading go test -json: %v", t.Name, perr)
	}
	if len(r.Tests) == 0 {
		return nil, fmt.Errorf("%s: go test ./interp ran no test (%v): %s", t.Name, err, clip(string(out), 4000))
	}
	record := filepath.Join(t.GOPATH, "record.jsonl")
	if out, err := t.goTest(ctx, o, []string{"test", "-count=1", "-run", "^" + recorderTest + "$", "./interp"}, record); err != nil {
		return nil, fmt.Errorf("%s: recording the _test programs: %v: %s", t.Name, err, clip(string(out), 4000))
	}
	if r.Programs, err = readRecord(record); err != nil {
		return nil, fmt.Errorf("%s: %v", t.Name, err)
	}
	return r, nil
}

// goTest runs the go command in the tree, returning its standard output
// (and, when it fails, its standard error after it).
func (t Tree) goTest(ctx context.Context, o TestOptions, args []string, record string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, o.GoBin, args...)
	cmd.Dir = t.Root
	cmd.Env = append(os.Environ(), "GOPATH="+t.GOPATH, "GOMODCACHE="+o.ModCache, "GOWORK=off",
		"GOFLAGS=-mod=mod", "GO111MODULE=on", "GOTOOLCHAIN=local", "GOPROXY=off", "SBIR_YAEGI_RECORD="+record)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		out = append(out, stderr.Bytes()...)
	}
	return out, err
}

func parseEvents(rd io.Reader) (*Run, error) {
	r := &Run{Tests: map[string]string{}, Output: map[string]string{}, Parents: map[string]bool{}}
	out := map[string]*strings.Builder{}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e struct{ Action, Test, Output string }
		if !bytes.HasPrefix(sc.Bytes(), []byte("{")) {
			continue // a build error's text
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, err
		}
		if e.Test == "" {
			continue
		}
		if parent, _, ok := cutLast(e.Test, "/"); ok {
			r.Parents[parent] = true
		}
		switch e.Action {
		case "pass", "fail", "skip":
			r.Tests[e.Test] = e.Action
		case "output":
			b := out[e.Test]
			if b == nil {
				b = &strings.Builder{}
				out[e.Test] = b
			}
			if b.Len() < 8<<10 {
				b.WriteString(e.Output)
			}
		}
	}
	for name, b := range out {
		r.Output[name] = b.String()
	}
	return r, sc.Err()
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

func readRecord(path string) (map[string]*Program, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the recorder wrote nothing: %w", err)
	}
	defer f.Close()
	progs := map[string]*Program{}
	dec := json.NewDecoder(f)
	for {
		p := new(Program)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		progs[p.Name] = p
	}
	return progs, nil
}

// GoRun is how the gc toolchain ran a _test program.
type GoRun struct {
	Compiled bool
	Stdout   string
	Stderr   string // the compiler's errors when it did not compile
	Status   int
}

var gopathComment = regexp.MustCompile(`(?m)^// GOPATH:(\S+)$`)

// GoRun builds a _test program of the tree with gc (in GOPATH mode, where
// its imports of sibling packages resolve) and runs it.
func (t Tree) GoRun(ctx context.Context, goBin, name string) (GoRun, error) {
	src := filepath.Join(t.Root, "_test", name)
	text, err := os.ReadFile(src)
	if err != nil {
		return GoRun{}, err
	}
	gopath := t.GOPATH
	if m := gopathComment.FindSubmatch(text); m != nil {
		gopath = filepath.Join(t.Root, "_test", string(m[1]))
	}
	bin := filepath.Join(t.GOPATH, "gcbin", strings.TrimSuffix(name, ".go"))
	build := exec.CommandContext(ctx, goBin, "build", "-o", bin, name)
	build.Dir = filepath.Dir(src)
	build.Env = append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return GoRun{}, fmt.Errorf("go build %s: %v", name, err)
		}
		return GoRun{Stderr: string(out), Status: ee.ExitCode()}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, bin)
	run.Dir = filepath.Dir(src)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	err = run.Run()
	r := GoRun{Compiled: true, Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.Status = ee.ExitCode()
	case err != nil:
		return r, fmt.Errorf("running %s built by gc: %v", name, err)
	}
	return r, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
