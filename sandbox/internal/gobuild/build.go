package gobuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
)

// Options configures a Builder.
type Options struct {
	// Toolchain builds the cells (Find).
	Toolchain *Toolchain
	// Source holds go.mod, go.sum and the module's packages compiled cells
	// link, as the kernel's binary carries them.
	Source fs.FS
	// SourceHash is HashSource(Source) when the caller computed it
	// already; "" means the first build computes it.
	SourceHash string
	// Dir is the builder's cache: the source written out and the
	// binaries.
	Dir string
	// GoCache is the GOCACHE builds use; "" means the toolchain's own
	// (shared with the machine's other builds: the go command keeps it
	// safe for concurrent use), or Dir/gocache when it has none.
	GoCache string
	// ModCache is the GOMODCACHE builds use; "" means the toolchain's
	// own, or Dir/modcache when it has none.
	ModCache string
	// Limits bound each build; the zero value means DefaultLimits.
	Limits Limits
	// Logger receives the builder's logs; nil discards them.
	Logger *slog.Logger
}

// Limits bound one build.
type Limits struct {
	// Timeout is its wall-clock limit. The first build of a machine
	// compiles award_data and its dependencies (about 100 s of CPU).
	Timeout time.Duration
	// MemoryBytes is the address space of each toolchain process.
	MemoryBytes int64
	// OutputBytes is how much of the toolchain's output is kept.
	OutputBytes int
	// MaxBinaries is how many built programs the cache keeps, the least
	// recently used dropped first.
	MaxBinaries int
	// Concurrent is how many builds run at once; more wait for one to
	// end (each already uses every core). 0 means DefaultConcurrent.
	Concurrent int
}

// DefaultLimits are 15 minutes, 4 GiB per process, 64 KiB of output,
// 100 cached binaries (about 8 MB each) and DefaultConcurrent builds at
// once.
func DefaultLimits() Limits {
	return Limits{Timeout: 15 * time.Minute, MemoryBytes: 4 << 30, OutputBytes: 64 << 10, MaxBinaries: 100, Concurrent: DefaultConcurrent()}
}

// DefaultConcurrent is one build at once per four cores, at least one.
func DefaultConcurrent() int { return max(1, runtime.NumCPU()/4) }

// A Budget is what one requester's builds may spend of CPU time (a
// session's, over a window: the sandbox keeps the account). Build asks it
// before a build runs (never for a cached binary) and charges it the
// CPU time the toolchain's processes used after.
type Budget interface {
	// Remaining is the CPU time left, or an error saying why no build
	// may run now.
	Remaining() (time.Duration, error)
	// Charge records CPU time a build used.
	Charge(cpu time.Duration)
}

// buildFlags are the flags of every `go build` (the fallback of a direct
// build, which gives the compiler and the linker the same), part of the
// cache key.
var buildFlags = []string{"-trimpath", "-buildvcs=false", "-pgo=off", "-ldflags=-s -w"}

// builderVersion names how binaries are built, part of the cache key: a
// change of it builds every program again.
const builderVersion = "direct-1"

// A Builder builds compiled cells' programs. Its methods may be called
// from several goroutines.
type Builder struct {
	opts Options
	// slots bounds the builds running at once: each already uses every
	// core.
	slots chan struct{}

	builds   atomic.Int64 // builds run (not cached)
	waiting  atomic.Int64 // builds waiting for a slot
	goRuns   atomic.Int64 // go commands run (go list, go build)
	fallback atomic.Int64 // builds that ran go build

	// goLang is the -lang of the cells' package: the carried go.mod's.
	goLang string

	// indexMu guards index, what go list said of the packages cells
	// import (direct.go).
	indexMu sync.Mutex
	index   exportIndex

	srcOnce sync.Once
	srcDir  string
	srcHash string
	srcErr  error
}

