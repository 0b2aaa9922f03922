//go:build linux

package isolate

import (
	"fmt"
	"os"
	"runtime"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
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
// (DenyExec) before any of the cell's code runs; the layers, kept across
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

// TightenAddressSpace lowers RLIMIT_AS to the address space the process
// has now (read from wire.StatusFD) plus room for its heap to reach 1.25
// times heapBytes, as the worker's is set, and reserve bytes more (the
// data, when the program maps it after). A compiled cell's runtime
// calls it once its own runtime has started and the data is mapped: the
// launcher could only bound the program by its own, larger, address space
// and the data's size, which let one allocation pass the budget by half a
// gigabyte before the heap watchdog's next look. It never raises the
// limit, and closes the descriptor (when the launcher opened one).
func TightenAddressSpace(heapBytes, reserve int64) error {
	var fs unix.Statfs_t
	if unix.Fstatfs(wire.StatusFD, &fs) != nil || fs.Type != unix.PROC_SUPER_MAGIC {
		return nil // no isolation: the launcher opened nothing
	}
	f := os.NewFile(wire.StatusFD, "/proc/self/status")
	defer f.Close()
	vm, err := vmSizeIn(f)
	if err != nil {
		return fmt.Errorf("reading the address space: %w", err)
	}
	as := addressSpace(vm+max(0, reserve), heapInUse(), heapBytes)
	var cur unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &cur); err != nil {
		return err
	}
	if cur.Cur != unix.RLIM_INFINITY && cur.Cur <= as {
		return nil
	}
	return unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: as, Max: as})
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

// DenyExec forbids execve and execveat to every thread of the process,
// for good: a compiled cell's runtime calls it first, so that the one
// exec its launcher was allowed cannot be used again.
func DenyExec() error {
	if !seccomp.Supported() {
		return nil // the launcher reported seccomp as missing
	}
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{{
				Action: seccomp.ActionErrno,
				Names:  supportedSyscalls([]string{"execve", "execveat"}),
			}},
		},
	})
}
