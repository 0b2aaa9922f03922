package sandbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// preflightPackageTimeout bounds loading one package during pre-flight
// (parsing, compiling and running its init functions). A package that takes
// longer is refused, and its worker is replaced for the next one.
const preflightPackageTimeout = 20 * time.Second

// preflightFunc returns the pkgenv.PreflightFunc of sessions configured
// by opts: it loads each package in a worker isolated exactly as a cell's
// (same layers, the same restricted symbol table), with read access to the
// environment being installed and nothing else, one fresh interpreter per
// package.
func preflightFunc(opts Options) pkgenv.PreflightFunc {
	opts.DataPath = "" // packages never see the awards data
	return func(ctx context.Context, gopath string, importPaths []string) ([]pkgenv.PackageProblem, error) {
		var problems []pkgenv.PackageProblem
		var p *proc
		defer func() {
			if p != nil {
				p.close(time.Second)
			}
		}()
		for _, path := range importPaths {
			if p == nil {
				var err error
				if p, err = startPreflightWorker(ctx, opts, gopath); err != nil {
					return nil, err
				}
			}
			reason, dead := preflightOne(ctx, p, opts.Limits, path, opts.preflightTimeout())
			if dead {
				p.kill("")
				<-p.exited
				p = nil
			}
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("checking %s in the sandbox: %w", path, err)
			}
			if reason != "" {
				problems = append(problems, pkgenv.PackageProblem{ImportPath: path, Reason: reason})
			}
		}
		return problems, nil
	}
}

// startPreflightWorker starts a worker that reads gopath, holding it to
// the isolation the session requires.
func startPreflightWorker(ctx context.Context, opts Options, gopath string) (*proc, error) {
	p, err := startProc(ctx, opts, gopath)
	if err != nil {
		return nil, fmt.Errorf("starting the sandbox worker that checks the packages: %w", err)
	}
	if err := requireIsolation(p, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// preflightOne asks worker p to load importPath. It returns why the package
// cannot be used ("" when it loads), and whether the worker must be
// replaced (it died, hung or ctx ended).
func preflightOne(ctx context.Context, p *proc, l Limits, importPath string, timeout time.Duration) (reason string, dead bool) {
	id, err := p.request(&wire.Message{Op: wire.OpPreflight, Code: importPath})
	if err != nil {
		return workerDeath(p, l), true
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case m, ok := <-p.msgs:
			if !ok {
				return workerDeath(p, l), true
			}
			if isReply(m, wire.OpReply, id) {
				return m.Err, false
			}
		case <-t.C:
			p.kill("")
			return fmt.Sprintf("loading it took longer than %v (parsing, compiling and running its init functions in the interpreter)", timeout), true
		case <-ctx.Done():
			return "", true
		}
	}
}

// workerDeath says why a pre-flight worker died while loading a package.
func workerDeath(p *proc, l Limits) string {
	name, msg := p.death(l)
	msg = strings.Replace(msg, "cell exceeded", "loading it exceeded", 1)
	return fmt.Sprintf("loading it ended the sandbox worker (%s: %s)", name, msg)
}

// preflightTimeout is the time one package may take to load.
func (o Options) preflightTimeout() time.Duration {
	if o.testPreflightTimeout > 0 {
		return o.testPreflightTimeout
	}
	return preflightPackageTimeout
}
