package pkgenv

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/importpath"

	"github.com/gofrs/flock"
	"golang.org/x/mod/module"
)

// An Env is a package environment a session uses: a read-only directory
// in GOPATH layout holding the requested modules and the dependencies
// their packages import. The session holds a shared lock on it, so it is
// never evicted while in use; Close releases it.
type Env struct {
	// Dir is the environment's root: Go source lives in Dir/src/<import
	// path>. It is yaegi's GoPath; the worker may read it and nothing
	// else of the cache.
	Dir string
	// Key is the cache key (hex SHA-256) naming the environment.
	Key string
	// Requirements are the requested modules, sorted by path.
	Requirements []module.Version
	// Modules are the modules in the environment (requested and
	// dependencies), at their selected versions, sorted by path.
	Modules []module.Version
	// Packages are the packages of the requested modules that passed
	// pre-flight: cells may import them.
	Packages []string
	// Problems are the packages that cannot be used in cells, with why.
	Problems []PackageProblem
	// Size is the unpacked size of the source, in bytes.
	Size int64
	// Installed is true when this Ensure call built the environment and
	// false when it came from the cache.
	Installed bool
	// Created is when the environment was installed.
	Created time.Time

	lock *flock.Flock
}

// SrcDir is Dir/src, the root of the import paths.
func (e *Env) SrcDir() string { return filepath.Join(e.Dir, "src") }

// Close releases the session's hold on the environment, after which the
// cache may evict it. It is safe to call more than once and on nil.
func (e *Env) Close() error {
	if e == nil || e.lock == nil {
		return nil
	}
	err := e.lock.Unlock()
	e.lock = nil
	return err
}

// Problem returns why the package importPath cannot be used in cells, or
// "" when nothing is known against it.
func (e *Env) Problem(importPath string) string {
	if e == nil {
		return ""
	}
	for _, p := range e.Problems {
		if p.ImportPath == importPath {
			return p.Reason
		}
	}
	return ""
}

// ProblemSummary describes, for the cell's output, the packages of the
// requested modules that cannot be used in cells, one per line after a
// heading; "" when there are none. The sandbox prints it when a set is
// installed (like pip's warnings), so users learn early that, say, a
// module's subpackage needs cgo.
func (e *Env) ProblemSummary() string {
	if e == nil {
		return ""
	}
	var lines []string
	for _, p := range e.Problems {
		for _, r := range e.Requirements {
			if p.ImportPath == r.Path || strings.HasPrefix(p.ImportPath, r.Path+"/") {
				lines = append(lines, fmt.Sprintf("\t%s: %s", p.ImportPath, p.Reason))
				break
			}
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "go: some packages cannot be used in cells:\n" + strings.Join(lines, "\n")
}

// CheckImports checks a cell's imports against the environment before the
// cell runs, so a user gets a precise reason rather than the interpreter's
// error. Cells may import the packages of the requested modules that
// passed pre-flight (Packages); standard library paths are left to the
// sandbox's allow-list. On a nil Env (a session without requirements),
// every non-standard import is reported as undeclared.
func (e *Env) CheckImports(importPaths []string) error {
	var msgs []string
	for _, p := range importPaths {
		if importpath.IsStdlib(p) {
			continue
		}
		if msg := e.checkImport(p); msg != "" {
			msgs = append(msgs, msg)
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}

// checkImport returns why a cell may not import p, or "".
func (e *Env) checkImport(p string) string {
	if e != nil {
		for _, ok := range e.Packages {
			if ok == p {
				return ""
			}
		}
	}
	if reason := e.Problem(p); reason != "" {
		return fmt.Sprintf("package %s cannot be used in cells: %s", p, reason)
	}
	if e == nil {
		return fmt.Sprintf("package %s is not in this session's packages; declare its module first, e.g. %s %s vX.Y.Z", p, Directive, guessModule(p))
	}
	for _, r := range e.Requirements {
		if p != r.Path && !strings.HasPrefix(p, r.Path+"/") {
			continue
		}
		if isInternal(p) {
			return fmt.Sprintf("package %s is internal to %s and cannot be imported", p, r.Path)
		}
		var have []string
		for _, ok := range e.Packages {
			if ok == r.Path || strings.HasPrefix(ok, r.Path+"/") {
				have = append(have, ok)
			}
		}
		if len(have) > 5 {
			have = append(have[:5], "...")
		}
		return fmt.Sprintf("package %s is not an importable package of %s@%s; it has %s", p, r.Path, r.Version, strings.Join(have, ", "))
	}
	for _, m := range e.Modules {
		if m.Path == e.provider(p) {
			return fmt.Sprintf("package %s belongs to %s %s, a dependency of the declared modules; to import it directly, declare it: %s %s %s", p, m.Path, m.Version, Directive, m.Path, m.Version)
		}
	}
	return fmt.Sprintf("package %s is not in this session's packages; declare its module first, e.g. %s %s vX.Y.Z", p, Directive, guessModule(p))
}

// provider returns the module of the environment that holds importPath,
// or "".
func (e *Env) provider(importPath string) string {
	best := ""
	for _, m := range e.Modules {
		if (importPath == m.Path || strings.HasPrefix(importPath, m.Path+"/")) && len(m.Path) > len(best) {
			best = m.Path
		}
	}
	return best
}

// guessModule returns the likely module path of an import path for
// hosts whose module paths have a known shape (github.com/owner/repo),
// else the import path itself.
func guessModule(p string) string {
	parts := strings.Split(p, "/")
	switch parts[0] {
	case "github.com", "gitlab.com", "bitbucket.org":
		if len(parts) >= 3 {
			return strings.Join(parts[:3], "/")
		}
	}
	return p
}

// usable returns an error when a requested module has no package cells
// can import, listing why each of its packages failed.
func (e *Env) usable() error {
	var msgs []string
	for _, r := range e.Requirements {
		ok := false
		var why []string
		for _, p := range e.Packages {
			if p == r.Path || strings.HasPrefix(p, r.Path+"/") {
				ok = true
				break
			}
		}
		if ok {
			continue
		}
		for _, pp := range e.Problems {
			if pp.ImportPath == r.Path || strings.HasPrefix(pp.ImportPath, r.Path+"/") {
				why = append(why, fmt.Sprintf("\t%s: %s", pp.ImportPath, pp.Reason))
			}
		}
		if len(why) == 0 {
			why = []string{"\tthe module has no package that can be imported (only commands, internal or nested-module directories)"}
		}
		msgs = append(msgs, fmt.Sprintf("go: %s@%s: no package of this module can be used in cells:\n%s", r.Path, r.Version, strings.Join(why, "\n")))
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}
