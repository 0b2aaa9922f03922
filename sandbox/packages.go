package sandbox

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// installGrace is added to pkgenv's install timeout for the context of a
// declaration, so that pkgenv's own, more precise timeout error wins.
const installGrace = 10 * time.Second

// directiveErrors formats the malformed //sbir: directives of a cell.
func directiveErrors(errs []error) string {
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

// mergeRequirements returns the union of the session's set and a cell's
// declarations, sorted by path. Two versions of one module are refused:
// the environment holds exactly one.
func mergeRequirements(have, add []pkgenv.Requirement) ([]pkgenv.Requirement, error) {
	byPath := map[string]pkgenv.Requirement{}
	for _, r := range have {
		byPath[r.Path] = r
	}
	for _, r := range add {
		if old, ok := byPath[r.Path]; ok && old.Version != r.Version {
			if containsReq(have, old) {
				return nil, fmt.Errorf("line %d: %s is declared at %s, but this session already uses %s: a session has one version of each module; restart the kernel to change it", r.Line, r.Path, r.Version, old.Version)
			}
			return nil, fmt.Errorf("line %d: %s is declared at %s and, on line %d, at %s: declare one version", r.Line, r.Path, r.Version, old.Line, old.Version)
		}
		byPath[r.Path] = r
	}
	out := make([]pkgenv.Requirement, 0, len(byPath))
	for _, r := range byPath {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

func containsReq(set []pkgenv.Requirement, r pkgenv.Requirement) bool {
	for _, x := range set {
		if x.Path == r.Path && x.Version == r.Version {
			return true
		}
	}
	return false
}

// sameRequirements reports whether two sorted sets name the same versions.
func sameRequirements(a, b []pkgenv.Requirement) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || a[i].Version != b[i].Version {
			return false
		}
	}
	return true
}

// setString lists a set as path@version, for messages.
func setString(set []pkgenv.Requirement) string {
	if len(set) == 0 {
		return "none"
	}
	s := make([]string, len(set))
	for i, r := range set {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}

// imports returns what decides the third-party imports of the session's
// cells: its package environment, or undeclared before any cell declared
// packages.
func (s *Session) imports() cellprep.ImportChecker {
	if s.env == nil {
		return undeclared{}
	}
	return s.env
}

// undeclared refuses the third-party imports of a session that declared
// no modules, saying how to declare one.
type undeclared struct{}

func (undeclared) CheckImports(paths []string) error {
	if err := (*pkgenv.Env)(nil).CheckImports(paths); err != nil {
		return fmt.Errorf("cells may import only the allowed standard packages and the packages of modules declared with %s: %w", pkgenv.Directive, err)
	}
	return nil
}

// progressWriter sends what is written to it to a cell's stderr as it comes
// (pkgenv's progress lines) and keeps a copy for the Result.
type progressWriter struct {
	h   *Handlers
	buf *strings.Builder
}

func (w progressWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if w.h.Stream != nil {
		w.h.Stream("stderr", string(p))
	}
	return len(p), nil
}

// packageOptions returns the pkgenv options of a declaration in this
// session.
func (s *Session) packageOptions(progress progressWriter) (pkgenv.Options, error) {
	o := s.opts.Packages
	if o.Preflight == nil {
		o.Preflight = preflightFunc(s.opts)
	}
	if o.Logger == nil {
		o.Logger = s.opts.Logger
	}
	o.Progress = progress
	return o, nil
}

// declare handles the //sbir:require lines of a cell: it extends the
// session's requirement set, installs or finds its environment, and
// restarts the worker with it. It returns a failed Result when the cell
// must not run, and an error only when no worker can be started. What it
// wrote to the cell's stderr is in stderr.
func (s *Session) declare(ctx context.Context, reqs []pkgenv.Requirement, h *Handlers, stderr *strings.Builder) (*Result, error) {
	set, err := mergeRequirements(s.reqs, reqs)
	if err != nil {
		return failed(wire.ClassPackageError, err.Error()), nil
	}
	if sameRequirements(set, s.reqs) {
		return nil, nil // re-declaring the session's set (re-running the first cell)
	}
	if s.ranCode {
		var added []pkgenv.Requirement
		for _, r := range set {
			if !containsReq(s.reqs, r) {
				added = append(added, r)
			}
		}
		return failed(wire.ClassPackageError, fmt.Sprintf("this cell declares %s, but cells already ran with packages: %s. The packages of a session are fixed once cells run: restart the kernel to change packages (put //sbir:require lines in the first cell)", setString(added), setString(s.reqs))), nil
	}
	progress := progressWriter{h: h, buf: stderr}
	opts, err := s.packageOptions(progress)
	if err != nil {
		return failed(wire.ClassPackageError, err.Error()), nil
	}
	timeout := opts.Limits.InstallTimeout
	if timeout <= 0 {
		timeout = pkgenv.DefaultLimits().InstallTimeout
	}
	// Not the cell's clock: an install may take up to its own timeout.
	// An interrupt (ctx) still cancels it.
	ictx, cancel := context.WithTimeout(ctx, timeout+installGrace)
	defer cancel()
	env, err := pkgenv.Ensure(ictx, set, opts)
	if err != nil {
		if ctx.Err() != nil {
			return failed(wire.ClassInterrupted, "the cell was interrupted while installing "+setString(set)+"; nothing was installed"), nil
		}
		return failed(wire.ClassPackageError, err.Error()), nil
	}
	if env.Installed {
		if sum := env.ProblemSummary(); sum != "" {
			fmt.Fprintln(progress, strings.TrimRight(sum, "\n"))
		}
	}
	// Landlock rules and yaegi's GOPATH are fixed when a worker starts:
	// replace it (no cell ran in it, so nothing is lost).
	if s.p != nil {
		s.p.kill("")
		<-s.p.exited
		s.p = nil
	}
	old := s.env
	s.env, s.reqs = env, set
	if err := old.Close(); err != nil {
		s.opts.Logger.Warn("sandbox: releasing the previous package environment", "err", err)
	}
	if err := s.start(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			return failed(wire.ClassInterrupted, "the cell was interrupted while its worker restarted"), nil
		}
		return nil, err
	}
	return nil, nil
}
