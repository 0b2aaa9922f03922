//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// nobodyID is the host uid and gid a worker runs as when the supervisor
// may map it (the supervisor is root); otherwise the worker keeps the
// supervisor's uid inside its user namespace.
const nobodyID = 65534

// namespaceFlags are the namespaces a worker gets when the host allows.
const namespaceFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID |
	syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// procAttr returns the process attributes of a worker: its own process
// group, SIGKILL when the supervisor's thread dies, and the namespaces
// when withNamespaces is set.
func procAttr(withNamespaces bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if !withNamespaces {
		return a
	}
	a.Cloneflags = namespaceFlags
	hostID := os.Geteuid()
	hostGID := os.Getegid()
	if hostID == 0 {
		hostID, hostGID = nobodyID, nobodyID
	}
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: hostID, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: hostGID, Size: 1}}
	a.GidMappingsEnableSetgroups = false
	// Without an explicit credential the child keeps the supervisor's
	// host identity for file access; uid 0 inside maps to the host id.
	a.Credential = &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: true}
	return a
}

// inheritedPath is how the worker names a file the supervisor passed it
// as descriptor fd: the magic link needs no permission on the directories
// above the file, which the worker's uid may lack.
func inheritedPath(fd int, _ string) string { return fmt.Sprintf("/proc/self/fd/%d", fd) }

// namespaceDetail describes the namespaces layer when it is active.
func namespaceDetail() string {
	who := "the supervisor's uid " + strconv.Itoa(os.Geteuid())
	if os.Geteuid() == 0 {
		who = "host uid 65534 (nobody)"
	}
	return "user (running as " + who + "), network (no interfaces up), pid (the worker is pid 1), mount, ipc and uts namespaces"
}

// blockingPipe returns a pipe in blocking mode. Reads then block their
// thread in the kernel instead of going through the network poller, which
// halves the latency of a request/reply exchange with the worker.
func blockingPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("creating a pipe: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

// growPipe asks for a pipe buffer of size bytes, so that a frame of
// output crosses in one write instead of a pipe's default 64 KiB at a
// time, with the worker and the supervisor waking each other between
// them. The kernel may refuse (a user over fs.pipe-user-pages-soft, a size
// over fs.pipe-max-size); the pipe then keeps its size, which is only
// slower.
func growPipe(f *os.File, size int) {
	unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, size)
}

// namespacesPossible reports whether this system has the worker's
// namespaces at all (whether the host allows them is probed).
const namespacesPossible = true
