package supervise

import (
	"bytes"
	"strings"
	"time"
)

// After a cell's end stops its goroutines (its interrupt, its time limit,
// a program's return from main), the interpreter ends each one at its next
// step of interpreted code, or wakes it from the channel operation or
// select it waits in, and it unwinds. Compiled code cannot be stopped: a
// goroutine inside a compiled call (a sort of a huge slice, a regexp on a
// huge input, strings.IndexFunc calling back into the cell) runs until the
// call returns, and the worker must be replaced rather than left running
// it. Telling the two apart by the process's CPU, or by a goroutine being
// runnable, failed on a loaded host: thousands of stopped goroutines
// waiting for a processor to unwind on looked like code still running,
// and the worker was condemned, its session's variables lost, with the
// false message that the cell's goroutines were inside compiled code.
// So the wait is for an event (the last goroutine's end), for as long as
// the supervisor's grace allows, and the verdict after it reads each
// goroutine's frames: only one inside a compiled call condemns the worker.

// DefaultStopGrace is the grace WaitStopped assumes when it is given none:
// the supervisor's default time between an interrupt and the kill of a
// worker that has not answered (sandbox.Limits.KillGrace).
const DefaultStopGrace = 2 * time.Second

// Shares of the grace: the wait for every goroutine to end, then the
// time within which goroutines inside compiled calls may still leave them,
// which leaves the rest of the grace for the worker's health check and
// its answer. stopLook is the first interval between looks at the
// goroutines inside compiled calls.
const (
	stopWaitShare  = 4 // grace/4: waiting for the goroutines to end
	stopLeaveShare = 2 // grace/2: the verdict on those inside compiled calls
	stopLook       = 50 * time.Millisecond
)

// WaitStopped waits for the cell's goroutines, which its end stopped, to
// end, and returns how many are stuck inside compiled calls. grace is how
// long the worker has before the supervisor kills it (DefaultStopGrace
// when zero or less). It waits for the last one's end up to a quarter
// of the grace; then goroutines blocked for good (in a lock, or in a compiled
// call that waits) are harmless and only count against the goroutine
// limit. Ones running or waiting to run interpreted code stop at their next
// step, however long the scheduler takes to reach them on a loaded host.
// Only a goroutine still inside a compiled call when the time for it to
// leave is up counts.
func (c *Cell) WaitStopped(grace time.Duration) int {
	if grace <= 0 {
		grace = DefaultStopGrace
	}
	start := time.Now()
	_, idle, _ := c.State()
	// No stack dump meanwhile: each stops the world, and with thousands
	// of goroutines unwinding it took so long that the worker did not
	// answer within the grace and was killed.
	if waitIdle(idle, grace/stopWaitShare) {
		return 0
	}
	verdict := start.Add(grace - grace/stopLeaveShare)
	look := stopLook
	var buf []byte
	for {
		_, inCompiled, ok := scanStopped(&buf)
		if !ok {
			// More goroutines than a dump holds: they cannot be read,
			// and the worker is not kept on a guess.
			n, _, _ := c.State()
			return n
		}
		if inCompiled == 0 {
			return 0
		}
		left := time.Until(verdict)
		if left <= 0 {
			return inCompiled
		}
		if waitIdle(idle, min(look, left)) {
			return 0
		}
		look *= 2
	}
}

// waitIdle waits up to d for idle to close and reports whether it did.
func waitIdle(idle <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}

// scanStopped dumps all goroutines and counts the ones cells started that
// are running or runnable, and of those the ones inside a compiled call;
// ok is false when the dump does not fit.
func scanStopped(buf *[]byte) (running, inCompiled int, ok bool) {
	dump, ok := dumpAll(buf)
	if !ok {
		return 0, 0, false
	}
	running, inCompiled = countStopped(dump)
	return running, inCompiled, true
}

// countStopped counts, in a dump, the goroutines cells started that are
// running or runnable, and of those the ones inside a compiled call.
func countStopped(dump []byte) (running, inCompiled int) {
	for _, g := range bytes.Split(dump, []byte("\n\n")) {
		reason, funcs, ok := parseGoroutine(string(g))
		if !ok || !runningStates[reason] || !containsSubstring(funcs, cellGoFrame) {
			continue
		}
		running++
		if inCompiledCall(funcs) {
			inCompiled++
		}
	}
	return running, inCompiled
}

// runningStates are the states of goroutines that run or wait only for
// a processor: a dump stops the world, so one that was running shows as
// runnable (or preempted).
var runningStates = map[string]bool{"running": true, "runnable": true, "preempted": true}

// machineryPrefixes are the packages whose frames in a cell's goroutine
// are the interpreter running the cell's code, not a call the cell made:
// the interpreter itself, reflect (through which it calls), the runtime
// and the sync primitives, and this package (the goroutine's start).
var machineryPrefixes = []string{
	interpFrame, "reflect.", "runtime.", "internal/", "sync.", "sync/atomic.",
	strings.TrimSuffix(cellGoFrame, "(*Goroutines).Go.func"),
}

// inCompiledCall reports whether a cell's goroutine, by its frames
// (innermost first), is inside a compiled function the cell called: a
// frame of anything but the interpreter's machinery. The runtime elides
// the middle of a deep stack ("...N frames elided..."), where a call can
// hide only beneath dozens of frames of the cell's own code; those end at
// their next step, and once they have unwound to the call, the next look
// sees it.
func inCompiledCall(funcs []string) bool {
	for _, f := range funcs {
		if !strings.HasPrefix(f, "...") && !hasAnyPrefix(f, machineryPrefixes) {
			return true
		}
	}
	return false
}

func containsSubstring(funcs []string, sub string) bool {
	for _, f := range funcs {
		if strings.Contains(f, sub) {
			return true
		}
	}
	return false
}
