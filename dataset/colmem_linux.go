package dataset

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapColumn maps at least size bytes of zeroed private memory for a
// column, aligned to and rounded up to huge pages, or reports false (the
// caller then allocates from the heap): under a RLIMIT_AS, for instance.
//
// The pointer forms of mmap and munmap are used because unmapColumn
// unmaps a buffer in pieces, which unix.Munmap refuses (it only takes a
// whole mapping that unix.Mmap made).
func mapColumn(size int) ([]byte, bool) {
	n := int(hugeUp(uintptr(size)))
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(n+hugePage), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, false
	}
	// Trim the mapping to n bytes at a huge-page boundary.
	head := int(hugeUp(uintptr(p)) - uintptr(p))
	if head > 0 {
		mustUnmap(p, head)
	}
	if tail := hugePage - head; tail > 0 {
		mustUnmap(unsafe.Add(p, head+n), tail)
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, head)), n)
	// Advice only. Huge pages, because what dropWriter hands back is then
	// whole free blocks, which the page cache's large folios take: the
	// write became steady. Faulting them in on the 2-core VM takes 37–500
	// ms for the full-scale file's ~400 MB (fast when the host still backs
	// recently freed memory), 4 KiB pages a steady ~215; without
	// dropWriter huge pages were a loss, with it a gain (docs/performance.md,
	// "Huge pages handed to the page cache"). Not inherited: otherwise a
	// fork copies these page tables too.
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	_ = unix.Madvise(b, unix.MADV_DONTFORK)
	return b, true
}

// dropPages gives the whole huge pages inside b, part of a buffer from
// mapColumn, back to the kernel now. The range stays mapped (and reads as
// zeros) until unmapColumn.
func dropPages(b []byte) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	first := int(hugeUp(base) - base)
	last := int(hugeDown(base+uintptr(len(b))) - base)
	if last <= first {
		return
	}
	// Advice only: if refused, the pages go back with unmapColumn.
	_ = unix.Madvise(b[first:last], unix.MADV_DONTNEED)
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
		mustUnmap(unsafe.Pointer(unsafe.SliceData(b)), n)
		b = b[n:]
	}
}

// mustUnmap unmaps n bytes at p. Only a bad address or length fails, which
// would be a bug here; the memory stays mapped rather than risk more.
func mustUnmap(p unsafe.Pointer, n int) {
	if err := unix.MunmapPtr(p, uintptr(n)); err != nil {
		panic("dataset: unmapping column memory: " + err.Error())
	}
}
