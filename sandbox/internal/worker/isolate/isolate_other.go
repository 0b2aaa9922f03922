//go:build !linux

package isolate

import (
	"errors"
	"runtime"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// On systems other than Linux the worker is still a separate, supervised
// process with an empty environment, but none of the kernel isolation
// layers exist: every layer reports why.

const unsupported = "not available on " + runtime.GOOS + " (Linux only)"

// ReexecLandlocked does nothing: there is no Landlock.
func ReexecLandlocked(int, int) error { return nil }

// Apply reports every in-process layer as unavailable.
func Apply(wire.Config, error) []wire.Layer {
	var layers []wire.Layer
	for _, name := range []string{"rlimits", "landlock", "seccomp", "no_new_privs"} {
		layers = append(layers, wire.Layer{Name: name, Detail: unsupported})
	}
	return layers
}

// Probe attempts nothing: the layers it would test do not exist.
func Probe(wire.ProbeTarget) []wire.ProbeResult { return nil }

// ApplyForExec reports every in-process layer as unavailable.
func ApplyForExec(cfg wire.Config, _ int) []wire.Layer { return Apply(cfg, nil) }

// Exec fails: compiled cells run on Linux only.
func Exec(int, []string, []string) error {
	return errors.New("compiled cells run on Linux only")
}

// AddressSpaceSlack is 0: there is no address-space limit here (only the
// heap watchdog).
const AddressSpaceSlack = 0

// OpenStatus does nothing: compiled cells run on Linux only.
func OpenStatus() error { return nil }
