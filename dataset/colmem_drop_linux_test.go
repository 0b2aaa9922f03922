package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"golang.org/x/sys/unix"
)

// dropShapes are inputs shaped against dropWriter: each converts through
// mapped column buffers whose huge pages are given back as they are
// written, in a different layout of written and unwritten memory.
func dropShapes(t *testing.T) []struct {
	name string
	csv  []byte
	size int64 // the size convertTo is told, which sets the reservations
} {
	t.Helper()
	gen := generated(t, GenerateOptions{Rows: 8000, Seed: 11})
	legacy := generated(t, GenerateOptions{Rows: 4000, Seed: 12, Shape: ShapeLegacy41})

	// The first rows carry short abstracts, the rest long ones: the
	// estimate taken after sampleRecords rows (some MiB) is far too small,
	// so the abstracts outgrow their mapped buffer into the heap and the
	// mapping stays in the list, never written. The companies, as long in every
	// row, are estimated right: their mapping is written and given back.
	var outgrown strings.Builder
	outgrown.WriteString(bulkHeader + "\n")
	for i := range 6000 {
		abstract := strings.Repeat("short ", 40)
		if i >= sampleRecords {
			abstract = strings.Repeat(fmt.Sprintf("long abstract %d ", i), 400)
		}
		outgrown.WriteString(row(with(minimalRow(), ColAbstract, abstract, ColAwardYear, fmt.Sprint(1990+i%35),
			ColCompany, fmt.Sprintf("%s %d", strings.Repeat("COMPANY ", 120), i%500))) + "\n")
	}

	// Fields close to maxRecordBytes: one among the first rows (in the
	// estimate, so its column is mapped large) and one at the end (past
	// the reservation).
	var huge strings.Builder
	huge.WriteString(bulkHeader + "\n")
	for i := range 3000 {
		abstract := fmt.Sprintf("abstract %d", i)
		if i == 100 || i == 2999 {
			abstract = strings.Repeat(string(rune('a'+i%26)), maxRecordBytes-64<<10)
		}
		huge.WriteString(row(with(minimalRow(), ColAbstract, abstract)) + "\n")
	}

	// Extra CSV columns, each holding megabytes of text.
	var extra strings.Builder
	extra.WriteString(bulkHeader + ",Notes,Notes,Comments\n")
	for i := range 5000 {
		extra.WriteString(row(minimalRow()) + "," + strings.Repeat("n", 700+i%300) + ",," + strings.Repeat(fmt.Sprint(i%10), 1500) + "\n")
	}

	return []struct {
		name string
		csv  []byte
		size int64
	}{
		{"generated", gen, int64(len(gen))},
		// Told 200 times its size, the columns' offsets, dictionary
		// indices, numbers and dates (not the validity bitmaps) are
		// reserved in mappings far larger than what is written of them:
		// what is written (less than bufio's buffer) is copied by bufio.
		{"generated/oversized", gen, 200 * int64(len(gen))},
		{"legacy41/oversized", legacy, 40 * int64(len(legacy))},
		{"outgrown", []byte(outgrown.String()), int64(outgrown.Len())},
		{"huge fields", []byte(huge.String()), int64(huge.Len())},
		{"extra columns", []byte(extra.String()), int64(extra.Len())},
		{"extra columns/oversized", []byte(extra.String()), 30 * int64(extra.Len())},
	}
}

