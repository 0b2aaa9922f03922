package pkgenv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/mod/module"
)

// Cache layout under Options.Dir:
//
//	envs/<key>/src/...          published environments (read-only source)
//	envs/<key>/manifest.json    what the environment holds; written last
//	envs/<key>/last-used        its mtime is the LRU clock
//	locks/<key>.lock            per-key lock: shared while in use,
//	                            exclusive while building or evicting
//	tmp/<key>.<random>/         installs in progress (or interrupted)
//	sumdb/                      checksum database state and tile cache
const (
	envsDir      = "envs"
	locksDir     = "locks"
	tmpDir       = "tmp"
	sumdbDir     = "sumdb"
	manifestName = "manifest.json"
	stampName    = "last-used"

	manifestFormat = 1
	lockRetry      = 20 * time.Millisecond
)

// manifest is manifest.json: the record of a published environment.
type manifest struct {
	Format       int              `json:"format"`
	Key          string           `json:"key"`
	Kernel       string           `json:"kernel"`
	Go           string           `json:"go"`
	SumDB        string           `json:"sumdb"`
	Requirements []moduleEntry    `json:"requirements"`
	Modules      []moduleEntry    `json:"modules"`
	Packages     []string         `json:"packages"`
	Problems     []PackageProblem `json:"problems,omitempty"`
	Size         int64            `json:"size"`
	Created      time.Time        `json:"created"`
}

// errNotCached: no usable environment is published under the key.
var errNotCached = errors.New("not cached")

// Ensure returns the environment for reqs, installing it first when it
// is not cached and Options.AllowInstall permits. Sessions asking for the
// same set share one environment; concurrent callers (in any process)
// build it once. The caller must Close the Env when the session ends.
//
// Errors read like the go command's ("go: example.com/m@v1.0.0: verifying
// module: checksum mismatch ...") so the sandbox can print them in the
// cell's output as they are; errors.Is distinguishes ErrInstallsDisabled,
// ErrChecksumMismatch and ErrLimit. An install that fails or is killed
// leaves nothing a later call would use.
func Ensure(ctx context.Context, reqs []Requirement, opts Options) (*Env, error) {
	if opts.Dir == "" {
		return nil, errors.New("pkgenv: Options.Dir is empty: no package cache directory")
	}
	mods, err := normalize(reqs)
	if err != nil {
		return nil, err
	}
	if opts.SumDBKey == "" {
		opts.SumDBKey = DefaultSumDB
	}
	opts.Limits = opts.Limits.withDefaults()
	key := cacheKey(mods, opts.KernelVersion, sumdbName(opts.SumDBKey))
	if err := os.MkdirAll(filepath.Join(opts.Dir, locksDir), 0o755); err != nil {
		return nil, fmt.Errorf("pkgenv: creating the package cache: %w", err)
	}
	lock := flock.New(lockPath(opts.Dir, key))
	installed := false
	for attempt := 0; attempt < 3; attempt++ {
		// Use a published environment under the shared lock.
		if _, err := lock.TryRLockContext(ctx, lockRetry); err != nil {
			return nil, fmt.Errorf("pkgenv: locking %s: %w", lock.Path(), err)
		}
		env, err := openEnv(opts.Dir, key)
		if err == nil {
			env.lock = lock
			env.Installed = installed
			if err := env.usable(); err != nil {
				env.Close()
				return nil, err
			}
			return env, nil
		}
		lock.Unlock()
		if !errors.Is(err, errNotCached) {
			opts.logger().Warn("replacing an unreadable package environment", "key", key, "err", err)
		}
		if !opts.AllowInstall {
			return nil, fmt.Errorf("go: cannot install %s: %w; only environments already in the package cache can be used (an administrator can start the kernel with --allow-packages to allow installs)",
				describe(mods), ErrInstallsDisabled)
		}
		if opts.Preflight == nil {
			return nil, errors.New("pkgenv: Options.Preflight is nil: installs must be checked in the sandbox")
		}
		// Build it under the exclusive lock, unless another session
		// (in this process or another) did while we waited for it.
		if _, err := lock.TryLockContext(ctx, lockRetry); err != nil {
			return nil, fmt.Errorf("pkgenv: locking %s: %w", lock.Path(), err)
		}
		if _, err := openEnv(opts.Dir, key); err != nil {
			err = installEnv(ctx, key, mods, opts)
			if err == nil {
				installed = true
				// Make room while still holding the new environment
				// exclusively, so eviction cannot pick it.
				if _, perr := Prune(opts.Dir, opts.Limits.Budget); perr != nil {
					opts.logger().Warn("evicting package environments", "err", perr)
				}
			}
			if err != nil {
				lock.Unlock()
				return nil, err
			}
		}
		lock.Unlock()
	}
	return nil, fmt.Errorf("pkgenv: the environment %s was evicted each time it was opened; try again", key)
}

