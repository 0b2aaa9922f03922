// Package pkgenv gives notebook sessions third-party Go packages: cached,
// verified, pre-flighted in the sandbox, and installed only behind a
// trust gate.
//
// # Declaring packages
//
// A cell declares the modules it needs with a line comment:
//
//	//sbir:require github.com/montanaflynn/stats v0.7.1
//	import "github.com/montanaflynn/stats"
//
// ParseRequirements finds the declarations (path version, or
// path@version; exact versions only) and reports misspelt directives and
// missing or inexact versions with a suggested fix rather than ignoring
// them.
//
// # Environments
//
// Ensure turns a requirement set into an environment: a directory in
// GOPATH layout (Dir/src/<import path>/...) holding the requested modules
// and every module their packages import, which the sandbox hands to the
// worker read-only as yaegi's GoPath. An environment is named by the
// SHA-256 of the sorted requirements, the kernel version, the Go version
// and the checksum database, and shared by every session that asks for
// the same set. Environments are never modified once published.
//
// Installing resolves versions with minimal version selection over the
// modules' go.mod files and downloads zips from the module proxy only (no
// "direct" fallback, so no VCS tools and no host but the proxy), verifying
// every go.mod and zip against the checksum database, which is itself
// reached through the proxy. golang.org/x/mod does the work: hosts need no
// Go toolchain. As with GOTOOLCHAIN=local, a module that needs a newer Go
// is refused. Packages that import "C" are marked unusable. Only modules
// that provide packages the requested modules import are downloaded, as
// the go command's lazy loading does (a test-only dependency never is).
// Then the sandbox's pre-flight (Options.Preflight) imports every package
// of the requested modules once, in the real sandbox, and its verdicts
// (imports a forbidden package, a constraint the interpreter ignores, an
// interpreter crash) are stored with the environment, so later sessions
// get the same answers without re-checking.
//
// Installs are capped in time, module count and unpacked size (Limits),
// and fail with messages in the go command's style, ready to print in the
// cell's output.
//
// # Concurrency, crashes and eviction
//
// Each environment has a lock file. Sessions hold it shared for as long
// as they use the environment; an install or an eviction holds it
// exclusively. So concurrent sessions in any number of processes build a
// set once (the others wait, then share it), and eviction never removes
// an environment in use. An install is built in a temporary directory and
// published by renaming it into place, with its manifest written last: an
// install that fails or is killed (even with SIGKILL) leaves nothing a
// later Ensure would use, and the next install of that set, or Prune,
// removes its leftovers.
//
// Every use touches the environment's last-used stamp. After each
// install, and when an administrator runs "sbir-kernel packages prune",
// Prune evicts the least recently used environments until the cache fits
// its budget.
//
// # The trust gate
//
// Installs spend network, disk and CPU, and run code from the internet
// through pre-flight, so they happen only when Options.AllowInstall is
// set (the kernel's --allow-packages option); otherwise a set that is not
// cached fails with ErrInstallsDisabled. Environments already in the
// cache may be used without the gate: a trusted session installed,
// verified and pre-flighted them, using one costs nothing, and the code
// in them is bound by the same sandbox and symbol table as cells. An
// administrator can thus offer a fixed set of packages to anonymous users
// by warming the cache from a trusted session.
//
// # Command-line options
//
// Options.RegisterFlags defines the options the kernel, "sbir-kernel run"
// and "sbir-kernel install" share (--allow-packages, --packages-proxy,
// --packages-sumdb and the limits), and Options.Args renders them for a
// kernelspec's argv. The sandbox (package sandbox) supplies Preflight
// and Progress itself.
//
// # Testing
//
// Package pkgenvtest serves a module proxy and checksum database from a
// temporary directory, so that tests of code that installs packages never
// reach the network.
package pkgenv
