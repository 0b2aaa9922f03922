package sandbox

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/gobuild"
)

// MayCompile reports, cheaply and erring towards yes, whether code may
// run compiled: it asks to, or may declare func main. A caller that sets
// up its Compiler lazily need not for code that cannot.
func MayCompile(code string) bool {
	return strings.Contains(code, CompileDirective) || strings.Contains(code, "main")
}

// CompileDirective is the line comment that asks for a cell to run
// compiled with gc (a whole program, with func main, runs compiled
// without it).
const CompileDirective = cellprep.CompileDirective

// ErrNoToolchain is wrapped by NewCompiler's error when no usable go
// command was found.
var ErrNoToolchain = gobuild.ErrNoToolchain

// ErrCompileOff is returned by NewCompiler when the settings switch
// compiled execution off.
var ErrCompileOff = errors.New("compiled execution is off (--compile=off)")

// CompileSettings are the operator's choices about compiled cells: the
// flags of kernel, run, mcp and doctor, recorded in kernel.json by
// install.
type CompileSettings struct {
	// Off switches compiled execution off: every cell is interpreted.
	Off bool
	// Go is the go command to build with: a path, or a name looked up on
	// PATH ("" means go).
	Go string
	// BuildTimeout and BuildMemory bound one build (wall clock; address
	// space of each toolchain process).
	BuildTimeout time.Duration
	BuildMemory  int64
	// BuildCPU is the CPU time one session's builds may use in any
	// BuildCPUWindow (0: no limit); MaxBuilds how many builds of the
	// process run at once (0: gobuild.DefaultConcurrent). Builds run
	// outside every cell's limits, on the host's cores: these keep one
	// user from making a shared server compile for everyone's time.
	BuildCPU       time.Duration
	BuildCPUWindow time.Duration
	MaxBuilds      int
}

// Default per-session build budget: the first build on a machine (about
// 110 s of CPU) fits in it, and some hundred warm rebuilds (0.4-0.9 s
// each).
const (
	DefaultBuildCPU       = 5 * time.Minute
	DefaultBuildCPUWindow = time.Hour
)

// DefaultCompileSettings returns compiled execution on, with the go on
// PATH and gobuild's default limits.
func DefaultCompileSettings() CompileSettings {
	l := gobuild.DefaultLimits()
	return CompileSettings{BuildTimeout: l.Timeout, BuildMemory: l.MemoryBytes, BuildCPU: DefaultBuildCPU, BuildCPUWindow: DefaultBuildCPUWindow, MaxBuilds: l.Concurrent}
}

// onOff is a flag.Value for --compile: "on" or "off".
type onOff struct{ off *bool }

func (v onOff) String() string {
	if v.off != nil && *v.off {
		return "off"
	}
	return "on"
}

// IsBoolFlag lets --compile alone mean on.
func (v onOff) IsBoolFlag() bool { return true }

func (v onOff) Set(s string) error {
	switch s {
	case "on", "true":
		*v.off = false
	case "off", "false":
		*v.off = true
	default:
		return fmt.Errorf("%q: use on or off", s)
	}
	return nil
}

// RegisterFlags defines --compile, --go, --build-timeout and
// --build-memory on fs, with c's values as defaults.
func (c *CompileSettings) RegisterFlags(fs *flag.FlagSet) {
	fs.Var(onOff{&c.Off}, "compile", "run whole programs and cells marked "+CompileDirective+" compiled with gc, in the same sandbox, when a Go toolchain is found: on or off")
	c.RegisterToolchainFlags(fs)
}

