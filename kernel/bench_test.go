package kernel

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start, kernel and
// test client together: on a loaded machine it varies less than the
// wall-clock ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkExecuteRoundTrip measures a trivial cell over real sockets:
// execute_request sent to idle received (the reply included).
func BenchmarkExecuteRoundTrip(b *testing.B) {
	k := startKernel(b, Config{Logger: testLogger(b)})
	c := k.client
	b.ResetTimer()
	cpu := cpuTime(b)
	for b.Loop() {
		id := c.execute("value 1", nil)
		c.reply(c.shellC, id)
		c.untilIdle(id)
	}
	reportCPU(b, cpu)

}

// BenchmarkCodec measures encoding and decoding a signed execute_request.
func BenchmarkCodec(b *testing.B) {
	c := Codec{Key: []byte("secret")}
	m := testMessage()
	for b.Loop() {
		f, _ := c.Encode(m)
		if _, err := c.Decode(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecute16KLines measures a cell printing 16,384 lines of 64
// bytes (1 MiB) with one Output.Stream call each: execute_request sent to
// idle received, all output included.
func BenchmarkExecute16KLines(b *testing.B) {
	k := startKernel(b, Config{Logger: testLogger(b)})
	c := k.client
	b.SetBytes(16384 * 64)
	cpu := cpuTime(b)
	for b.Loop() {
		id := c.execute("lines 16384 64", nil)
		c.reply(c.shellC, id)
		c.untilIdle(id)
	}
	reportCPU(b, cpu)

}

// BenchmarkFirstOutput measures how long the first line of a cell that
// keeps running takes to reach the client: execute_request sent to its
// first stream message received.
func BenchmarkFirstOutput(b *testing.B) {
	k := startKernel(b, Config{Logger: testLogger(b)})
	c := k.client
	for b.Loop() {
		id := c.execute("print first\nsleep 200ms", nil)
		for m := range c.iopubC {
			if m.ParentHeader != nil && m.ParentHeader.MsgID == id && m.Header.MsgType == "stream" {
				break
			}
		}
		b.StopTimer()
		c.reply(c.shellC, id)
		c.untilIdle(id)
		b.StartTimer()
	}
}

// BenchmarkExecute1MiB measures a cell printing 1 MiB: execute_request
// sent to idle received, all output included.
func BenchmarkExecute1MiB(b *testing.B) {
	k := startKernel(b, Config{Logger: testLogger(b)})
	c := k.client
	b.SetBytes(1 << 20)
	cpu := cpuTime(b)
	for b.Loop() {
		id := c.execute("big 1048576", nil)
		c.reply(c.shellC, id)
		c.untilIdle(id)
	}
	reportCPU(b, cpu)

}
