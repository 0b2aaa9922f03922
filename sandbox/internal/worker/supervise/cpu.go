package supervise

import (
	"runtime/metrics"
	"syscall"
	"time"
)

// cpuMeter measures the CPU time the worker's code uses, the cell's
// included, apart from the Go runtime's own work (the garbage collector
// and the scavenger that returns memory to the system): the runtime's
// work is no sign that a cell's goroutines are making progress. A cell
// whose live memory sits near its heap budget (which is the runtime's
// memory limit) makes the collector run back to back, up to half the CPU,
// even when every goroutine of the cell is blocked for good; counted as
// progress, that CPU held the deadlock detector off until the cell's time
// limit (a cell of 150 goroutines blocked 300 interpreted calls deep, 63
// MiB live under a 64 MiB budget, ended with Timeout instead of being
// ended as stuck).
//
// The runtime's figures are estimates from the time its workers held a
// processor, which on a loaded host can exceed the CPU they got; a
// measure is therefore never negative, and errs towards too little
// progress, which costs the detector an early look and nothing else.
type cpuMeter struct {
	samples [2]metrics.Sample
}

// cpuReading is what a cpuMeter read at one moment.
type cpuReading struct {
	process time.Duration // all CPU time of the process (getrusage)
	runtime time.Duration // the collector's and the scavenger's estimate
}

func newCPUMeter() *cpuMeter {
	m := &cpuMeter{}
	m.samples[0].Name = "/cpu/classes/gc/total:cpu-seconds"
	m.samples[1].Name = "/cpu/classes/scavenge/total:cpu-seconds"
	return m
}

// read returns the process's CPU time and the runtime's share of it now.
func (m *cpuMeter) read() cpuReading {
	r := cpuReading{process: CPUTime()}
	metrics.Read(m.samples[:])
	for _, s := range m.samples {
		if s.Value.Kind() == metrics.KindFloat64 {
			r.runtime += time.Duration(s.Value.Float64() * float64(time.Second))
		}
	}
	return r
}

// since returns the CPU time code outside the runtime used from before to
// r, never less than zero.
func (r cpuReading) since(before cpuReading) time.Duration {
	return max(0, (r.process-before.process)-(r.runtime-before.runtime))
}

// CPUTime is the CPU time this process has used.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
