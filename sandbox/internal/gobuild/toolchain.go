// Package gobuild builds compiled cells with the Go toolchain (gc), in
// the supervisor's process and outside the sandbox: the build runs no code
// of the cell (no cgo, no go generate, no toolexec, no //go: directives,
// which cellprep refuses), with a fixed environment, its own limits on
// time, memory and output, in a process group killed on timeout or
// interrupt. The module's own packages that compiled cells link come from
// source the binary carries, written once to a cache directory; the
// third-party modules they import come from a module cache, verified
// against the carried go.sum. Binaries are cached by the content of what
// produced them.
package gobuild

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A Toolchain is the go command compiled cells are built with, and what
// `go env` says of it in the environment of the process that found it.
type Toolchain struct {
	// Go is the absolute path of the go command.
	Go string
	// Version is its Go version, e.g. "go1.26.8".
	Version string
	// GOROOT is where its standard library is.
	GOROOT string
	// ToolDir is where its compiler and linker are (GOTOOLDIR).
	ToolDir string
	// GoCache, ModCache, Proxy and SumDB are its GOCACHE, GOMODCACHE,
	// GOPROXY and GOSUMDB: a machine whose caches already hold what
	// compiled cells need (the packages award_data imports, compiled; the
	// modules they come from) builds without compiling or downloading
	// them again. GoCache and ModCache are "" when `go env` could not name
	// them (no HOME).
	GoCache, ModCache, Proxy, SumDB string
}

// ErrNoToolchain is wrapped by Find's error when there is no go command.
var ErrNoToolchain = errors.New("no Go toolchain")

// envTimeout bounds `go env`.
const envTimeout = 30 * time.Second

// Find describes the go command at path (a path, or a name looked up in
// env's PATH) with env as its environment. It fails when the command is
// missing, does not answer, or is older than minVersion (the go line of
// the module compiled cells are built in).
func Find(ctx context.Context, path string, env []string, minVersion string) (*Toolchain, error) {
	abs, err := lookPath(path, env)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, envTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, abs, "env", "-json", "GOVERSION", "GOROOT", "GOTOOLDIR", "GOCACHE", "GOMODCACHE", "GOPROXY", "GOSUMDB")
	cmd.Dir = "/" // no go.mod or go.work of the current directory applies
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s env failed: %v %s", ErrNoToolchain, abs, err, strings.TrimSpace(stderr.String()))
	}
	var e map[string]string
	if err := json.Unmarshal(out, &e); err != nil {
		return nil, fmt.Errorf("%w: reading %s env: %v", ErrNoToolchain, abs, err)
	}
	tc := &Toolchain{Go: abs, Version: e["GOVERSION"], GOROOT: e["GOROOT"], ToolDir: e["GOTOOLDIR"], GoCache: e["GOCACHE"], ModCache: e["GOMODCACHE"], Proxy: e["GOPROXY"], SumDB: e["GOSUMDB"]}
	if !version.IsValid(tc.Version) {
		return nil, fmt.Errorf("%w: %s reports the version %q, not a Go release", ErrNoToolchain, abs, tc.Version)
	}
	if minVersion != "" && version.Compare(tc.Version, "go"+minVersion) < 0 {
		return nil, fmt.Errorf("%w: %s is %s; compiled cells need go%s or later (install a newer Go, or name one with --go)", ErrNoToolchain, abs, tc.Version, minVersion)
	}
	if tc.GoCache == "off" {
		tc.GoCache = ""
	}
	if tc.Proxy == "" {
		tc.Proxy = "https://proxy.golang.org,direct"
	}
	return tc, nil
}

// lookPath resolves path: a name without a slash is looked up in env's
// PATH (not this process's: the caller decides the environment).
func lookPath(path string, env []string) (string, error) {
	if path == "" {
		path = "go"
	}
	if strings.ContainsRune(path, '/') {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrNoToolchain, err)
		}
		if _, err := exec.LookPath(abs); err != nil {
			return "", fmt.Errorf("%w: %s is not an executable go command (%v)", ErrNoToolchain, path, err)
		}
		return abs, nil
	}
	dirs := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			dirs = v
		}
	}
	for _, dir := range filepath.SplitList(dirs) {
		if dir == "" {
			continue
		}
		cand := filepath.Join(dir, path)
		if _, err := exec.LookPath(cand); err == nil {
			if abs, err := filepath.Abs(cand); err == nil {
				return abs, nil
			}
		}
	}
	return "", fmt.Errorf("%w: no %s command on PATH (install Go from https://go.dev/dl, or name its go command with --go)", ErrNoToolchain, path)
}

// String describes the toolchain for doctor and logs.
func (t *Toolchain) String() string { return t.Version + " at " + t.Go }
