package pkgenv

import (
	"context"
	"fmt"
	"go/version"
	"runtime"
	"sort"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
	"golang.org/x/sync/errgroup"
)

// maxGoModFiles bounds the module graph walk. Real graphs of libraries a
// notebook uses read tens of go.mod files; the bound only stops a
// pathological graph from spending the whole install time.
const maxGoModFiles = 1000

// fetchParallelism is how many proxy requests run at once.
const fetchParallelism = 8

// resolve computes the build list for roots the way the go command's
// minimal version selection does: every go.mod reachable from the roots
// is read (and verified against the checksum database), and for each
// module path the highest version required anywhere is selected. replace
// and exclude directives of dependencies are ignored, as the go command
// ignores them outside the main module. It returns the selected version
// of each module path.
func (b *builder) resolve(ctx context.Context, roots []module.Version) (map[string]string, error) {
	var (
		mu       sync.Mutex
		selected = map[string]string{}
		files    = map[module.Version]*modfile.File{}
		visited  = map[module.Version]bool{}
	)
	add := func(m module.Version) bool {
		if visited[m] {
			return false
		}
		visited[m] = true
		if v, ok := selected[m.Path]; !ok || semver.Compare(m.Version, v) > 0 {
			selected[m.Path] = m.Version
		}
		return true
	}
	level := []module.Version{}
	for _, r := range roots {
		if add(r) {
			level = append(level, r)
		}
	}
	for len(level) > 0 {
		if len(visited) > maxGoModFiles {
			return nil, fmt.Errorf("go: module graph of %s is too large (more than %d go.mod files): %w", describe(roots), maxGoModFiles, ErrLimit)
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(fetchParallelism)
		for _, m := range level {
			g.Go(func() error {
				f, err := b.goMod(gctx, m)
				if err != nil {
					return err
				}
				mu.Lock()
				files[m] = f
				mu.Unlock()
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		var next []module.Version
		for _, m := range level {
			for _, r := range files[m].Require {
				if add(r.Mod) {
					next = append(next, r.Mod)
				}
			}
		}
		sort.Slice(next, func(i, j int) bool { return next[i].String() < next[j].String() })
		level = next
	}
	for p, v := range selected {
		m := module.Version{Path: p, Version: v}
		if err := checkGoVersion(m, files[m]); err != nil {
			return nil, err
		}
	}
	return selected, nil
}

// goMod downloads, verifies and parses the go.mod file of m.
func (b *builder) goMod(ctx context.Context, m module.Version) (*modfile.File, error) {
	if err := module.Check(m.Path, m.Version); err != nil {
		return nil, fmt.Errorf("go: %w", err)
	}
	rel, err := modulePath(m, ".mod")
	if err != nil {
		return nil, fmt.Errorf("go: %s@%s: %w", m.Path, m.Version, err)
	}
	data, err := b.proxy.get(ctx, rel, modzip.MaxGoMod)
	if err != nil {
		return nil, fetchError(ctx, m, err)
	}
	h, err := goModHash(data)
	if err != nil {
		return nil, fmt.Errorf("go: %s@%s: hashing go.mod: %w", m.Path, m.Version, err)
	}
	if err := b.db.verify(m, "go.mod", "/go.mod", h); err != nil {
		return nil, ctxError(ctx, err)
	}
	f, err := modfile.ParseLax(m.Path+"@"+m.Version+"/go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("go: %s@%s: parsing go.mod:\n\t%v", m.Path, m.Version, err)
	}
	if f.Module == nil {
		return nil, fmt.Errorf("go: %s@%s: parsing go.mod: missing module declaration", m.Path, m.Version)
	}
	if f.Module.Mod.Path != m.Path {
		return nil, fmt.Errorf("go: %s@%s: parsing go.mod:\n\tmodule declares its path as: %s\n\t        but was required as: %s",
			m.Path, m.Version, f.Module.Mod.Path, m.Path)
	}
	return f, nil
}

// checkGoVersion applies GOTOOLCHAIN=local: a module that needs a newer
// Go than the one the kernel was built with is refused, never "upgraded".
func checkGoVersion(m module.Version, f *modfile.File) error {
	if f == nil || f.Go == nil {
		return nil
	}
	local := runtime.Version()
	if !version.IsValid(local) {
		return nil // a development toolchain: nothing to compare with
	}
	need := "go" + f.Go.Version
	if version.IsValid(need) && version.Compare(need, local) > 0 {
		return fmt.Errorf("go: %s@%s requires go >= %s (running go %s; GOTOOLCHAIN=local)",
			m.Path, m.Version, f.Go.Version, strings.TrimPrefix(local, "go"))
	}
	return nil
}

// fetchError formats a proxy error like the go command:
// "go: example.com/m@v1.0.0: reading https://.../v1.0.0.mod: 404 Not Found".
func fetchError(ctx context.Context, m module.Version, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("go: %s@%s: %w", m.Path, m.Version, err)
}

// ctxError returns the context's error when it ended, so a timeout is
// reported as a timeout rather than as whatever it interrupted.
func ctxError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// describe lists module versions for messages.
func describe(mods []module.Version) string {
	s := make([]string, len(mods))
	for i, m := range mods {
		s[i] = m.Path + "@" + m.Version
	}
	return strings.Join(s, ", ")
}
