package pkgenv

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"time"

	"golang.org/x/mod/module"
)

// DefaultProxy is the module proxy used when Options.Proxy is empty.
const DefaultProxy = "https://proxy.golang.org"

// DefaultSumDB is the verifier key of the Go checksum database,
// sum.golang.org, used when Options.SumDBKey is empty. It is the key the
// go command has built in.
const DefaultSumDB = "sum.golang.org+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8"

// Limits caps what one install may cost and how big the cache may grow.
type Limits struct {
	// InstallTimeout bounds one install: resolution, downloads,
	// verification, unpacking and pre-flight. Default 120 s.
	InstallTimeout time.Duration
	// MaxModules is the most modules one environment may hold, the
	// requested ones and their dependencies together. Default 50.
	MaxModules int
	// MaxBytes is the most unpacked source one environment may hold.
	// Default 200 MB.
	MaxBytes int64
	// Budget is the size the whole cache is evicted down to, least
	// recently used first, after each install. Default 2 GB.
	Budget int64
}

// DefaultLimits returns the limits used for zero fields of Options.Limits.
func DefaultLimits() Limits {
	return Limits{
		InstallTimeout: 120 * time.Second,
		MaxModules:     50,
		MaxBytes:       200 << 20,
		Budget:         2 << 30,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.InstallTimeout <= 0 {
		l.InstallTimeout = d.InstallTimeout
	}
	if l.MaxModules <= 0 {
		l.MaxModules = d.MaxModules
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.Budget <= 0 {
		l.Budget = d.Budget
	}
	return l
}

// A PreflightFunc loads packages in the real sandbox, the way a cell
// would import them, and reports the ones that fail. The sandbox supplies
// it; pkgenv calls it once per install, after the environment is unpacked
// and before it is published, so its verdicts are cached with it.
//
// gopath is the environment's root in GOPATH layout (gopath/src/<import
// path>), already read-only and world-readable; the function must give the
// worker read-only access to it (an inherited directory descriptor and a
// Landlock rule on it, as for a session) and point yaegi's GoPath and
// SourcecodeFilesystem there. importPaths lists
// every importable package of the requested modules (dependencies are
// loaded through them). The result has one entry per failing package,
// with a reason a user can act on, e.g. "imports os, which cells may not
// use". A non-nil error means the check itself could not run (the worker
// did not start, say); the install then fails and nothing is cached.
type PreflightFunc func(ctx context.Context, gopath string, importPaths []string) ([]PackageProblem, error)

// A PackageProblem says why one package cannot be used in cells.
type PackageProblem struct {
	ImportPath string `json:"importPath"`
	Reason     string `json:"reason"`
}

// Options configures Ensure.
type Options struct {
	// Dir is the package cache (the kernel uses <cache dir>/packages). Required.
	Dir string
	// Proxy is the module proxy: one https://, http:// or file:// URL
	// (GOPROXY syntax for a single proxy). "direct", "off" and lists are
	// refused: modules come from the proxy only. Default DefaultProxy.
	Proxy string
	// SumDBKey is the verifier key of the checksum database, which is
	// always reached through Proxy (<proxy>/sumdb/<name>/...). Default
	// DefaultSumDB. GONOSUMDB, GOPRIVATE and GOINSECURE do not apply.
	SumDBKey string
	// AllowInstall is the trust gate. When false, Ensure only returns
	// environments that are already cached; a requirement set that would
	// need an install fails with ErrInstallsDisabled. Cached environments
	// are usable without the gate: they were installed, verified and
	// pre-flighted for a trusted session, and using them costs no network,
	// disk or CPU.
	AllowInstall bool
	// KernelVersion is part of the cache key, so a new kernel (with a new
	// symbol table) re-checks its environments.
	KernelVersion string
	// Preflight checks packages in the real sandbox. Required for
	// installs; not called on a cache hit.
	Preflight PreflightFunc
	// Limits caps installs and the cache; zero fields take DefaultLimits.
	Limits Limits
	// Progress receives go-command-style progress lines during an install
	// ("go: downloading example.com/m v1.0.0"); nil discards them.
	Progress io.Writer
	// HTTPClient fetches from the proxy; nil means a client that honours
	// HTTPS_PROXY and friends.
	HTTPClient *http.Client
	// Logger receives the cache's own diagnostics (evictions, cleanup of
	// interrupted installs); nil discards them.
	Logger *slog.Logger
}

// Errors callers can test for with errors.Is.
var (
	// ErrInstallsDisabled: the set is not cached and Options.AllowInstall
	// is false.
	ErrInstallsDisabled = errors.New("package installs are disabled on this server")
	// ErrChecksumMismatch: a download does not match the checksum database.
	ErrChecksumMismatch = errors.New("checksum mismatch")
	// ErrLimit: an install went over one of the Limits.
	ErrLimit = errors.New("over the server's package limits")
)

// cacheKey is the hex SHA-256 of everything an environment depends on:
// the sorted requirements, the kernel and Go versions and the checksum
// database that vouched for the code.
func cacheKey(mods []module.Version, kernelVersion, sumdbName string) string {
	h := sha256.New()
	io.WriteString(h, "sbir-kernel package environment v1\n")
	io.WriteString(h, "kernel "+kernelVersion+"\n")
	io.WriteString(h, "go "+runtime.Version()+"\n")
	io.WriteString(h, "sumdb "+sumdbName+"\n")
	for _, m := range mods {
		io.WriteString(h, "require "+m.Path+" "+m.Version+"\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sumdbName returns the server name of a verifier key ("sum.golang.org").
func sumdbName(key string) string {
	name, _, _ := strings.Cut(key, "+")
	return name
}
