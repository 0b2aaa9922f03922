package dataset

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// benchFiles holds the full-scale CSV (SBIR_BENCH_CSV or generated once)
// and its Arrow conversion, shared by the benchmarks of one run.
var benchFiles struct {
	csvOnce, arrowOnce sync.Once
	dir, csv, arrow    string
	csvErr, arrowErr   error
}

func fullScaleCSV(b *testing.B) string {
	b.Helper()
	f := &benchFiles
	f.csvOnce.Do(func() {
		f.dir, f.csvErr = os.MkdirTemp("", "sbir-bench-")
		if f.csvErr != nil {
			return
		}
		f.csv = os.Getenv("SBIR_BENCH_CSV")
		if f.csv != "" {
			return
		}
		f.csv = filepath.Join(f.dir, "award_data.csv")
		out, err := os.Create(f.csv)
		if err != nil {
			f.csvErr = err
			return
		}
		f.csvErr = Generate(out, GenerateOptions{Rows: FullScaleRows, Seed: 1})
		if err := out.Close(); f.csvErr == nil {
			f.csvErr = err
		}
	})
	if f.csvErr != nil {
		b.Fatal(f.csvErr)
	}
	return f.csv
}

func fullScaleArrow(b *testing.B) string {
	b.Helper()
	csvPath := fullScaleCSV(b)
	f := &benchFiles
	f.arrowOnce.Do(func() {
		f.arrow = filepath.Join(f.dir, "award_data.arrow")
		_, f.arrowErr = ConvertFile(context.Background(), csvPath, f.arrow, ConvertOptions{})
		runtime.GC()
		debug.FreeOSMemory()
	})
	if f.arrowErr != nil {
		b.Fatal(f.arrowErr)
	}
	return f.arrow
}

// resetPeakRSS resets VmHWM (Linux: "5" in /proc/self/clear_refs), so
// that a later procStatusMB("VmHWM") measures only what follows.
func resetPeakRSS() {
	runtime.GC()
	debug.FreeOSMemory()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

func cleanupBench() {
	if benchFiles.dir != "" {
		os.RemoveAll(benchFiles.dir)
	}
}

// procStatusMB returns a field of /proc/self/status (VmRSS, VmHWM) in MB,
// or -1 where unavailable.
func procStatusMB(field string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			if err != nil {
				return -1
			}
			return kb / 1024
		}
	}
	return -1
}

// BenchmarkConvertFullScale converts 219,500 rows (~390 MB) from disk to an
// Arrow file on disk. peak-RSS-MB is the largest resident set of the
// process during one conversion (VmHWM, reset before each).
func BenchmarkConvertFullScale(b *testing.B) {
	csvPath := fullScaleCSV(b)
	st, err := os.Stat(csvPath)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(benchFiles.dir, "bench-out.arrow")
	b.SetBytes(st.Size())
	peak := 0.0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		resetPeakRSS()
		b.StartTimer()
		if _, err := ConvertFile(context.Background(), csvPath, out, ConvertOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		peak = max(peak, procStatusMB("VmHWM"))
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(peak, "peak-RSS-MB")
	os.Remove(out)
}

// BenchmarkConvertFullScaleInMemory converts the full-scale CSV held in
// memory to a writer that discards: the conversion itself, without the
// disk (ConvertFile also writes and syncs ~400 MB). cpu-s is the process's
// user+system CPU time per conversion, which other load on the machine
// inflates less than the wall time.
func BenchmarkConvertFullScaleInMemory(b *testing.B) {
	data, err := os.ReadFile(fullScaleCSV(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		before := cpuTime()
		b.StartTimer()
		if _, err := Convert(context.Background(), bytes.NewReader(data), int64(len(data)), &countWriter{}, ConvertOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += cpuTime() - before
		b.StartTimer()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s")
}

// cpuTime is the user+system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOpen opens the full-scale Arrow file ready to query and reports
// the memory it adds before any column is touched: Go heap allocated and
// resident set growth.
func BenchmarkOpen(b *testing.B) {
	arrowPath := fullScaleArrow(b)
	runtime.GC()
	var before, after runtime.MemStats
	rssBefore := procStatusMB("VmRSS")
	runtime.ReadMemStats(&before)
	d, err := OpenFile(arrowPath)
	if err != nil {
		b.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	rssAfter := procStatusMB("VmRSS")
	if d.NumRows() != FullScaleRows && os.Getenv("SBIR_BENCH_CSV") == "" {
		b.Fatalf("%d rows", d.NumRows())
	}
	d.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := OpenFile(arrowPath)
		if err != nil {
			b.Fatal(err)
		}
		d.Close()
	}
	b.StopTimer()
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/1e6, "alloc-MB")
	b.ReportMetric(rssAfter-rssBefore, "RSS-delta-MB")
}

// BenchmarkVerify reads every string offset and dictionary index of the
// full-scale file (Dataset.Verify, which Locate runs before using a
// cached file), its pages already in memory.
func BenchmarkVerify(b *testing.B) {
	d, err := OpenFile(fullScaleArrow(b))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := d.Verify(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateFullScale writes 219,500 synthetic rows to io.Discard.
func BenchmarkGenerateFullScale(b *testing.B) {
	for i := 0; i < b.N; i++ {
		cw := &countWriter{}
		if err := Generate(bufio.NewWriter(cw), GenerateOptions{Rows: FullScaleRows, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(cw.n)
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkConvertSample converts the embedded sample in memory.
func BenchmarkConvertSample(b *testing.B) {
	var csv bytes.Buffer
	if err := Generate(&csv, SampleOptions()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(csv.Len()))
	for i := 0; i < b.N; i++ {
		if _, err := Convert(context.Background(), bytes.NewReader(csv.Bytes()), int64(csv.Len()), io.Discard, ConvertOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLocateCached is the cost of Locate when the Arrow file is
// current: identify the CSV, map and validate the Arrow file.
func BenchmarkLocateCached(b *testing.B) {
	csvPath := fullScaleCSV(b)
	cfg := Config{CacheDir: b.TempDir(), CSVPath: csvPath}
	if _, err := Locate(context.Background(), cfg); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		src, err := Locate(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if src.Converted {
			b.Fatal("converted again")
		}
	}
}

// BenchmarkBuildIndexes builds the indexes Convert stores (indexes.go)
// from the full-scale columns, one sub-benchmark per index and all of
// them together as Convert does: what they add to a conversion.
func BenchmarkBuildIndexes(b *testing.B) {
	d, err := OpenFile(fullScaleArrow(b))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	fields := d.Schema().Fields()
	cols := d.Record().Columns()
	run := func(b *testing.B, fields []arrow.Field, cols []arrow.Array) {
		var cpu time.Duration
		for b.Loop() {
			before := cpuTime()
			fs, cs, err := buildIndexes(fields, cols)
			cpu += cpuTime() - before
			if err != nil {
				b.Fatal(err)
			}
			if len(fs) == 0 {
				b.Fatal("no index built")
			}
			for _, c := range cs {
				c.Release()
			}
		}
		b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/op")
	}
	b.Run("All", func(b *testing.B) { run(b, fields, cols) })
	for _, name := range append([]string{ColPhase, ColState, ColAwardYear}, textDictColumns...) {
		i := slices.IndexFunc(fields, func(f arrow.Field) bool { return f.Name == name })
		v, err := columnar.FromArrow(name, cols[i])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.ReplaceAll(name, " ", ""), func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				before := cpuTime()
				if v.Kind == columnar.KindText {
					columnar.BuildTextDict(v)
				} else {
					columnar.BuildBitIndex(v)
				}
				cpu += cpuTime() - before
			}
			b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}