// RegisterToolchainFlags defines RegisterFlags' flags but --compile.
func (c *CompileSettings) RegisterToolchainFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Go, "go", c.Go, "the go `command` compiled cells are built with (a path, or a name on PATH; default go)")
	fs.DurationVar(&c.BuildTimeout, "build-timeout", c.BuildTimeout, "wall-clock limit of one compiled cell's build (the first on a machine compiles award_data and its dependencies)")
	fs.Var((*bytesize.Value)(&c.BuildMemory), "build-memory", "address space of each toolchain process of a build (e.g. 4GiB)")
	fs.DurationVar(&c.BuildCPU, "build-cpu", c.BuildCPU, "CPU time one session's builds of compiled cells may use in any --build-cpu-window (0: no limit); running a cell already built costs none")
	fs.DurationVar(&c.BuildCPUWindow, "build-cpu-window", c.BuildCPUWindow, "the window over which --build-cpu is counted")
	fs.IntVar(&c.MaxBuilds, "max-builds", c.MaxBuilds, "builds of compiled cells that run at once in this process, every session's together; more wait")
}

// Args returns the flags that reproduce c, for a kernel.json argv.
func (c CompileSettings) Args() []string {
	args := []string{"--compile=" + onOff{&c.Off}.String()}
	if c.Go != "" {
		args = append(args, "--go="+c.Go)
	}
	return append(args, "--build-timeout="+c.BuildTimeout.String(), "--build-memory="+strconv.FormatInt(c.BuildMemory, 10),
		"--build-cpu="+c.BuildCPU.String(), "--build-cpu-window="+c.BuildCPUWindow.String(), "--max-builds="+strconv.Itoa(c.MaxBuilds))
}

// CompileOptions configure NewCompiler.
type CompileOptions struct {
	Settings CompileSettings
	// Environ is the environment the go command is found (PATH) and
	// described in (`go env`: its module cache and proxy).
	Environ []string
	// Source holds the module's go.mod, go.sum and the packages compiled
	// cells link, as the binary carries them.
	Source fs.FS
	// CacheDir is the compiler's cache (the program keeps it beside the
	// data cache): the source written out, binaries, the build cache.
	CacheDir string
	// GoCache, when set, is the build cache to use instead of one in
	// CacheDir (tests share the host's).
	GoCache string
	Logger  *slog.Logger
}

// A Compiler builds compiled cells; one serves every session of a
// process (Options.Compiler).
type Compiler struct {
	b  *gobuild.Builder
	tc *gobuild.Toolchain
	// budget and window are each session's build budget
	// (CompileSettings.BuildCPU, BuildCPUWindow).
	budget, window time.Duration
	// zone is the host's time zone, which a compiled cell, under Landlock
	// from its start, cannot read itself (the interpreter's worker loads
	// it before it restricts itself).
	zone []byte
}

// NewCompiler finds the toolchain and prepares the builder; nothing is
// built yet (see Warm). It fails with ErrCompileOff when the settings
// say so and with an error wrapping ErrNoToolchain when there is no
// usable go command, saying why; the caller then runs every cell
// interpreted (Options.CompileOff).
func NewCompiler(ctx context.Context, opts CompileOptions) (*Compiler, error) {
	if opts.Settings.Off {
		return nil, ErrCompileOff
	}
	if runtime.GOOS != "linux" {
		return nil, fmt.Errorf("%w: compiled cells run on Linux only (this is %s)", ErrNoToolchain, runtime.GOOS)
	}
	goVersion, err := moduleGoVersion(opts.Source)
	if err != nil {
		return nil, fmt.Errorf("sandbox: the source compiled cells are built with: %w", err)
	}
	// The source's hash, part of every binary's cache key (a cached
	// program's too), is computed while the go command describes itself.
	type hashed struct {
		hash string
		err  error
	}
	hc := make(chan hashed, 1)
	go func() {
		h, err := gobuild.HashSource(opts.Source)
		hc <- hashed{h, err}
	}()
	tc, err := gobuild.Find(ctx, opts.Settings.Go, opts.Environ, goVersion)
	if err != nil {
		return nil, err
	}
	limits := gobuild.DefaultLimits()
	if opts.Settings.BuildTimeout > 0 {
		limits.Timeout = opts.Settings.BuildTimeout
	}
	if opts.Settings.BuildMemory > 0 {
		limits.MemoryBytes = opts.Settings.BuildMemory
	}
	if opts.Settings.MaxBuilds > 0 {
		limits.Concurrent = opts.Settings.MaxBuilds
	}
	if opts.Settings.BuildCPU < 0 || opts.Settings.BuildCPU > 0 && opts.Settings.BuildCPUWindow <= 0 {
		return nil, fmt.Errorf("sandbox: --build-cpu %v over --build-cpu-window %v: give a budget of 0 (no limit) or more, over a window longer than 0", opts.Settings.BuildCPU, opts.Settings.BuildCPUWindow)
	}
	// A hash that failed is computed again by the first build, which
	// reports why.
	h := <-hc
	b, err := gobuild.New(gobuild.Options{Toolchain: tc, Source: opts.Source, SourceHash: h.hash, Dir: opts.CacheDir, GoCache: opts.GoCache, Limits: limits, Logger: opts.Logger})
	if err != nil {
		return nil, err
	}
	return &Compiler{b: b, tc: tc, zone: localZone(), budget: opts.Settings.BuildCPU, window: opts.Settings.BuildCPUWindow}, nil
}

