package sandbox_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

var gorunCompiled = boolFlag("gorun.compiled", "run the gorun corpus's programs compiled (a build each: minutes) and report how many match go run")

// TestGoRunCorpusCompiled runs every program of the gorun corpus as a
// file, compiled with gc, and reports how many answer as `go run` does
// (docs/compiled.md). It builds every program, so it runs only when asked
// (-gorun.compiled).
func TestGoRunCorpusCompiled(t *testing.T) {
	if !gorunCompiled() {
		t.Skip("run with -gorun.compiled: it builds each of the corpus's programs")
	}
	c := sandbox.CompilerForTests(t)
	progs := loadGoRunCorpus(t)
	var mu sync.Mutex
	var failures []string
	passed := 0
	t.Run("programs", func(t *testing.T) {
		for _, p := range progs {
			t.Run(p.name, func(t *testing.T) {
				t.Parallel()
				o := runCompiledForm(t, c, p)
				mu.Lock()
				defer mu.Unlock()
				if o.ok {
					passed++
				} else {
					failures = append(failures, p.name+": "+o.cause)
				}
			})
		}
	})
	sort.Strings(failures)
	ran := passed + len(failures) // -run may select some
	t.Logf("gorun corpus compiled: %d/%d programs answer as go run does (%.1f%%)\n%s", passed, ran, pct(passed, ran), strings.Join(failures, "\n"))
}

// runCompiledForm runs p's program in a session with a compiler: a
// program runs compiled (or interpreted, when it reads standard input).
func runCompiledForm(t *testing.T, c *sandbox.Compiler, p *gorunProgram) gorunOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	l := sandbox.DefaultLimits()
	l.CellTimeout = 20 * time.Second
	s, err := sandbox.NewSession(ctx, sandbox.Options{Limits: l, Compiler: c})
	if err != nil {
		t.Fatalf("starting a session: %v", err)
	}
	defer s.Close()
	res, err := s.Run(ctx, p.prog, nil)
	if err != nil {
		return gorunOutcome{cause: fmt.Sprintf("session error: %v", err)}
	}
	stdout := res.Stdout
	if v, ok := res.Value["text/plain"].(string); ok && v != "" {
		stdout += strings.TrimSuffix(v, "\n") + "\n"
	}
	var failed *sandbox.Result
	if !res.Success {
		failed = res
	}
	return judgeGoRun(p, stdout, res.Stderr, failed, 1, 0)
}
