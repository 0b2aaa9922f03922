//go:build linux

package isolate

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"golang.org/x/sys/unix"
)

// landlockedArg is argv[2] of a worker that re-executed itself under
// Landlock (cgo builds; see ReexecLandlocked).
const landlockedArg = "landlocked"

// reexecLandlocked reports whether this worker already runs under the
// Landlock domain its first stage set up.
func reexecLandlocked() bool { return len(os.Args) > 2 && os.Args[2] == landlockedArg }

// ReexecLandlocked applies Landlock in cgo builds, where restricting
// every thread of a running Go process is impossible: it restricts the
// current thread only, then executes the binary again from that thread, so
// that the new process starts inside the domain with all its threads. The
// domain allows reading the data file (fd dataFD, if open), reading the
// package environment beneath directory fd pkgFD (if open), and reading and
// executing the binary itself and the system libraries a dynamically linked
// binary loads (needed for the exec; seccomp later forbids any other exec).
// It returns only when it did not re-execute, with the reason when it
// should have (for Apply's report).
func ReexecLandlocked(dataFD, pkgFD int) error {
	if !builtWithCgo || reexecLandlocked() {
		return nil
	}
	abi := landlockABI()
	if abi == 0 {
		return nil
	}
	runtime.LockOSThread()
	// Locked for good: on failure the thread is restricted and must not be
	// reused by other goroutines.
	attr := unix.LandlockRulesetAttr{Handled_access_fs: landlockFSRights(abi)}
	size := unsafe.Sizeof(attr.Handled_access_fs)
	if abi >= 4 {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size += unsafe.Sizeof(attr.Handled_access_net)
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size += unsafe.Sizeof(attr.Scoped)
	}
	rfd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	defer unix.Close(int(rfd))
	exe, err := unix.Open("/proc/self/exe", unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("opening the executable: %w", err)
	}
	defer unix.Close(exe)
	read := uint64(unix.LANDLOCK_ACCESS_FS_READ_FILE)
	rules := []unix.LandlockPathBeneathAttr{{Allowed_access: read | unix.LANDLOCK_ACCESS_FS_EXECUTE, Parent_fd: int32(exe)}}
	if dataFD >= 0 {
		rules = append(rules, unix.LandlockPathBeneathAttr{Allowed_access: read, Parent_fd: int32(dataFD)})
	}
	if pkgFD >= 0 {
		rules = append(rules, unix.LandlockPathBeneathAttr{Allowed_access: read | unix.LANDLOCK_ACCESS_FS_READ_DIR, Parent_fd: int32(pkgFD)})
	}
	// A cgo binary is dynamically linked: the loader must read and map
	// the system libraries when the worker executes again.
	for _, dir := range []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib", "/etc/ld.so.cache"} {
		fd, err := unix.Open(dir, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		defer unix.Close(fd)
		rules = append(rules, unix.LandlockPathBeneathAttr{Allowed_access: read | unix.LANDLOCK_ACCESS_FS_EXECUTE, Parent_fd: int32(fd)})
	}
	for _, r := range rules {
		if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, rfd, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&r)), 0, 0, 0); errno != 0 {
			return fmt.Errorf("landlock_add_rule: %w", errno)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, rfd, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	args := []string{os.Args[0], wire.WorkerArg, landlockedArg}
	err = syscall.Exec("/proc/self/exe", args, os.Environ())
	return fmt.Errorf("re-executing the worker under Landlock: %w", err)
}

// landlockFSRights is every filesystem right the ABI knows.
func landlockFSRights(abi int) uint64 {
	rights := uint64(1<<13 - 1) // ABI 1: execute … make_sym
	if abi >= 2 {
		rights |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		rights |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		rights |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return rights
}
