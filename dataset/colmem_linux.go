package dataset

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapColumn maps size bytes of zeroed private memory for a column, or
// reports false (the caller then allocates from the heap): under a
// RLIMIT_AS, for instance.
//
// The pointer forms of mmap and munmap are used because unmapColumn
// unmaps a buffer in pieces, which unix.Munmap refuses (it only takes a
// whole mapping that unix.Mmap made).
func mapColumn(size int) ([]byte, bool) {
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, false
	}
	b := unsafe.Slice((*byte)(p), size)
	// Advice only: if it is refused, a fork copies these page tables too.
	// Transparent huge pages (MADV_HUGEPAGE) were tried and dropped: on the
	// 2-core machine the first answer took 0.88 s instead of 0.62 (median
	// of 8 runs of bench/coldload.py), faulting a huge page in took from
	// 34 to 490 ms for the same 408 MB. So was MADV_POPULATE_WRITE of each
	// buffer as it is mapped: the scan took 405–412 ms instead of 363–376
	// (4 alternating pairs), populating the estimate's slack as well.
	_ = unix.Madvise(b, unix.MADV_DONTFORK)
	return b, true
}

// unmapPiece is how much unmapColumn unmaps per call. munmap holds the
// process's mmap lock while it frees the pages, and whatever else maps or
// unmaps memory meanwhile (the Go heap growing, a file being checked, a
// fork) waits for one piece instead of a whole column of up to ~100 MB:
// with the unmapping started as the conversion returned, the check of the
// new Arrow file took 9–16 ms instead of 27–37.
const unmapPiece = 8 << 20

// unmapColumn unmaps b, a buffer from mapColumn, a piece at a time.
func unmapColumn(b []byte) {
	for len(b) > 0 {
		n := min(len(b), unmapPiece)
		if err := unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(n)); err != nil {
			// Only a bad address or length fails, which would be a bug
			// here; the rest of b stays mapped rather than risk more.
			panic("dataset: unmapping column memory: " + err.Error())
		}
		b = b[n:]
	}
}