// New returns a Builder. Nothing is written until the first build.
func New(opts Options) (*Builder, error) {
	if opts.Toolchain == nil || opts.Source == nil || opts.Dir == "" {
		return nil, errors.New("gobuild: Toolchain, Source and Dir are required")
	}
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.GoCache == "" {
		opts.GoCache = opts.Toolchain.GoCache
	}
	if opts.GoCache == "" {
		opts.GoCache = filepath.Join(opts.Dir, "gocache")
	}
	if opts.ModCache == "" {
		opts.ModCache = opts.Toolchain.ModCache
	}
	if opts.ModCache == "" {
		opts.ModCache = filepath.Join(opts.Dir, "modcache")
	}
	if opts.Limits.Concurrent <= 0 {
		opts.Limits.Concurrent = DefaultConcurrent()
	}
	b := &Builder{opts: opts, slots: make(chan struct{}, opts.Limits.Concurrent)}
	if goLine, err := ModuleGoVersion(opts.Source); err == nil {
		b.goLang = langVersion(goLine)
	}
	return b, nil
}

// source writes the module source out once.
func (b *Builder) source() (dir, hash string, err error) {
	b.srcOnce.Do(func() {
		b.srcHash = b.opts.SourceHash
		if b.srcHash == "" {
			b.srcHash, b.srcErr = hashSource(b.opts.Source)
		}
		if b.srcErr == nil {
			b.srcDir, b.srcErr = materialise(b.opts.Source, filepath.Join(b.opts.Dir, "src"), b.srcHash)
		}
	})
	return b.srcDir, b.srcHash, b.srcErr
}

// A Binary is a built program.
type Binary struct {
	// Path is the executable in the cache.
	Path string
	// Cached reports that no build ran: the same program was built before.
	Cached bool
	// Took is how long the build took (0 when cached).
	Took time.Duration
	// CPU is the user and system time the toolchain used (0 when cached).
	CPU time.Duration
}

// Build returns the binary of the program whose main.go is src, building
// it unless the cache holds it; a build waits for one of the
// Limits.Concurrent slots, and is charged to budget (nil: none). Errors
// are a *CompileError (the program does not compile), a *LimitError (the
// build exceeded a limit), the budget's error (no build ran), the
// context's error, or another error (the toolchain failed).
func (b *Builder) Build(ctx context.Context, src string, budget Budget) (*Binary, error) {
	dir, hash, err := b.source()
	if err != nil {
		return nil, fmt.Errorf("writing the source compiled cells are built with: %w", err)
	}
	key := b.key(hash, src)
	bin := filepath.Join(b.opts.Dir, "bin", key)
	if hit(bin) {
		return &Binary{Path: bin, Cached: true}, nil
	}
	b.waiting.Add(1)
	select {
	case b.slots <- struct{}{}:
		b.waiting.Add(-1)
	case <-ctx.Done():
		b.waiting.Add(-1)
		return nil, ctx.Err()
	}
	defer func() { <-b.slots }()
	if hit(bin) { // built meanwhile by another session
		return &Binary{Path: bin, Cached: true}, nil
	}
	run := &buildRun{cpuLimit: b.cpuLimit()}
	if budget != nil {
		left, err := budget.Remaining()
		if err != nil {
			return nil, err
		}
		if left < run.cpuLimit {
			run.cpuLimit, run.budgeted = max(left, time.Second), true
		}
		defer func() { budget.Charge(run.cpu) }()
	}
	t0 := time.Now()
	b.builds.Add(1)
	if err := b.build(ctx, run, dir, hash, key, src, bin); err != nil {
		return nil, err
	}
	took := time.Since(t0)
	b.opts.Logger.Info("compiled cell built", "took", took, "cpu", run.cpu, "binary", filepath.Base(bin))
	b.prune()
	return &Binary{Path: bin, Took: took, CPU: run.cpu}, nil
}

