package dataset

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// benchFiles holds the full-scale CSV (SBIR_BENCH_CSV or generated once)
// and its Arrow conversion, shared by the benchmarks of one run.
var benchFiles struct {
	once       sync.Once
	dir        string
	csv, arrow string
	err        error
}

func fullScale(b *testing.B) (csvPath, arrowPath string) {
	b.Helper()
	f := &benchFiles
	f.once.Do(func() {
		f.dir, f.err = os.MkdirTemp("", "sbir-bench-")
		if f.err != nil {
			return
		}
		f.csv = os.Getenv("SBIR_BENCH_CSV")
		if f.csv == "" {
			f.csv = filepath.Join(f.dir, "award_data.csv")
			var out *os.File
			if out, f.err = os.Create(f.csv); f.err != nil {
				return
			}
			f.err = Generate(out, GenerateOptions{Rows: FullScaleRows, Seed: 1})
			out.Close()
			if f.err != nil {
				return
			}
		}
		f.arrow = filepath.Join(f.dir, "award_data.arrow")
		_, f.err = ConvertFile(context.Background(), f.csv, f.arrow, ConvertOptions{})
	})
	if f.err != nil {
		b.Fatal(f.err)
	}
	return f.csv, f.arrow
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
// Arrow file on disk. With SBIR_BENCH_CSV set, the process does nothing
// else, so peak-RSS-MB is the conversion's peak memory.
func BenchmarkConvertFullScale(b *testing.B) {
	csvPath, _ := fullScale(b)
	st, err := os.Stat(csvPath)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(benchFiles.dir, "bench-out.arrow")
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ConvertFile(context.Background(), csvPath, out, ConvertOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(procStatusMB("VmHWM"), "peak-RSS-MB")
	os.Remove(out)
}

// BenchmarkOpen opens the full-scale Arrow file ready to query and reports
// the memory it adds before any column is touched: Go heap allocated and
// resident set growth.
func BenchmarkOpen(b *testing.B) {
	_, arrowPath := fullScale(b)
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
	csvPath, _ := fullScale(b)
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