// convertDropping converts csv through convertTo into a file in dir, as
// Locate and ConvertFile do, and returns the file's bytes, the ranges
// dropWriter gave back and how many mapped buffers it never wrote. It checks that the whole huge pages of those
// ranges really went back (mincore): otherwise a comparison with Convert
// proves nothing about reading given-back memory.
func convertDropping(t *testing.T, dir string, csv []byte, size int64) (file []byte, dropped []addrRange, unwritten int) {
	t.Helper()
	f, err := os.CreateTemp(dir, "out-*.arrow")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mem := &columnMemory{}
	defer mem.release()
	if _, err := convertTo(context.Background(), bytes.NewReader(csv), size, f, ConvertOptions{}, mem); err != nil {
		t.Fatalf("convertTo: %v", err)
	}
	mem.mu.Lock()
	dropped = append(dropped, mem.dropped...)
	buffers := append([][]byte(nil), mem.buffers...)
	mem.mu.Unlock()
	for _, buf := range buffers {
		written := false
		for _, d := range dropped {
			written = written || d.overlaps(rangeOf(buf))
		}
		if !written {
			unwritten++
		}
	}
	for _, d := range dropped {
		lo := (d.lo + hugePage - 1) &^ (hugePage - 1)
		hi := d.hi &^ (hugePage - 1)
		if lo >= hi {
			continue
		}
		var b []byte
		for _, buf := range buffers {
			if r := rangeOf(buf); r.lo <= d.lo && d.hi <= r.hi {
				b = buf[lo-r.lo : hi-r.lo]
			}
		}
		if b == nil {
			t.Fatalf("range %#x-%#x given back lies in no column buffer", d.lo, d.hi)
		}
		for i, in := range resident(t, b) {
			if in {
				t.Fatalf("page at %#x, in a range dropWriter gave back, is still resident", lo+uintptr(i*os.Getpagesize()))
			}
		}
	}
	file, err = os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return file, dropped, unwritten
}

// reference is the Arrow file Convert writes for csv into memory: its
// columns are mapped too, but nothing is given back. (A conversion with
// every column in the Go heap costs gigabytes for the oversized shapes:
// the heap zeroes the reserved capacity it recycles.)
func reference(t *testing.T, csv []byte, size int64) []byte {
	t.Helper()
	var want bytes.Buffer
	if _, err := Convert(context.Background(), bytes.NewReader(csv), size, &want, ConvertOptions{}); err != nil {
		t.Fatalf("Convert: %v", err)
	}
	return want.Bytes()
}

// TestDropWriterShapes converts inputs shaped against dropWriter into a
// file, giving the columns' huge pages back as they are written, and
// compares the file byte for byte with Convert's into memory. A
// given-back page read again (by the Arrow writer, bufio or anything
// after them) would put zeros in the file; a page given back before its
// bytes were written, the same.
func TestDropWriterShapes(t *testing.T) {
	dir := t.TempDir()
	for _, s := range dropShapes(t) {
		t.Run(s.name, func(t *testing.T) {
			want := reference(t, s.csv, s.size)
			got, dropped, unwritten := convertDropping(t, dir, s.csv, s.size)
			if len(dropped) == 0 {
				t.Fatal("no column memory was given back: the shape does not exercise dropWriter")
			}
			if s.name == "outgrown" && unwritten == 0 {
				t.Fatal("every mapped buffer was written: no column outgrew its mapping")
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("the file (%d bytes) differs from Convert's (%d bytes) at byte %d", len(got), len(want), firstDiff(got, want))
			}
		})
	}
}

// TestDropWriterTHPDisabled converts with transparent huge pages disabled
// for the process (as on machines set to "never"): the buffers are then
// 4 KiB pages, given back all the same, and the file must not change.
func TestDropWriterTHPDisabled(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_THP_DISABLE, 1, 0, 0, 0); err != nil {
		t.Skipf("cannot disable transparent huge pages: %v", err)
	}
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_THP_DISABLE, 0, 0, 0, 0) })
	status, err := os.ReadFile("/proc/self/status")
	if err == nil && bytes.Contains(status, []byte("THP_enabled:\t1")) {
		t.Fatal("PR_SET_THP_DISABLE had no effect on /proc/self/status")
	}
	s := dropShapes(t)[1] // every column mapped
	want := reference(t, s.csv, s.size)
	got, dropped, _ := convertDropping(t, t.TempDir(), s.csv, s.size)
	if len(dropped) == 0 {
		t.Fatal("no column memory was given back")
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("without huge pages the file differs from Convert's at byte %d", firstDiff(got, want))
	}
}

