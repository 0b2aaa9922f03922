//go:build linux

package isolate

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"golang.org/x/sys/unix"
)

// ApplyForExec applies Apply's layers to a launcher about to execute a
// compiled cell's program from descriptor execFD (a sealed memfd the
// supervisor filled): the same rlimits (the address space sized for the
// program, which maps the data and grows its own heap), Landlock with no file at all
// (which leaves the memfd executable: Landlock governs files reached by a
// path, and a memfd has none), and the same seccomp deny-list, file opens
// included, except that execveat of execFD with an empty path stays
// allowed. The program's runtime (package cellrt) forbids that too
// (cellguard.DenyExec) before any of the cell's code runs; the layers, kept across
// the exec, bound the program for the rest of its life.
func ApplyForExec(cfg wire.Config, execFD int) []wire.Layer {
	var layers []wire.Layer
	layers = append(layers, applyRlimits(cfg, true))
	layers = append(layers, applyLandlock("", nil))
	layers = append(layers, applySeccomp(true, execFD)...)
	return layers
}

// OpenStatus opens the process's /proc/self/status as descriptor
// wire.StatusFD, kept across exec, for TightenAddressSpace: the program
// may open no file, and procfs reads the status of the process as it is
// when read, after the exec too. The launcher calls it before the layers.
func OpenStatus() error {
	fd, err := unix.Open("/proc/self/status", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Dup3(fd, wire.StatusFD, 0)
}

// Exec executes the program in descriptor fd (execveat with AT_EMPTY_PATH)
// with argv and env. It returns only when the exec failed.
func Exec(fd int, argv, env []string) error {
	argvp, err := cStrings(argv)
	if err != nil {
		return err
	}
	envp, err := cStrings(env)
	if err != nil {
		return err
	}
	empty := []byte{0}
	// The exec replaces every thread; this one must not change under it.
	runtime.LockOSThread()
	_, _, errno := unix.Syscall6(unix.SYS_EXECVEAT, uintptr(fd), uintptr(unsafe.Pointer(&empty[0])),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])), unix.AT_EMPTY_PATH, 0)
	runtime.UnlockOSThread()
	return fmt.Errorf("executing the compiled cell: %w", errno)
}

// cStrings returns a NULL-terminated array of C strings.
func cStrings(ss []string) ([]*byte, error) {
	out := make([]*byte, len(ss)+1)
	for i, s := range ss {
		p, err := unix.BytePtrFromString(s)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}
