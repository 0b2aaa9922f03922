// Package cellguard is the part of the isolation a compiled cell's
// program applies to itself, in its runtime's init (package cellrt),
// before any of the cell's code: it forbids exec for good (the launcher's
// one allowed exec was the program's own) and lowers the address-space
// limit to what the program's heap budget needs. It also holds the
// address-space formula the worker's and the launcher's rlimits use
// (package isolate), so that all three agree.
//
// It is a package of its own, and imports little, because every compiled
// cell links it: package isolate's Landlock, probe (package net) and
// re-exec (os/exec) would add a fifth to the link of every cell's
// program.
package cellguard

import (
	"bufio"
	"fmt"
	"io"
	"runtime/metrics"
	"strconv"
	"strings"
)

// AddressSpace is a process's RLIMIT_AS: what it has mapped already (vm:
// the runtime's fixed reservations, the heap so far, heap of them, the
// data file) plus room for the heap to grow to 1.25 times its budget, and
// AddressSpaceSlack. The Go runtime reserves address space for its heap as it grows
// it (640 MB more heap took 656 MB more; its other reservations, ~1.2 GB,
// are made at its start), so this is what holds the budget where memory
// is taken: one allocation that would pass it (bytes.Buffer.Grow(3<<30),
// which zeroes what it takes) fails in the runtime ("out of memory", a
// MemoryError) before a page is touched, where the heap watchdog, which
// looks every 10 ms, saw it only after 3.1 GB were resident (issue 30,
// hole 3); and heap taken a piece at a time stops there however late the
// watchdog runs. It was vm + twice the budget + the data's size (mapped
// already, so counted twice) + 1 GiB.
func AddressSpace(vm, heap, heapBytes int64) uint64 {
	room := max(heapBytes+heapBytes/4-heap, 0)
	return uint64(vm+room+AddressSpaceSlack+(1<<20-1)) &^ (1<<20 - 1)
}

// HeapInUse is what the heap watchdog counts: objects and goroutine
// stacks.
func HeapInUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	var n int64
	for _, v := range s {
		if v.Value.Kind() == metrics.KindUint64 {
			n += int64(v.Value.Uint64())
		}
	}
	return n
}

// VMSizeIn reads VmSize from a /proc/<pid>/status at offset 0.
func VMSizeIn(f io.ReaderAt) (int64, error) {
	sc := bufio.NewScanner(io.NewSectionReader(f, 0, 1<<20))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmSize in /proc/self/status")
}