// TestDropWriterConcurrent runs conversions that give memory back at the
// same time, each with its own column memory: none may give back or
// refuse the other's.
func TestDropWriterConcurrent(t *testing.T) {
	shapes := dropShapes(t)
	dir := t.TempDir()
	var wg sync.WaitGroup
	for _, s := range []int{1, 3, 5} {
		want := reference(t, shapes[s].csv, shapes[s].size)
		for range 2 {
			wg.Go(func() {
				f, err := os.CreateTemp(dir, "out-*.arrow")
				if err != nil {
					t.Error(err)
					return
				}
				defer f.Close()
				mem := &columnMemory{}
				defer mem.release()
				if _, err := convertTo(context.Background(), bytes.NewReader(shapes[s].csv), shapes[s].size, f, ConvertOptions{}, mem); err != nil {
					t.Errorf("%s: %v", shapes[s].name, err)
					return
				}
				if got, err := os.ReadFile(f.Name()); err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: concurrent conversion wrote %d bytes (%v) differing from the %d Convert wrote", shapes[s].name, len(got), err, len(want))
				}
			})
		}
	}
	wg.Wait()
}

// TestDropWriterDiskFull fills a real tmpfs while a mapped column is being
// written: the conversion fails with ENOSPC (which Locate and Download
// turn into their disk-full message), part of the column having been
// given back, and nothing crashes; Locate then leaves no temporary file.
func TestDropWriterDiskFull(t *testing.T) {
	s := dropShapes(t)[5] // extra columns: megabytes of text each
	want := reference(t, s.csv, s.size)
	full := mountTmpfs(t, fmt.Sprint(len(want)/2))
	f, err := os.CreateTemp(full, "out-*.arrow")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mem := &columnMemory{}
	_, err = convertTo(context.Background(), bytes.NewReader(s.csv), s.size, f, ConvertOptions{}, mem)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("converting %d bytes into a tmpfs of %d: %v, want ENOSPC", len(want), len(want)/2, err)
	}
	mem.mu.Lock()
	dropped := len(mem.dropped)
	mem.mu.Unlock()
	if dropped == 0 {
		t.Error("the disk filled before any column memory was given back: the failure is not mid-column")
	}
	mem.release()
	f.Close()
	os.Remove(f.Name())

	// Locate into the full file system: the disk-full error, no file left.
	csvPath := filepath.Join(t.TempDir(), "awards.csv")
	if err := os.WriteFile(csvPath, s.csv, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Locate(context.Background(), Config{CSVPath: csvPath, CacheDir: full})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Locate into a tmpfs too small for the Arrow file: %v, want the disk-full message", err)
	}
	entries, _ := os.ReadDir(full)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// firstDiff is the first offset where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestDropWriterInstalledFiles checks the paths that write through
