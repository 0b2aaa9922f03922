//go:build !linux

package sandbox

import (
	"os"
	"runtime"
	"syscall"
)

const unsupported = "not available on " + runtime.GOOS + " (Linux only)"

func procAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func namespaceDetail() string { return unsupported }

// inheritedPath is how the worker names a file the supervisor passed it:
// without /proc, by its path (the worker runs as the same user).
func inheritedPath(_ int, path string) string { return path }

func blockingPipe() (r, w *os.File, err error) { return os.Pipe() }

// growPipe is a no-op where pipes cannot be resized.
func growPipe(*os.File, int) {}

// namespacesPossible reports whether this system has the worker's
// namespaces at all.
const namespacesPossible = false
