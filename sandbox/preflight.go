package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox/symbols"
)

// preflightPackageTimeout bounds loading one package during pre-flight
// (parsing, compiling and running its init functions). A package that takes
// longer is refused, and its worker is replaced for the next one. (A
// variable so that tests can shorten it.)
var preflightPackageTimeout = 20 * time.Second

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
			reason, dead := preflightOne(ctx, p, opts.Limits, path)
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
	if opts.RequireIsolation {
		if missing := inactive(p.layers); len(missing) > 0 {
			p.kill("")
			<-p.exited
			return nil, fmt.Errorf("sandbox: --require-isolation: these isolation layers are not active on this host: %s", strings.Join(missing, "; "))
		}
	}
	return p, nil
}

// preflightOne asks worker p to load importPath. It returns why the package
// cannot be used ("" when it loads), and whether the worker must be
// replaced (it died, hung or ctx ended).
func preflightOne(ctx context.Context, p *proc, l Limits, importPath string) (reason string, dead bool) {
	if err := p.c.send(&message{Op: opPreflight, Code: importPath}); err != nil {
		return workerDeath(p, l), true
	}
	t := time.NewTimer(preflightPackageTimeout)
	defer t.Stop()
	for {
		select {
		case m, ok := <-p.msgs:
			if !ok {
				return workerDeath(p, l), true
			}
			if m.Op == opReply {
				return m.Err, false
			}
		case <-t.C:
			p.kill("")
			return fmt.Sprintf("loading it took longer than %v (parsing, compiling and running its init functions in the interpreter)", preflightPackageTimeout), true
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

// preflightImport runs in the worker: it imports importPath in a fresh
// interpreter over the cells' symbol table, with the package environment
// pkgDir, and returns why that failed ("" when it worked).
func preflightImport(pkgDir, importPath string) (reason string) {
	if pkgDir == "" {
		return "the worker has no package environment"
	}
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("the interpreter crashed loading it: %v", r)
		}
	}()
	in := interp.New(interpOptions(io.Discard, io.Discard, strings.NewReader(""), pkgDir))
	if err := in.Use(symbols.Exports(symbols.Options{Sleep: sleep})); err != nil {
		return "loading the symbol table: " + err.Error()
	}
	ctx := context.Background()
	cellContext.Store(&ctx)
	if _, err := in.EvalWithContext(ctx, fmt.Sprintf("import _ %q", importPath)); err != nil {
		return preflightReason(importPath, err)
	}
	return ""
}

// forbiddenImportRE matches yaegi's error for an import the symbol table
// does not provide, with the file that made it (the deepest in a chain).
var forbiddenImportRE = regexp.MustCompile(`(?:src/(\S+\.go:\d+:\d+): )?import "([^"]+)" error: unable to find source related to: "[^"]+"\s*$`)

// missingSymbolRE matches yaegi's error for a member the symbol table
// removed from an allowed package (os.ReadFile, say).
var missingSymbolRE = regexp.MustCompile(`(?:src/(\S+\.go:\d+:\d+): )?package \S+ "([^"]+)" has no symbol (\w+)`)

// preflightReason turns the interpreter's error for importing importPath
// into a reason a user can act on.
func preflightReason(importPath string, err error) string {
	var p interp.Panic
	if errors.As(err, &p) {
		return fmt.Sprintf("the interpreter crashed loading it: %v", p.Value)
	}
	msg := strings.TrimSpace(err.Error())
	at := func(pos string) string {
		if pos == "" {
			return ""
		}
		return " (at " + pos + ")"
	}
	if m := forbiddenImportRE.FindStringSubmatch(msg); m != nil && isStdlibPath(m[2]) {
		return fmt.Sprintf("imports %s, which cells may not use%s", m[2], at(m[1]))
	}
	if m := missingSymbolRE.FindStringSubmatch(msg); m != nil && isStdlibPath(m[2]) {
		return fmt.Sprintf("uses %s.%s, which cells may not use%s", m[2], m[3], at(m[1]))
	}
	return strings.TrimPrefix(msg, "src/")
}

// isStdlibPath reports whether path names a standard library package: its
// first element has no dot, as the go command decides.
func isStdlibPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