// dropWriter into the cache, Locate (with and without DeferSync) and
// Download: the Arrow file each installs is, byte for byte, what Convert
// writes into memory for the same input and metadata.
func TestDropWriterInstalledFiles(t *testing.T) {
	s := dropShapes(t)[0] // generated: its text columns are mapped
	csvPath := filepath.Join(t.TempDir(), "awards.csv")
	if err := os.WriteFile(csvPath, s.csv, 0o644); err != nil {
		t.Fatal(err)
	}
	// sameAsConvert compares the file at path with Convert's output for
	// the metadata the file carries.
	sameAsConvert := func(t *testing.T, path string) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewFileReader(bytes.NewReader(got))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		id, ok := r.Schema().Metadata().GetValue(MetaSource)
		r.Close()
		if !ok {
			t.Fatalf("%s has no %s metadata", path, MetaSource)
		}
		var want bytes.Buffer
		if _, err := Convert(context.Background(), bytes.NewReader(s.csv), int64(len(s.csv)), &want,
			ConvertOptions{Metadata: map[string]string{MetaSource: id}}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%s (%d bytes) differs from Convert's output (%d bytes) at byte %d", path, len(got), want.Len(), firstDiff(got, want.Bytes()))
		}
	}
	for _, deferSync := range []bool{false, true} {
		t.Run(fmt.Sprintf("Locate/DeferSync=%v", deferSync), func(t *testing.T) {
			src, err := Locate(context.Background(), Config{CSVPath: csvPath, CacheDir: t.TempDir(), DeferSync: deferSync})
			if err != nil {
				t.Fatal(err)
			}
			if !src.Converted {
				t.Fatal("Locate did not convert")
			}
			if deferSync {
				// The file is complete before the sync, while the
				// columns' mappings are still there.
				sameAsConvert(t, src.ArrowPath)
				src.StartSync()
			}
			if err := src.WaitDurable(context.Background()); err != nil {
				t.Fatal(err)
			}
			sameAsConvert(t, src.ArrowPath)
		})
	}
	t.Run("Download", func(t *testing.T) {
		res, err := Download(context.Background(), DownloadOptions{URL: csvPath, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		sameAsConvert(t, res.ArrowPath)
	})
}

// madviseRefusedEnv makes the test binary, run again by
// TestDropWriterMadviseRefused, refuse madvise to itself before it
// converts.
const madviseRefusedEnv = "DATASET_TEST_MADVISE_REFUSED"

// TestDropWriterMadviseRefused converts in a process whose madvise calls
// all fail with EPERM (a seccomp filter, as some sandboxes and container
// runtimes set): no huge pages, nothing given back, and the file must be
// the same all the same. The filter cannot be removed, so the conversion
// runs in a child: this test binary, run again.
func TestDropWriterMadviseRefused(t *testing.T) {
	if os.Getenv(madviseRefusedEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDropWriterMadviseRefused$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), madviseRefusedEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err == nil && bytes.Contains(out, []byte("--- SKIP: TestDropWriterMadviseRefused")) {
			t.Skipf("the child skipped:\n%s", out)
		}
		if err != nil || !bytes.Contains(out, []byte("madvise refused: ")) || !bytes.Contains(out, []byte("--- PASS: TestDropWriterMadviseRefused")) {
			t.Fatalf("the child converting with madvise refused: %v\n%s", err, out)
		}
		return
	}
	// seccomp: madvise returns EPERM, every other call is allowed; on all
	// threads (the Go runtime's too).
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: unix.SYS_MADVISE},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		t.Skipf("no_new_privs: %v", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		t.Skipf("cannot install a seccomp filter: %v", errno)
	}
	probe, ok := mapColumn(hugePage)
	if !ok {
		t.Fatal("mapColumn failed")
	}
	err := unix.Madvise(probe, unix.MADV_DONTNEED)
	unmapColumn(probe)
	if !errors.Is(err, unix.EPERM) {
		t.Fatalf("madvise under the filter: %v, want EPERM", err)
	}
	t.Logf("madvise refused: %v", err)

	s := dropShapes(t)[0]
	want := reference(t, s.csv, s.size)
	f, err := os.CreateTemp(t.TempDir(), "out-*.arrow")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mem := &columnMemory{}
	defer mem.release()
	if _, err := convertTo(context.Background(), bytes.NewReader(s.csv), s.size, f, ConvertOptions{}, mem); err != nil {
		t.Fatal(err)
	}
	if len(mem.dropped) == 0 {
		t.Fatal("dropWriter wrote no column memory")
	}
	// Nothing went back: the written columns are all still resident.
	for _, b := range mem.buffers {
		for _, d := range mem.dropped {
			page := uintptr(os.Getpagesize())
			lo, hi := (d.lo+page-1)&^(page-1), d.hi&^(page-1)
			if r := rangeOf(b); r.lo <= d.lo && d.hi <= r.hi && lo < hi {
				for i, in := range resident(t, b[lo-r.lo:hi-r.lo]) {
					if !in {
						t.Fatalf("page %d of a written range is gone though madvise was refused", i)
					}
				}
			}
		}
	}
	got, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("with madvise refused the file differs from Convert's at byte %d", firstDiff(got, want))
	}
}
