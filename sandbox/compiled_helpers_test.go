package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// The package's tests share one compiler: one module source written out,
// and the host's build cache (the one `go test` itself uses), so that
// award_data and its dependencies are compiled once per machine, not per
// test.
var shared struct {
	once sync.Once
	c    *Compiler
	dir  string
	err  error
}

// testCompiler returns the shared compiler. Without a Go toolchain the
// test is skipped, saying so.
func testCompiler(t testing.TB) *Compiler {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "sandbox-compile-")
		if shared.err != nil {
			return
		}
		var src fs.FS
		if src, shared.err = moduleSource(); shared.err != nil {
			return
		}
		gocache, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			shared.err = errors.Join(ErrNoToolchain, err)
			return
		}
		shared.c, shared.err = NewCompiler(context.Background(), CompileOptions{
			Settings: DefaultCompileSettings(),
			Environ:  os.Environ(),
			Source:   src,
			CacheDir: shared.dir,
			GoCache:  strings.TrimSpace(string(gocache)),
		})
	})
	if shared.err != nil {
		if errors.Is(shared.err, ErrNoToolchain) {
			t.Skip("no Go toolchain found: compiled cells are not tested here (install Go 1.26 or later to test them): ", shared.err)
		}
		t.Fatal(shared.err)
	}
	return shared.c
}

// moduleSource reads, from the repository, what the binary embeds for
// compiled cells: go.mod, go.sum and the files of the module's packages
// the cell runtime depends on (as `go list` reports them), and package
// isolate, whose probe escapeProgram runs as compiled code that got past
// the allow-list (the binary does not embed it: no cell links it).
func moduleSource() (fs.FS, error) {
	out, err := exec.Command("go", "list", "-deps", "-json=Dir,EmbedFiles,Module", "./internal/cellrt/...", "./internal/worker/isolate").Output()
	if err != nil {
		return nil, errors.Join(ErrNoToolchain, err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	m := fstest.MapFS{}
	add := func(abs string) error {
		b, err := os.ReadFile(abs)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return err
		}
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
		return nil
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := add(filepath.Join(root, f)); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			Dir        string
			EmbedFiles []string
			Module     *struct{ Path string }
		}
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		if p.Module == nil || p.Module.Path != "github.com/sbirtools/sbir-kernel" {
			continue
		}
		// Every Go file, as the binary's go:embed patterns take them:
		// builds run with CGO_ENABLED=0, whatever this process has.
		goFiles, err := filepath.Glob(filepath.Join(p.Dir, "*.go"))
		if err != nil {
			return nil, err
		}
		for _, f := range p.EmbedFiles {
			goFiles = append(goFiles, filepath.Join(p.Dir, f))
		}
		for _, f := range goFiles {
			if err := add(f); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// newCompiledSession starts a session with the shared compiler.
func newCompiledSession(t testing.TB, change func(*Options)) *Session {
	t.Helper()
	c := testCompiler(t)
	l := DefaultLimits()
	l.CellTimeout = slow(20 * time.Second)
	opts := Options{Limits: l, DataPath: testDataPath, Compiler: c}
	if change != nil {
		change(&opts)
	}
	s, err := NewSession(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// slow scales a time limit by SBIR_TEST_SLOW (default 1) for loaded
// machines.
func slow(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv("SBIR_TEST_SLOW"), 64); err == nil && f > 0 {
		return time.Duration(float64(d) * f)
	}
	return d
}

// CompilerForTests is testCompiler for the package's external tests (the
// gorun corpus run compiled).
func CompilerForTests(t testing.TB) *Compiler { return testCompiler(t) }
