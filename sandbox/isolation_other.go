//go:build !linux

package sandbox

import (
	"os"
	"runtime"
	"syscall"
)

// On systems other than Linux the worker is still a separate, supervised
// process with an empty environment, but none of the kernel isolation
// layers exist: every layer reports why.

const unsupported = "not available on " + runtime.GOOS + " (Linux only)"

var reexecErr error

func procAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func namespaceDetail() string { return unsupported }

// inheritedPath is how the worker names a file the supervisor passed it:
// without /proc, by its path (the worker runs as the same user).
func inheritedPath(_ int, path string) string { return path }

func maybeReexecLandlocked(int, int) error { return nil }

func applyIsolation(workerConfig) []Layer {
	var layers []Layer
	for _, name := range []string{"rlimits", "landlock", "seccomp", "no_new_privs"} {
		layers = append(layers, Layer{Name: name, Detail: unsupported})
	}
	return layers
}

func runProbes(probeTarget) []probeResult { return nil }

func blockingPipe() (r, w *os.File, err error) { return os.Pipe() }
