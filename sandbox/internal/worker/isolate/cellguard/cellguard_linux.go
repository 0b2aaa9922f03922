//go:build linux

package cellguard

import (
	"fmt"
	"os"
	"syscall"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
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
	var fs syscall.Statfs_t
	if syscall.Fstatfs(wire.StatusFD, &fs) != nil || fs.Type != procSuperMagic {
		return nil // no isolation: the launcher opened nothing
	}
	f := os.NewFile(wire.StatusFD, "/proc/self/status")
	defer f.Close()
	vm, err := VMSizeIn(f)
	if err != nil {
		return fmt.Errorf("reading the address space: %w", err)
	}
	as := AddressSpace(vm+max(0, reserve), HeapInUse(), heapBytes)
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &cur); err != nil {
		return err
	}
	if cur.Cur != rlimInfinity && cur.Cur <= as {
		return nil
	}
	return syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as})
}

// procSuperMagic is procfs's f_type, rlimInfinity RLIM_INFINITY (package
// syscall names neither; this package uses it, not x/sys/unix, which
// every cell would link for them).
const (
	procSuperMagic = 0x9fa0
	rlimInfinity   = ^uint64(0)
)
