package interp_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// The programs of testdata/semantics each show one patch (24 and later):
// Go that gc runs and the interpreter ran wrongly or not at all. Like
// upstream's _test programs, each ends with an "// Output:" comment
// block holding what `go run` prints for it. TestSemanticsPrograms runs
// them through the interpreter; with SBIR_YAEGI_GC=1 and a go command on
// PATH, TestSemanticsOutputsAreGc checks the blocks against `go run`.

const semanticsDir = "testdata/semantics"

// semanticsProgram is one program and the output its comment promises.
type semanticsProgram struct {
	name, path, src, want string
}

func loadSemanticsPrograms(t *testing.T) []semanticsProgram {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(semanticsDir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in %s: %v", semanticsDir, err)
	}
	var progs []semanticsProgram
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		_, block, ok := strings.Cut(src, "\n// Output:\n")
		if !ok {
			t.Fatalf("%s: no // Output: block", f)
		}
		var want strings.Builder
		for _, line := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
			switch {
			case strings.HasPrefix(line, "// "):
				want.WriteString(line[3:])
			case line == "//":
			default:
				t.Fatalf("%s: output line %q is not a comment", f, line)
			}
			want.WriteByte('\n')
		}
		progs = append(progs, semanticsProgram{strings.TrimSuffix(filepath.Base(f), ".go"), f, src, want.String()})
	}
	return progs
}

func TestSemanticsPrograms(t *testing.T) {
	for _, p := range loadSemanticsPrograms(t) {
		t.Run(p.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, Stderr: &errb})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			// A program that loops for good (as the one of patch 26 did)
			// fails instead of hanging the test binary.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second*slowFactor())
			defer cancel()
			if _, err := i.EvalWithContext(ctx, p.src); err != nil {
				t.Fatalf("%v\nstdout so far:\n%s", err, out.String())
			}
			if got := out.String(); got != p.want {
				t.Errorf("stdout:\n%s\nwant (go run):\n%s", got, p.want)
			}
		})
	}
}

// slowFactor is SBIR_TEST_SLOW, the factor by which a loaded machine
// stretches time limits (1 when unset).
func slowFactor() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("SBIR_TEST_SLOW")); err == nil && n > 1 {
		return time.Duration(n)
	}
	return 1
}

func TestSemanticsOutputsAreGc(t *testing.T) {
	if os.Getenv("SBIR_YAEGI_GC") != "1" {
		t.Skip("set SBIR_YAEGI_GC=1 to check the Output blocks against go run")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	for _, p := range loadSemanticsPrograms(t) {
		t.Run(p.name, func(t *testing.T) {
			cmd := exec.Command(goCmd, "run", filepath.Base(p.path))
			cmd.Dir = semanticsDir
			cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=", "GO111MODULE=off") // outside the module: the language of the toolchain, not go 1.21
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("go run: %v\n%s", err, stderr.String())
			}
			if string(got) != p.want {
				t.Errorf("go run printed:\n%s\nthe Output block says:\n%s", got, p.want)
			}
		})
	}
}
