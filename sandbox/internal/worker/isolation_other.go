//go:build !linux

package worker

import (
	"runtime"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// On systems other than Linux the worker is still a separate, supervised
// process with an empty environment, but none of the kernel isolation
// layers exist: every layer reports why.

const unsupported = "not available on " + runtime.GOOS + " (Linux only)"

var reexecErr error

func maybeReexecLandlocked(int, int) error { return nil }

func applyIsolation(wire.Config) []wire.Layer {
	var layers []wire.Layer
	for _, name := range []string{"rlimits", "landlock", "seccomp", "no_new_privs"} {
		layers = append(layers, wire.Layer{Name: name, Detail: unsupported})
	}
	return layers
}

func runProbes(wire.ProbeTarget) []wire.ProbeResult { return nil }