// moduleGoVersion is the go line of the carried go.mod.
func moduleGoVersion(src fs.FS) (string, error) {
	if src == nil {
		return "", errors.New("no source given")
	}
	return gobuild.ModuleGoVersion(src)
}

// Toolchain describes the go command: "go1.26.8 at /usr/local/go/bin/go".
func (c *Compiler) Toolchain() string { return c.tc.String() }

// warmCells are what Warm builds: a cell that links award_data, display
// and the runtime, what every compiled cell that uses the data links, and
// one that links the runtime alone, as the others do.
var warmCells = []string{CompileDirective + "\ndisplay.Show(award_data.Count())", CompileDirective + "\ndisplay.Show(1)"}

// Warm builds programs that link what compiled cells link, so that later
// builds only compile and link the cell (about a second). The first build
// on a machine compiles award_data and its dependencies (about 100 s of
// CPU); later ones find the result in the build cache. It reports how
// long the builds took and whether both were cached already.
func (c *Compiler) Warm(ctx context.Context) (took time.Duration, cached bool, err error) {
	cached = true
	for _, cell := range warmCells {
		st := cellprep.NewState()
		prep, err := cellprep.Prepare(cell, st)
		if err != nil {
			return 0, false, err
		}
		prog, err := cellprep.Compile(prep, st)
		if err != nil {
			return 0, false, err
		}
		bin, err := c.build(ctx, prog, nil)
		if err != nil {
			return 0, false, err
		}
		took, cached = took+bin.Took, cached && bin.Cached
	}
	return took, cached, nil
}

// CacheDir is where the compiler keeps its files.
func (c *Compiler) CacheDir() string { return c.b.Dir() }

// build builds a cell's program: with the capture of its last value, and
// again without it when the expression turns out to have none; both
// charged to budget (nil for the kernel's own warm-up).
func (c *Compiler) build(ctx context.Context, prog *cellprep.Program, budget gobuild.Budget) (*gobuild.Binary, error) {
	bin, err := c.b.Build(ctx, prog.Source, budget)
	var ce *gobuild.CompileError
	if err != nil && prog.NoValue != "" && errors.As(err, &ce) && ce.Has(prog.ValueLine, prog.ValueColumn, "(no value) used as value") {
		return c.b.Build(ctx, prog.NoValue, budget)
	}
	return bin, err
}

// CompileCacheDir is the compiler's cache under a program's cache
// directory.
func CompileCacheDir(cacheDir string) string { return filepath.Join(cacheDir, "compile") }

// localZone returns the TZif data of the host's /etc/localtime, or nil
// (UTC) when there is none or it is implausibly large.
func localZone() []byte {
	b, err := os.ReadFile("/etc/localtime")
	if err != nil || len(b) > 1<<20 {
		return nil
	}
	return b
}
