package dataset

import (
	"errors"
	"io"
	"sync"
	"unsafe"
)

// columnMemory hands out the buffers a conversion's columns grow into and
// takes them all back when the conversion is done.
//
// Large buffers are mapped outside the Go heap (colmem_linux.go) for what
// happens right after a conversion, on the path to a kernel's first answer
// (measured on the full-scale file, 2-core machine, run --log-level debug):
//
//   - the sandbox worker is started in a new user namespace, which Go forks
//     without CLONE_VM, so the page tables of every page the process maps
//     are copied; the freed columns, still mapped in the Go heap, made the
//     worker's start 65–75 ms instead of 45–52. The mappings are marked
//     not to be inherited.
//   - the Go heap keeps freed columns until the collector runs again, at
//     twice the conversion's peak (~440 MiB resident). Mapped columns go
//     back as the Arrow file is written (dropWriter), and release unmaps
//     what is left: with DeferSync, once the caller's worker is up.
//   - the write itself: a column's huge pages, given back as soon as the
//     file holds their bytes, are the free blocks the file's page cache
//     takes next; without them it took memory the VM's host had to supply
//     afresh, and the write of ~400 MB took 105–550 ms instead of ~105.
//   - unmapping holds the process's mmap lock, which the kernel's check of
//     the new file and the worker's fork both need: all ~400 MB unmapped
//     as the conversion returned cost the worker's start ~25 ms, what is
//     left after the write ~3 ms; Locate with DeferSync unmaps it when the
//     caller starts the sync.
//
// Only pointer-free element types are ever placed in mapped memory: the
// garbage collector neither scans nor frees it.
type columnMemory struct {
	mu      sync.Mutex
	buffers [][]byte
	dropped []addrRange // parts of buffers already given back (dropWriter)
}

// addrRange is a range of addresses, [lo, hi).
type addrRange struct{ lo, hi uintptr }

func rangeOf(b []byte) addrRange {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return addrRange{lo, lo + uintptr(len(b))}
}

func (s addrRange) overlaps(t addrRange) bool { return s.lo < t.hi && t.lo < s.hi }

// hugePage is the size of a transparent huge page where base pages are
// 4 KiB (x86-64, most arm64). Column buffers are mapped in whole, aligned
// huge pages so that each one the writer is done with goes back to the
// kernel as one free block (dropWriter).
const hugePage = 2 << 20

// hugeUp and hugeDown round an address to a huge-page boundary.
func hugeUp(a uintptr) uintptr   { return (a + hugePage - 1) &^ (hugePage - 1) }
func hugeDown(a uintptr) uintptr { return a &^ (hugePage - 1) }

// mapThreshold is the smallest buffer worth a mapping of its own: smaller
// ones (most validity bitmaps, the sample's columns) come from the heap.
const mapThreshold = 2 << 20

// release unmaps every buffer handed out, in the background. Nothing may
// use them afterwards: the conversion calls it once the Arrow file is
// written and its arrays are released.
func (m *columnMemory) release() {
	m.mu.Lock()
	mapped := m.buffers
	m.buffers, m.dropped = nil, nil
	m.mu.Unlock()
	if len(mapped) == 0 {
		return
	}
	go func() {
		for _, b := range mapped {
			unmapColumn(b)
		}
	}()
}

// dropWriter writes to w, then gives back the memory of what it wrote
// when that is part of a column buffer of mem: the Arrow writer hands the
// column buffers to Write in file order and never again, so each huge
// page of a column goes back to the kernel as soon as the file's page
// cache holds its bytes, and the page cache takes the same blocks for the
// next ones. Writing the full-scale file's ~400 MB this way took 99–114
// ms in every run on the 2-core VM, against 105–550 ms into fresh memory
// (docs/performance.md, "Huge pages handed to the page cache").
//
// A write of memory already given back would put zeros in the file: it
// fails instead.
type dropWriter struct {
	w   io.Writer
	mem *columnMemory
}

func (d dropWriter) Write(p []byte) (int, error) {
	mapped, err := d.mem.mapped(p)
	if err != nil {
		return 0, err
	}
	if !mapped {
		return d.w.Write(p)
	}
	// In pieces ending at huge-page boundaries (p need not start at one):
	// a huge page split between two pieces would never be given back.
	base := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
	var n int
	for n < len(p) {
		end := int(hugeDown(base+uintptr(n+dropPiece)) - base)
		k, err := d.w.Write(p[n:min(len(p), end)])
		d.mem.drop(p[n : n+k])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// dropPiece is how much of a column dropWriter writes before it gives
// that memory back: a few huge pages.
const dropPiece = 4 << 20

// errRewrite reports a bug in how the writer uses column memory.
var errRewrite = errors.New("dataset: column memory given back to the system was written again")

// mapped reports whether p lies in one of m's mapped buffers, and fails if
// part of it was given back already: its bytes would be zeros.
func (m *columnMemory) mapped(p []byte) (bool, error) {
	if len(p) == 0 {
		return false, nil
	}
	s := rangeOf(p)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range m.dropped {
		if d.overlaps(s) {
			return false, errRewrite
		}
	}
	for _, b := range m.buffers {
		if bs := rangeOf(b); bs.lo <= s.lo && s.hi <= bs.hi {
			return true, nil
		}
	}
	return false, nil
}

// drop gives back the whole huge pages of p, part of a mapped buffer.
func (m *columnMemory) drop(p []byte) {
	if len(p) == 0 {
		return
	}
	dropPages(p)
	m.mu.Lock()
	m.dropped = append(m.dropped, rangeOf(p))
	m.mu.Unlock()
}

// grow returns s with room for at least more elements beyond its length,
// like slices.Grow, taking a large new buffer from m (when m is not nil).
func grow[T byte | int16 | int32 | int64 | float64](m *columnMemory, s []T, more int) []T {
	if cap(s)-len(s) >= more {
		return s
	}
	n := len(s) + more
	size := n * int(unsafe.Sizeof(*new(T)))
	if m == nil || size < mapThreshold {
		ns := make([]T, len(s), n)
		copy(ns, s)
		return ns
	}
	b, ok := mapColumn(size)
	if !ok {
		ns := make([]T, len(s), n)
		copy(ns, s)
		return ns
	}
	m.mu.Lock()
	m.buffers = append(m.buffers, b)
	m.mu.Unlock()
	ns := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)[:len(s)]
	copy(ns, s)
	return ns
}
