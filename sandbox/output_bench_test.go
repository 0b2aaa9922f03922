package sandbox

import (
	"context"
	"slices"
	"testing"
	"time"
)

// The output benchmarks of issue 14, through Session.Run (the kernel adds
// its own part): 16,384 printed lines of 64 bytes and one 1 MiB write.
// ipykernel takes 41 and 16.7 ms for the same cells end to end.

func benchmarkOutput(b *testing.B, code string, want int) {
	s := newTestSession(b, nil)
	m := &medianTimer{b: b}
	n := 0
	h := &Handlers{Stream: func(name, text string) { n += len(text) }}
	for b.Loop() {
		n = 0
		m.begin()
		r, err := s.Run(context.Background(), code, h)
		m.end()
		if err != nil || !r.Success || n != want || len(r.Stdout) != want {
			b.Fatalf("%v %s: %s; streamed %d bytes, stdout %d, want %d", err, r.ErrorName, r.ErrorMessage, n, len(r.Stdout), want)
		}
	}
	m.report()
}

// BenchmarkPrintLines: 16,384 lines of 63 bytes and a newline (1 MiB).
func BenchmarkPrintLines(b *testing.B) {
	benchmarkOutput(b, `for i := 0; i < 16384; i++ { fmt.Println(strings.Repeat("x", 63)) }`, 1<<20)
}

// BenchmarkPrintOneMiB: one write of 1 MiB (within the default cap with
// the newline left out).
func BenchmarkPrintOneMiB(b *testing.B) {
	benchmarkOutput(b, `fmt.Print(strings.Repeat("x", 1<<20))`, 1<<20)
}

// BenchmarkFirstBytes: how long the first line of a long-running cell
// takes to reach the Stream handler (issue 14: within 50 ms at the client,
// with the kernel's own 10 ms batching on top).
func BenchmarkFirstBytes(b *testing.B) {
	s := newTestSession(b, nil)
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		var first time.Duration
		h := &Handlers{Stream: func(name, text string) {
			if first == 0 {
				first = time.Since(start)
			}
		}}
		r, err := s.Run(context.Background(), "fmt.Println(\"started\")\ntime.Sleep(100 * time.Millisecond)", h)
		if err != nil || !r.Success || first == 0 {
			b.Fatalf("%v %+v", err, r)
		}
		times = append(times, first)
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-first-µs")
}
