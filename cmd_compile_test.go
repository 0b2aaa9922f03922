package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestCellSourceHasWhatCellsLink keeps the embedded source in step with
// what compiled cells link: every Go file and embedded file of each
// package of this module the cell runtime depends on, and no other
// package.
func TestCellSourceHasWhatCellsLink(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-json=Dir,ImportPath,EmbedFiles,Module", "./sandbox/internal/cellrt/...").Output()
	if err != nil {
		t.Skip("go list:", err)
	}
	root, _ := os.Getwd()
	want := map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			Dir, ImportPath string
			EmbedFiles      []string
			Module          *struct{ Path string }
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != "github.com/sbirtools/sbir-kernel" {
			continue
		}
		rel, _ := filepath.Rel(root, p.Dir)
		rel = filepath.ToSlash(rel)
		want[rel] = true
		files, _ := filepath.Glob(filepath.Join(p.Dir, "*.go"))
		for _, f := range files {
			want[rel+"/"+filepath.Base(f)] = true
		}
		for _, f := range p.EmbedFiles {
			want[rel+"/"+f] = true
		}
	}
	for f := range want {
		if strings.HasSuffix(f, ".go") || strings.Contains(path.Base(f), ".") {
			if _, err := fs.Stat(cellSource, f); err != nil {
				t.Errorf("%s is not embedded: add its package to cellSource's go:embed lines (compile.go)", f)
			}
		}
	}
	_ = fs.WalkDir(cellSource, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != "go.mod" && p != "go.sum" && !want[path.Dir(p)] {
			t.Errorf("%s is embedded, but compiled cells do not link its package", p)
		}
		return nil
	})
}

// compileEnv is the environment of a command whose cells may compile:
// the toolchain on PATH, the host's Go caches (shared with `go test`),
// and a private data cache.
func compileEnv(t *testing.T) map[string]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain found (no go on PATH): compiled cells are not tested here; install Go 1.26 or later to test them")
	}
	env := map[string]string{"SBIR_CACHE_DIR": t.TempDir()}
	for _, k := range []string{"PATH", "HOME", "GOCACHE", "GOMODCACHE", "GOPROXY"} {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		}
	}
	return env
}

// compiledProgram panics: the traceback says which way it ran (a
// compiled frame has no column).
const compiledProgram = `package main

import (
	"fmt"
	"strings"
)

func main() {
	fmt.Println(strings.ToUpper("compiled"), award_data.Count())
	panic("stop")
}
`

// TestRunCompiledProgram: run FILE of a whole program runs it compiled,
// with the toolchain found on PATH; --compile=off runs it interpreted.
func TestRunCompiledProgram(t *testing.T) {
	env := compileEnv(t)
	prog := filepath.Join(t.TempDir(), "prog.go")
	if err := os.WriteFile(prog, []byte(compiledProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		frame string
	}{
		{[]string{"run", "--json", prog}, "  at line 10, in main"},
		// The interpreter's frames have columns (and, today, other lines:
		// see the report of issue 28).
		{[]string{"run", "--json", "--compile=off", prog}, ", column "},
	} {
		stdout, stderr, code := runCLI(t, env, tc.args...)
		var out struct {
			Stdout string
			Error  struct {
				Name      string
				Traceback []string
			}
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%v: %v\n%s\n%s", tc.args, err, stdout, stderr)
		}
		if code != 1 || out.Stdout != "COMPILED 2000\n" || out.Error.Name != "Panic" || !containsPart(out.Error.Traceback, tc.frame) {
			t.Errorf("%v: status %d, %+v; want a panic with the frame %q\n%s", tc.args, code, out, tc.frame, stderr)
		}
	}
}

// containsPart reports whether a line of list is s or contains s when s
// starts with a comma.
func containsPart(list []string, s string) bool {
	for _, x := range list {
		if x == s || strings.HasPrefix(s, ",") && strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// TestDoctorReportsCompiledCells: doctor names the toolchain, or says why
// compiled cells are off.
func TestDoctorReportsCompiledCells(t *testing.T) {
	env := compileEnv(t)
	stdout, stderr, code := runCLI(t, env, "doctor")
	if code != 0 || !strings.Contains(stdout, "Compiled cells (//sbir:compile, and programs with func main)\n  active  built with go1.") {
		t.Errorf("doctor with go on PATH: status %d\n%s\n%s", code, stdout, stderr)
	}
	delete(env, "PATH")
	stdout, _, _ = runCLI(t, env, "doctor")
	if !strings.Contains(stdout, "  OFF     no Go toolchain: no go command on PATH") {
		t.Errorf("doctor without go:\n%s", stdout)
	}
	stdout, _, _ = runCLI(t, env, "doctor", "--go", "/nonexistent/go")
	if !strings.Contains(stdout, "/nonexistent/go is not an executable go command") {
		t.Errorf("doctor --go /nonexistent/go:\n%s", stdout)
	}
}
