package dataset

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// vmFlags returns the VmFlags line of the mapping holding addr in
// /proc/self/smaps, or "" if no mapping holds it.
func vmFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	inside := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && strings.Contains(line[:strings.IndexByte(line, ' ')], "-") {
			inside = lo <= addr && addr < hi
			continue
		}
		if inside && strings.HasPrefix(line, "VmFlags:") {
			return line
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ""
}

func TestColumnMemory(t *testing.T) {
	m := &columnMemory{}
	small := grow(m, []int64{1, 2, 3}, 10)
	if len(small) != 3 || cap(small) < 13 || small[2] != 3 || len(m.mapped) != 0 {
		t.Fatalf("small grow: len %d cap %d %v, %d mappings", len(small), cap(small), small, len(m.mapped))
	}
	if got := grow(nil, small, mapThreshold); len(got) != 3 || cap(got) < 3+mapThreshold {
		t.Fatalf("grow without columnMemory: len %d cap %d", len(got), cap(got))
	}

	big := grow(m, small, mapThreshold/8+1) // just over the threshold
	if len(m.mapped) != 1 {
		t.Fatalf("%d mappings after a grow past the threshold, want 1", len(m.mapped))
	}
	if len(big) != 3 || big[0] != 1 || big[2] != 3 || cap(big) < 3+mapThreshold/8+1 {
		t.Fatalf("big grow: len %d cap %d, first values %v", len(big), cap(big), big[:3])
	}
	big = append(big, 4) // within capacity: the mapped buffer is written
	big = big[:cap(big)]
	big[len(big)-1] = -1 // the last element is writable too
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(big)))
	flags := vmFlags(t, addr)
	if !strings.Contains(flags, " dc") {
		t.Fatalf("column mapping is inherited by forks: %q, want the dc (do not copy on fork) flag", flags)
	}
	if again := grow(m, big[:10], 5); len(m.mapped) != 1 || &again[0] != &big[0] {
		t.Fatalf("grow within capacity reallocated")
	}

	big = nil
	m.release()
	deadline := time.Now().Add(10 * time.Second)
	// Unmapped, or mapped again by the Go runtime (without dc).
	for strings.Contains(vmFlags(t, addr), " dc") {
		if time.Now().After(deadline) {
			t.Fatalf("column mapping at %#x still mapped 10 s after release", addr)
		}
		time.Sleep(time.Millisecond)
	}
	m.release() // twice is harmless
}

// TestUnmapColumnPieces checks that a buffer unmapped a piece at a time
// is unmapped whole: its first and last page and a page in each piece.
// The Go runtime may map memory of its own into the freed range at once
// (it did, in CI), so a page counts as still ours while it carries the
// column mappings' dc (do not copy on fork) flag.
func TestUnmapColumnPieces(t *testing.T) {
	for _, size := range []int{unmapPiece, unmapPiece + 1, 2*unmapPiece + 12345} {
		b, ok := mapColumn(size)
		if !ok {
			t.Fatalf("mapColumn(%d) failed", size)
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		addrs := []uintptr{start, start + uintptr(size) - 1}
		for off := unmapPiece / 2; off < size; off += unmapPiece {
			addrs = append(addrs, start+uintptr(off))
		}
		for _, a := range addrs {
			if f := vmFlags(t, a); !strings.Contains(f, " dc") {
				t.Fatalf("size %d: %#x not a column mapping before unmapColumn: %q", size, a, f)
			}
		}
		unmapColumn(b)
		for _, a := range addrs {
			if f := vmFlags(t, a); strings.Contains(f, " dc") {
				t.Errorf("size %d: %#x (offset %d) still mapped after unmapColumn: %q", size, a, a-start, f)
			}
		}
	}
}
