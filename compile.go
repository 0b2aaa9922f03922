package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// cellSource is what compiled cells are built with: the module's go.mod
// and go.sum, and the source of the module's packages their programs link
// (award_data, display, the cell runtime and what they import of this
// module; TestCellSourceHasWhatCellsLink keeps the list in step with `go
// list`). The compiler writes it to its cache once; third-party modules
// come from the module cache, verified against go.sum.
//
//go:embed go.mod go.sum
//go:embed award_data/*.go display/*.go dataset/*.go dataset/sample.csv.gz
//go:embed internal/bytesize/*.go internal/columnar/*.go internal/jsontext/*.go internal/textcut/*.go internal/textdist/*.go internal/wrapped/*.go
//go:embed sandbox/internal/cellrt/*.go sandbox/internal/cellrt/celldata/*.go sandbox/internal/cellrt/celldisplay/*.go sandbox/internal/gotrace/*.go sandbox/internal/valuefmt/*.go sandbox/internal/wire/*.go sandbox/internal/worker/isolate/cellguard/*.go
var cellSource embed.FS

// toolchainEnvVars are the variables `go env` is asked in: where the go
// command is, and the operator's module settings (a machine whose module
// cache holds what compiled cells need builds without downloading it).
var toolchainEnvVars = []string{"PATH", "HOME", "GOROOT", "GOPATH", "GOCACHE", "GOMODCACHE", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GOPRIVATE", "GONOPROXY", "GOINSECURE", "XDG_CONFIG_HOME"}

// toolchainEnviron returns the environment the go command is found and
// described in.
func toolchainEnviron(getenv func(string) string) []string {
	out := []string{"GOTOOLCHAIN=local", "GOWORK=off"}
	for _, k := range toolchainEnvVars {
		if v := getenv(k); v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// newCompiler sets up compiled execution as the settings ask. When it is
// off (by choice, or for want of a toolchain) it returns nil and why,
// which sessions give to a cell that asked to be compiled.
func newCompiler(ctx context.Context, env *cliEnv, s sandbox.CompileSettings) (*sandbox.Compiler, string) {
	c, err := sandbox.NewCompiler(ctx, sandbox.CompileOptions{
		Settings: s,
		Environ:  toolchainEnviron(env.Getenv),
		Source:   cellSource,
		CacheDir: sandbox.CompileCacheDir(dataset.ConfigFromEnv(env.Getenv).CacheDir),
		Logger:   env.Logger,
	})
	if err != nil {
		if !errors.Is(err, sandbox.ErrCompileOff) {
			env.Logger.Info("compiled cells are off", "reason", err)
		}
		return nil, err.Error()
	}
	return c, ""
}

// startCompiler starts newCompiler in the background (it asks the go
// command about itself) and returns what waits for it.
func startCompiler(ctx context.Context, env *cliEnv, s sandbox.CompileSettings) func() (*sandbox.Compiler, string) {
	type result struct {
		c   *sandbox.Compiler
		off string
	}
	ch := make(chan result, 1)
	go func() {
		c, off := newCompiler(ctx, env, s)
		ch <- result{c, off}
	}()
	return sync.OnceValues(func() (*sandbox.Compiler, string) {
		r := <-ch
		return r.c, r.off
	})
}

// describeCompiler writes doctor's section on compiled cells; with warm,
// it builds what every compiled cell links first, and reports how long
// that took.
func describeCompiler(ctx context.Context, w io.Writer, c *sandbox.Compiler, off string, warm bool) error {
	fmt.Fprintf(w, "\nCompiled cells (%s, and programs with func main)\n", sandbox.CompileDirective)
	if c == nil {
		fmt.Fprintf(w, "  OFF     %s; every cell is interpreted\n", off)
		return nil
	}
	fmt.Fprintf(w, "  active  built with %s, run in the sandbox with the same isolation layers\n", c.Toolchain())
	fmt.Fprintf(w, "  cache:  %s\n", c.CacheDir())
	if !warm {
		fmt.Fprintf(w, "  warm-up: `sbir-kernel doctor --compile` builds what every compiled cell links (the first time on a machine, about 100 s of CPU)\n")
		return nil
	}
	took, cached, err := c.Warm(ctx)
	switch {
	case err != nil:
		return fmt.Errorf("warming up compiled cells: %w", err)
	case cached:
		fmt.Fprintf(w, "  warm:   yes (already built)\n")
	default:
		fmt.Fprintf(w, "  warm:   yes (built in %s)\n", took.Round(time.Millisecond))
	}
	return nil
}
