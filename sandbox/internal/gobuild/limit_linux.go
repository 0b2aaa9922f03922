//go:build linux

package gobuild

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// procAttr puts the build in its own process group, killed with the
// kernel.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// limit sets the build's resource limits on process pid, cpu its CPU
// time (whole seconds, at least one).
func limit(pid int, l Limits, cpu time.Duration) {
	for _, r := range []struct {
		res int
		val uint64
	}{
		{unix.RLIMIT_AS, uint64(l.MemoryBytes)},
		{unix.RLIMIT_CPU, uint64(max(time.Second, cpu).Seconds())},
		{unix.RLIMIT_FSIZE, 1 << 30},
		{unix.RLIMIT_CORE, 0},
	} {
		_ = unix.Prlimit(pid, r.res, &unix.Rlimit{Cur: r.val, Max: r.val}, nil)
	}
}
