package dataset

import (
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
//     twice the conversion's peak (~440 MiB resident); release unmaps them
//     in the background, a piece at a time. Unmapping ~104,000 pages takes
//     ~25 ms of a core and the mmap lock, which the kernel's check of the
//     new file and the worker's fork both need: Locate with DeferSync
//     releases only when the caller starts the sync, once its worker is
//     up (27–37 ms from conversion to worker start became 1.5 ms).
//
// Only pointer-free element types are ever placed in mapped memory: the
// garbage collector neither scans nor frees it.
type columnMemory struct {
	mu     sync.Mutex
	mapped [][]byte
}

// mapThreshold is the smallest buffer worth a mapping of its own: smaller
// ones (most validity bitmaps, the sample's columns) come from the heap.
const mapThreshold = 2 << 20

// release unmaps every buffer handed out, in the background. Nothing may
// use them afterwards: the conversion calls it once the Arrow file is
// written and its arrays are released.
func (m *columnMemory) release() {
	m.mu.Lock()
	mapped := m.mapped
	m.mapped = nil
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
	m.mapped = append(m.mapped, b)
	m.mu.Unlock()
	ns := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)[:len(s)]
	copy(ns, s)
	return ns
}