// buildRun is one build's CPU time: the limit of each of its processes,
// whether a budget set it, and what they used.
type buildRun struct {
	cpuLimit time.Duration
	budgeted bool
	cpu      time.Duration
}

// cpuLimit is the CPU time of each toolchain process without a budget:
// the time limit on every core.
func (b *Builder) cpuLimit() time.Duration {
	return b.opts.Limits.Timeout*time.Duration(runtime.NumCPU()) + 10*time.Second
}

// key is the cache key of a program: the toolchain, the flags, the
// module source and the program's text.
func (b *Builder) key(srcHash, src string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n%s\n", builderVersion, b.opts.Toolchain.Version, b.opts.Toolchain.Go, strings.Join(buildFlags, " "), runtime.GOARCH, srcHash)
	h.Write([]byte(src))
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// hit reports whether the cached binary exists, and marks it used.
func hit(bin string) bool {
	if _, err := os.Stat(bin); err != nil {
		return false
	}
	now := time.Now()
	_ = os.Chtimes(bin, now, now)
	return true
}

// build runs the toolchain on src, writing the binary to bin: the
// compiler and the linker directly when it can (direct.go), else go
// build; both under one time limit.
func (b *Builder) build(ctx context.Context, run *buildRun, dir, srcHash, key, src, bin string) error {
	cell, err := os.MkdirTemp(filepath.Join(dir, cellsDir), key[:12]+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cell)
	if err := os.WriteFile(filepath.Join(cell, "main.go"), []byte(src), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return err
	}
	tmp := bin + ".tmp-" + filepath.Base(cell)
	defer os.Remove(tmp)
	lctx, cancel := context.WithTimeout(ctx, b.opts.Limits.Timeout)
	defer cancel()
	out, err := b.buildDirect(lctx, run, dir, srcHash, cell, src, tmp)
	if errors.Is(err, errNotDirect) {
		b.fallback.Add(1)
		rel, _ := filepath.Rel(dir, cell)
		args := append([]string{b.opts.Toolchain.Go, "build"}, buildFlags...)
		args = append(args, "-o", tmp, "./"+filepath.ToSlash(rel))
		out, err = b.run(lctx, run, dir, args, b.env(), 0)
	}
	if err != nil {
		return b.failure(ctx, run, err, out, dir)
	}
	return os.Rename(tmp, bin)
}

// env is the toolchain's whole environment: nothing of the kernel's.
func (b *Builder) env() []string {
	tc := b.opts.Toolchain
	tmp := filepath.Join(b.opts.Dir, "tmp")
	_ = os.MkdirAll(tmp, 0o755)
	return []string{
		"PATH=" + filepath.Dir(tc.Go) + ":/usr/bin:/bin",
		"HOME=" + b.opts.Dir,
		"GOROOT=" + tc.GOROOT,
		"GOPATH=" + filepath.Join(b.opts.Dir, "gopath"),
		"GOCACHE=" + b.opts.GoCache,
		"GOMODCACHE=" + b.opts.ModCache,
		"GOPROXY=" + tc.Proxy,
		"GOSUMDB=" + tc.SumDB,
		"GOFLAGS=-mod=readonly",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
		"GOENV=off",
		"GOTELEMETRY=off",
		"GO111MODULE=on",
		"CGO_ENABLED=0",
		"TMPDIR=" + tmp,
	}
}

// run runs argv (the go command, the compiler or the linker) with env in
// its own process group under the limits, killed when ctx ends (the
// caller sets the time limit on it), and returns its output (the first
// maxOut bytes; Limits.OutputBytes when 0).
func (b *Builder) run(ctx context.Context, run *buildRun, dir string, argv, env []string, maxOut int) (string, error) {
	l := b.opts.Limits
	if maxOut == 0 {
		maxOut = l.OutputBytes
	}
	if argv[0] == b.opts.Toolchain.Go {
		b.goRuns.Add(1)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	out := &boundedBuffer{max: maxOut}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = procAttr()
	started := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		// The parent-death signal follows the thread that started the
		// build, not the process: the thread stays this goroutine's
		// until the build ends, so that no other goroutine's exit on a
		// locked thread (a worker's start) can end it and kill the build.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		// The toolchain's processes inherit these (the go command starts
		// the compiler and the linker well after this).
		limit(cmd.Process.Pid, l, run.cpuLimit)
		started <- nil
		err := cmd.Wait()
		// The process's and its children's (the compiler's, the
		// linker's) user and system time.
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			run.cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
		done <- err
	}()
	if err := <-started; err != nil {
		return "", err
	}
	select {
	case err := <-done:
		return out.String(), err
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return out.String(), ctx.Err()
	}
}

// A LimitError is a build stopped at one of its limits.
type LimitError struct{ Msg string }

func (e *LimitError) Error() string { return e.Msg }

// failure explains a failed build: the cell's compile errors, a limit, an
// interrupt, or the toolchain's own failure (its output, without the
// cache's paths).
func (b *Builder) failure(ctx context.Context, run *buildRun, err error, out, dir string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	l := b.opts.Limits
	if errors.Is(err, context.DeadlineExceeded) {
		return &LimitError{Msg: fmt.Sprintf("the build exceeded its %v time limit and was stopped (the first build on a machine compiles award_data and its dependencies: run `sbir-kernel doctor --compile` once to do that ahead)", l.Timeout)}
	}
	if ce := parseCompileErrors(out); ce != nil {
		return ce
	}
	if strings.Contains(out, "cannot allocate memory") || strings.Contains(out, "out of memory") {
		return &LimitError{Msg: fmt.Sprintf("the build exceeded its memory limit (%s per toolchain process) and was stopped", bytesize.Exact(l.MemoryBytes))}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGXCPU {
			if run.budgeted {
				return &LimitError{Msg: fmt.Sprintf("the build was stopped when it had used the %v of CPU time left in this session's build budget", run.cpuLimit)}
			}
			return &LimitError{Msg: "the build exceeded its CPU-time limit and was stopped"}
		}
	}
	msg := toolchainOutput(out, dir, b.opts.Dir, b.opts.GoCache, b.opts.ModCache, b.opts.Toolchain.GOROOT)
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("the Go toolchain (%s) failed: %s", b.opts.Toolchain.Version, msg)
}

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	mu      sync.Mutex
	b       []byte
	max     int
	dropped bool
}

