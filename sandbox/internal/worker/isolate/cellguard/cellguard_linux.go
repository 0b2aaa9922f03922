//go:build linux

package cellguard

import (
	"fmt"
	"os"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"golang.org/x/sys/unix"
)

// AddressSpaceSlack is the address space RLIMIT_AS allows the worker
// beyond 1.25 times its heap budget: the runtime's metadata for a heap
// that grows, and in a cgo build (tests) the C library's stacks of the
// threads it adds. It is the most the heap can pass 1.25 times its budget
// by when the heap watchdog is late.
const AddressSpaceSlack = 16<<20 + cgoThreadSlack

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
	vm, err := VMSizeIn(f)
	if err != nil {
		return fmt.Errorf("reading the address space: %w", err)
	}
	as := AddressSpace(vm+programSlack+max(0, reserve), HeapInUse(), heapBytes)
	var cur unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &cur); err != nil {
		return err
	}
	if cur.Cur != unix.RLIM_INFINITY && cur.Cur <= as {
		return nil
	}
	return unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: as, Max: as})
}

// programSlack is what a compiled cell's program may map beyond the
// worker's formula: with less, a heap grown a piece at a time sometimes
// met the limit inside the runtime, which then ended with status 2 and
// no report, before the heap watchdog's MemoryError.
const programSlack = 64 << 20

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
				Names:  execCalls(),
			}},
		},
	})
}

// execCalls are execve and execveat, less any the architecture does not
// have (LoadFilter would reject it).
func execCalls() []string {
	names := []string{"execve", "execveat"}
	info, err := arch.GetInfo("")
	if err != nil {
		return names
	}
	var out []string
	for _, n := range names {
		if _, ok := info.SyscallNames[n]; ok {
			out = append(out, n)
		}
	}
	return out
}