// installEnv installs the environment for key under an exclusive lock
// and publishes it with a rename.
func installEnv(ctx context.Context, key string, mods []module.Version, opts Options) (err error) {
	root := opts.Dir
	removeStaleTemps(root, key, opts.logger())
	if err := os.MkdirAll(filepath.Join(root, tmpDir), 0o755); err != nil {
		return fmt.Errorf("pkgenv: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Join(root, tmpDir), key+".*")
	if err != nil {
		return fmt.Errorf("pkgenv: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // readable by a worker running as another user
		return fmt.Errorf("pkgenv: %w", err)
	}
	defer func() {
		if err != nil {
			removeTree(tmp)
		}
	}()
	p, err := newProxy(opts.Proxy, opts.HTTPClient)
	if err != nil {
		return err
	}
	bctx, cancel := context.WithTimeout(ctx, opts.Limits.InstallTimeout)
	defer cancel()
	b := &builder{
		opts:   opts,
		limits: opts.Limits,
		proxy:  p,
		db:     newChecksumDB(bctx, p, opts.SumDBKey, filepath.Join(root, sumdbDir)),
		dir:    tmp,
		dl:     filepath.Join(tmp, ".download"),
	}
	man, err := b.install(bctx, mods)
	if err != nil {
		if ctx.Err() == nil && errors.Is(bctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("go: installing %s took longer than %v, this server's limit; nothing was installed: %w",
				describe(mods), opts.Limits.InstallTimeout, ErrLimit)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	man.Format = manifestFormat
	man.Key = key
	man.Kernel = opts.KernelVersion
	man.Go = runtime.Version()
	man.SumDB = b.db.name
	man.Created = time.Now().UTC()
	if err := os.WriteFile(filepath.Join(tmp, stampName), nil, 0o644); err != nil {
		return fmt.Errorf("pkgenv: %w", err)
	}
	data, err := json.MarshalIndent(man, "", "\t")
	if err != nil {
		return fmt.Errorf("pkgenv: %w", err)
	}
	// The manifest is written last: a directory without one is never used.
	if err := os.WriteFile(filepath.Join(tmp, manifestName), data, 0o444); err != nil {
		return fmt.Errorf("pkgenv: %w", err)
	}
	final := envPath(root, key)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("pkgenv: %w", err)
	}
	if _, serr := os.Lstat(final); serr == nil {
		// An unreadable environment from an older or broken install.
		if err := retire(root, key); err != nil {
			return fmt.Errorf("pkgenv: removing the broken environment %s: %w", final, err)
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("pkgenv: publishing the environment: %w", err)
	}
	return nil
}

// openEnv reads a published environment and marks it used.
func openEnv(root, key string) (*Env, error) {
	dir := envPath(root, key)
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNotCached
	}
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, manifestName), err)
	}
	if m.Format != manifestFormat || m.Key != key {
		return nil, fmt.Errorf("reading %s: format %d, key %.12s: not an environment for this kernel", filepath.Join(dir, manifestName), m.Format, m.Key)
	}
	now := time.Now()
	if err := os.Chtimes(filepath.Join(dir, stampName), now, now); err != nil {
		if err := os.WriteFile(filepath.Join(dir, stampName), nil, 0o644); err != nil {
			return nil, fmt.Errorf("marking %s used: %w", dir, err)
		}
	}
	env := &Env{
		Dir:      dir,
		Key:      key,
		Packages: m.Packages,
		Problems: m.Problems,
		Size:     m.Size,
		Created:  m.Created,
	}
	for _, r := range m.Requirements {
		env.Requirements = append(env.Requirements, module.Version{Path: r.Path, Version: r.Version})
	}
	for _, r := range m.Modules {
		env.Modules = append(env.Modules, module.Version{Path: r.Path, Version: r.Version})
	}
	return env, nil
}

// An Entry describes one cached environment.
type Entry struct {
	Key          string
	Dir          string
	Requirements []module.Version
	Modules      int   // modules in the environment, dependencies included
	Size         int64 // unpacked source bytes
	Created      time.Time
	LastUsed     time.Time
	// InUse is true when a session holds the environment (or an install
	// or eviction holds its lock) at the time of the listing.
	InUse bool
	// Broken is set, with the reason, for a directory that is not a
	// usable environment (it is removed by Prune and replaced by the next
	// install).
	Broken string
}

// List returns the cached environments under dir, least recently used
// first. A missing cache is empty.
func List(dir string) ([]Entry, error) {
	ents, err := os.ReadDir(filepath.Join(dir, envsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the package cache: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, locksDir), 0o755); err != nil {
		return nil, fmt.Errorf("listing the package cache: %w", err)
	}
	var out []Entry
	for _, d := range ents {
		if !d.IsDir() {
			continue
		}
		e := Entry{Key: d.Name(), Dir: filepath.Join(dir, envsDir, d.Name())}
		if fi, err := os.Stat(filepath.Join(e.Dir, stampName)); err == nil {
			e.LastUsed = fi.ModTime()
		} else if fi, err := os.Stat(e.Dir); err == nil {
			e.LastUsed = fi.ModTime()
		}
		data, err := os.ReadFile(filepath.Join(e.Dir, manifestName))
		var m manifest
		switch {
		case err != nil:
			e.Broken = "no manifest: " + err.Error()
		case json.Unmarshal(data, &m) != nil:
			e.Broken = "unreadable manifest"
		case m.Key != e.Key || m.Format != manifestFormat:
			e.Broken = "manifest of another format or key"
		default:
			for _, r := range m.Requirements {
				e.Requirements = append(e.Requirements, module.Version{Path: r.Path, Version: r.Version})
			}
			e.Modules = len(m.Modules)
			e.Size = m.Size
			e.Created = m.Created
		}
		if e.Broken != "" {
			e.Size = treeSize(e.Dir)
		}
		l := flock.New(lockPath(dir, e.Key))
		if ok, err := l.TryLock(); err == nil && ok {
			l.Unlock()
		} else {
			e.InUse = true
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastUsed.Before(out[j].LastUsed) })
	return out, nil
}

// A PruneReport says what Prune did.
type PruneReport struct {
	Removed     []Entry // evicted environments, least recently used first
	Freed       int64   // bytes of source removed
	Kept        int     // environments left
	KeptSize    int64   // their total size
	Interrupted int     // leftovers of interrupted installs removed
	Busy        int     // environments over the budget left because in use
}

// Prune evicts environments, least recently used first, until the cache
// holds at most budget bytes, and removes what interrupted installs left.
// Environments in use by a session or being installed are never touched.
// A budget of 0 removes every environment not in use.
func Prune(dir string, budget int64) (*PruneReport, error) {
	rep := &PruneReport{}
	rep.Interrupted = removeStaleTemps(dir, "", nil)
	entries, err := List(dir)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, e := range entries {
		total += e.Size
	}
	for _, e := range entries {
		if total <= budget && e.Broken == "" {
			continue
		}
		l := flock.New(lockPath(dir, e.Key))
		ok, err := l.TryLock()
		if err != nil || !ok {
			if total > budget {
				rep.Busy++
			}
			continue
		}
		err = retire(dir, e.Key)
		l.Unlock()
		if err != nil {
			return rep, fmt.Errorf("removing %s: %w", e.Dir, err)
		}
		total -= e.Size
		rep.Freed += e.Size
		rep.Removed = append(rep.Removed, e)
	}
	rep.Kept = len(entries) - len(rep.Removed)
	rep.KeptSize = total
	return rep, nil
}

// retire removes envs/<key>: first renamed into tmp/ (so it disappears
// at once), then deleted. The caller holds the key's exclusive lock.
func retire(root, key string) error {
	if err := os.MkdirAll(filepath.Join(root, tmpDir), 0o755); err != nil {
		return err
	}
	dead, err := os.MkdirTemp(filepath.Join(root, tmpDir), key+".evicted.*")
	if err != nil {
		return err
	}
	os.Remove(dead)
	if err := os.Rename(envPath(root, key), dead); err != nil {
		return err
	}
	return removeTree(dead)
}

// removeStaleTemps removes tmp/ entries of installs that are no longer
// running: those whose key lock can be taken (a running install holds
// it). With key set, the caller already holds that key's lock and only
// its leftovers are removed. It returns how many it removed.
func removeStaleTemps(root, key string, logger *slog.Logger) int {
	ents, err := os.ReadDir(filepath.Join(root, tmpDir))
	if err != nil || len(ents) == 0 {
		return 0
	}
	if err := os.MkdirAll(filepath.Join(root, locksDir), 0o755); err != nil {
		return 0
	}
	n := 0
	for _, d := range ents {
		k, _, ok := strings.Cut(d.Name(), ".")
		if !ok || (key != "" && k != key) {
			continue
		}
		path := filepath.Join(root, tmpDir, d.Name())
		if key == "" {
			l := flock.New(lockPath(root, k))
			got, err := l.TryLock()
			if err != nil || !got {
				continue
			}
			err = removeTree(path)
			l.Unlock()
			if err == nil {
				n++
			}
			continue
		}
		if err := removeTree(path); err == nil {
			n++
			if logger != nil {
				logger.Info("removed an interrupted package install", "dir", path)
			}
		}
	}
	return n
}

func envPath(root, key string) string  { return filepath.Join(root, envsDir, key) }
func lockPath(root, key string) string { return filepath.Join(root, locksDir, key+".lock") }

// makeReadOnly makes a tree read-only and world-readable (files 0444,
// directories 0555), so nothing mutates a shared environment by accident
// and a worker running as another user can read it.
func makeReadOnly(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		} else if err := os.Chmod(p, 0o444); err != nil {
			return err
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	// Deepest first, so a parent is still writable while its children change.
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := os.Chmod(dirs[i], 0o555); err != nil {
			return err
		}
	}
	return nil
}

// removeTree deletes a tree that may contain read-only directories.
func removeTree(dir string) error {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

// treeSize is the total size of the files under dir.
func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

func (o Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.New(slog.DiscardHandler)
}
