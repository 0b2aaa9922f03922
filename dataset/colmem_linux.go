package dataset

import "golang.org/x/sys/unix"

// mapColumn maps size bytes of zeroed private memory for a column, or
// reports false (the caller then allocates from the heap): under a
// RLIMIT_AS, for instance.
func mapColumn(size int) ([]byte, bool) {
	b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, false
	}
	// Advice only: if it is refused, a fork copies these page tables too.
	// Transparent huge pages (MADV_HUGEPAGE) were tried and dropped: on the
	// 2-core machine the first answer took 0.88 s instead of 0.62 (median
	// of 8 runs of bench/coldload.py), faulting a huge page in took from
	// 34 to 490 ms for the same 408 MB.
	_ = unix.Madvise(b, unix.MADV_DONTFORK)
	return b, true
}

func unmapColumn(b []byte) { _ = unix.Munmap(b) }
