package dataset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
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
	if len(small) != 3 || cap(small) < 13 || small[2] != 3 || len(m.buffers) != 0 {
		t.Fatalf("small grow: len %d cap %d %v, %d mappings", len(small), cap(small), small, len(m.buffers))
	}
	if got := grow(nil, small, mapThreshold); len(got) != 3 || cap(got) < 3+mapThreshold {
		t.Fatalf("grow without columnMemory: len %d cap %d", len(got), cap(got))
	}

	big := grow(m, small, mapThreshold/8+1) // just over the threshold
	if len(m.buffers) != 1 {
		t.Fatalf("%d mappings after a grow past the threshold, want 1", len(m.buffers))
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
	if again := grow(m, big[:10], 5); len(m.buffers) != 1 || &again[0] != &big[0] {
		t.Fatalf("grow within capacity reallocated")
	}

	big = nil
	m.release()
	deadline := time.Now().Add(testenv.Scale(10 * time.Second))
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

// resident reports which of b's pages are in memory (mincore).
func resident(t *testing.T, b []byte) []bool {
	t.Helper()
	vec := make([]byte, (len(b)+os.Getpagesize()-1)/os.Getpagesize())
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), uintptr(unsafe.Pointer(unsafe.SliceData(vec))))
	if errno != 0 {
		t.Fatalf("mincore: %v", errno)
	}
	in := make([]bool, len(vec))
	for i, v := range vec {
		in[i] = v&1 != 0
	}
	return in
}

// columnMappings counts the process's mappings that carry the dc (do not
// copy on fork) flag: column memory, and nothing of the Go runtime.
func columnMappings(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmFlags:") && strings.Contains(line+" ", " dc ") {
			n++
		}
	}
	return n
}

// TestMapColumnAligned checks that a column buffer is whole huge pages at
// a huge-page boundary, and that the rest of the larger mapping made to
// align it was unmapped. The pages beside it must not be column memory of
// an earlier test (which the kernel would merge with it into one
// mapping): the test first waits for their background unmapping.
func TestMapColumnAligned(t *testing.T) {
	deadline := time.Now().Add(testenv.Scale(10 * time.Second))
	for columnMappings(t) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d column mappings of earlier tests still mapped after 10 s", columnMappings(t))
		}
		time.Sleep(time.Millisecond)
	}
	for _, size := range []int{1, hugePage - 1, hugePage, 3*hugePage + 5} {
		b, ok := mapColumn(size)
		if !ok {
			t.Fatalf("mapColumn(%d) failed", size)
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		if start%hugePage != 0 || len(b)%hugePage != 0 || len(b) < size || len(b) >= size+hugePage {
			t.Errorf("mapColumn(%d): %d bytes at %#x, want whole huge pages at a boundary", size, len(b), start)
		}
		for _, a := range []uintptr{start - 1, start + uintptr(len(b))} {
			if f := vmFlags(t, a); strings.Contains(f, " dc") {
				t.Errorf("mapColumn(%d): %#x, outside the buffer, is still a column mapping: %q", size, a, f)
			}
		}
		unmapColumn(b)
	}
}

// TestDropWriter writes column memory through a dropWriter: the file gets
// every byte, the memory of the whole huge pages written goes back, other
// memory is left alone, and writing given-back memory again fails instead
// of putting zeros in the file.
func TestDropWriter(t *testing.T) {
	m := &columnMemory{}
	defer m.release()
	col := grow(m, []byte(nil), 5*dropPiece+12345)
	col = col[:cap(col)]
	for i := range col {
		col[i] = byte(i * 7)
	}
	heap := bytes.Repeat([]byte("heap"), 1000)
	// Written from an offset inside the first huge page, as after a
	// buffered writer took the start of a column into its own buffer.
	const skip = 1000
	part := col[skip : len(col)-777]
	want := append(append(append([]byte(nil), heap...), part...), heap...)
	var file bytes.Buffer
	w := dropWriter{w: &file, mem: m}
	for _, p := range [][]byte{heap, part, heap} {
		if n, err := w.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", len(p), n, err)
		}
	}
	if !bytes.Equal(file.Bytes(), want) {
		t.Fatalf("file holds %d bytes differing from the %d written", file.Len(), len(want))
	}
	in := resident(t, col)
	page := os.Getpagesize()
	for i, r := range in {
		off := i * page
		inner := off >= hugePage && off+page <= (skip+len(part))&^(hugePage-1)
		switch {
		case inner && r:
			t.Fatalf("page at offset %d, written, is still resident", off)
		case !inner && off < skip && !r:
			t.Fatalf("page at offset %d, in a huge page written only in part, was given back", off)
		}
	}
	if !bytes.Equal(heap, bytes.Repeat([]byte("heap"), 1000)) {
		t.Fatal("heap memory written through dropWriter changed")
	}
	before := file.Len()
	for _, p := range [][]byte{part[hugePage : hugePage+10], col[:skip+1]} {
		if n, err := w.Write(p); n != 0 || !errors.Is(err, errRewrite) {
			t.Errorf("writing given-back memory again: %d, %v, want 0, errRewrite", n, err)
		}
	}
	if file.Len() != before {
		t.Errorf("a refused write reached the file: %d bytes, want %d", file.Len(), before)
	}
	if n, err := w.Write(col[:skip]); n != skip || err != nil {
		t.Errorf("writing the part not yet written: %d, %v", n, err)
	}
}

// TestLocateUnmapsColumnsAtSync: the pages of a conversion's columns go
// back as the Arrow file is written, but what is left of their mappings
// is unmapped only when the sync starts (with DeferSync, once the caller's
// worker is up: unmapping holds the mmap lock its fork needs), and then
// all of it.
func TestLocateUnmapsColumnsAtSync(t *testing.T) {
	waitColumnMappings := func(want func(int) bool, what string) {
		t.Helper()
		deadline := time.Now().Add(testenv.Scale(10 * time.Second))
		for n := columnMappings(t); !want(n); n = columnMappings(t) {
			if time.Now().After(deadline) {
				t.Fatalf("%d column mappings 10 s on, want %s", n, what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	csvPath := filepath.Join(t.TempDir(), "awards.csv")
	if err := os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 30000, Seed: 8}), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, deferSync := range []bool{false, true} {
		t.Run(fmt.Sprintf("DeferSync=%v", deferSync), func(t *testing.T) {
			waitColumnMappings(func(n int) bool { return n == 0 }, "none from earlier tests")
			src, err := Locate(context.Background(), Config{CacheDir: t.TempDir(), CSVPath: csvPath, DeferSync: deferSync})
			if err != nil {
				t.Fatal(err)
			}
			if !src.Converted {
				t.Fatal("Locate did not convert")
			}
			if deferSync {
				// Time for an unmapping started too early to show.
				time.Sleep(50 * time.Millisecond)
				if columnMappings(t) == 0 {
					t.Fatal("no column mappings left before the sync started: they were unmapped early")
				}
				src.StartSync()
			}
			if err := src.WaitDurable(context.Background()); err != nil {
				t.Fatal(err)
			}
			waitColumnMappings(func(n int) bool { return n == 0 }, "none after the sync")
		})
	}
}