func (w *boundedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	keep := min(max(0, w.max-len(w.b)), len(p))
	w.b = append(w.b, p[:keep]...)
	w.dropped = w.dropped || keep < len(p)
	return len(p), nil
}

func (w *boundedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dropped {
		return string(w.b) + "\n..."
	}
	return string(w.b)
}

// Builds reports how many builds ran (cache hits are not builds).
func (b *Builder) Builds() int64 { return b.builds.Load() }

// Dir is the builder's cache directory.
func (b *Builder) Dir() string { return b.opts.Dir }

// cellPathRE matches the path of a build's main package.
var cellPathRE = regexp.MustCompile(cellsDir + `/[^/\s]+/main\.go`)

// toolchainOutput is the toolchain's output without the host's paths:
// the lines naming the package built, the source and cache directories
// (srcDir first, inside cacheDir), the build and module caches and
// GOROOT (the compiler and the linker name the files they read), the
// program's file (shown as "the cell's program").
func toolchainOutput(out, srcDir, cacheDir string, hostDirs ...string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "# ") {
			continue
		}
		l = strings.ReplaceAll(l, srcDir+"/", "")
		l = strings.ReplaceAll(l, cacheDir+"/", "")
		for _, d := range hostDirs {
			if d != "" {
				l = strings.ReplaceAll(l, d+"/", "")
			}
		}
		lines = append(lines, cellPathRE.ReplaceAllString(l, "the cell's program"))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
