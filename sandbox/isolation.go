package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// ErrIsolationMissing is wrapped by the error NewSession returns when
// Options.RequireIsolation is set and a layer is not active on this host.
var ErrIsolationMissing = errors.New("sandbox: isolation layers missing")

// ErrClosed is returned by the methods of a closed Session.
var ErrClosed = errors.New("sandbox: the session is closed")

// spawnAttempts is how many times a worker start is tried before the
// session reports the failure.
const spawnAttempts = 3

// Isolation is what this host lets the supervisor do for its workers. It is
// detected once, when a kernel or server starts ([DetectIsolation]), and
// then holds for every worker: a later failure to start one is retried or
// reported, never answered with weaker isolation.
type Isolation struct {
	// Namespaces reports whether workers get their own user, network, pid,
	// mount, ipc and uts namespaces.
	Namespaces bool
	// Reason says why Namespaces is false, and what to check.
	Reason string
}

// DetectIsolation finds out whether this host lets the supervisor create
// the worker's namespaces, by starting one short-lived process in them.
func DetectIsolation() Isolation {
	exe, err := os.Executable()
	if err != nil {
		return Isolation{Reason: "could not find the executable to probe with: " + err.Error()}
	}
	cmd := exec.Command(exe, wire.ProbeArg)
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		cmd.Path = "/proc/self/exe"
	}
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.SysProcAttr = procAttr(true)
	if !namespacesPossible {
		return Isolation{Reason: namespaceDetail()}
	}
	if err := cmd.Start(); err != nil {
		return Isolation{Reason: "the host refused to create them: " + err.Error() +
			" (containers often forbid user namespaces; on Debian/Ubuntu check kernel.unprivileged_userns_clone and apparmor_restrict_unprivileged_userns)"}
	}
	// The probe needs only to exist: it is killed before it does anything.
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return Isolation{Namespaces: true}
}

// requireIsolation stops worker p and returns an error wrapping
// ErrIsolationMissing when opts.RequireIsolation is set and one of p's
// layers is not active.
func requireIsolation(p *proc, opts Options) error {
	if !opts.RequireIsolation {
		return nil
	}
	missing := inactive(p.layers)
	if len(missing) == 0 {
		return nil
	}
	p.kill("")
	<-p.exited
	return fmt.Errorf("%w: --require-isolation: these isolation layers are not active on this host: %s", ErrIsolationMissing, strings.Join(missing, "; "))
}

// inactive lists the layers that did not apply, with the reason.
func inactive(layers []Layer) []string {
	var out []string
	for _, l := range layers {
		if !l.Active {
			out = append(out, l.Name+" ("+l.Detail+")")
		}
	}
	return out
}
