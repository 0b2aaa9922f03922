package sandbox

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/gotrace"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// numCPU is the processors a compiled cell may use at once.
func numCPU() int { return runtime.NumCPU() }

// outcome explains how the program ended: its own report (end, sent by
// its runtime), the supervisor's kill, the heap watchdog (fatal), or the
// runtime's crash report on its standard error. before is what the
// program wrote to its standard error that is not the report.
func (r *programRun) outcome(end, fatal *wire.Message, l Limits) (res *Result, before string) {
	text := r.crash.String()
	var ws syscall.WaitStatus
	if r.cmd.ProcessState != nil {
		ws, _ = r.cmd.ProcessState.Sys().(syscall.WaitStatus)
	}
	crash, crashed := gotrace.ParseCrash(text)
	if crashed {
		before = crash.Before
	} else {
		before = text
	}
	switch {
	case r.killedBy == "timeout":
		return failed(wire.ClassTimeout, fmt.Sprintf("the cell exceeded the %v time limit and was stopped (a compiled cell's process is killed at its limit)", l.CellTimeout)), before
	case r.killedBy == "interrupt":
		return failed(wire.ClassInterrupted, "the cell was interrupted (its compiled process was stopped)"), before
	case r.killedBy != "":
		return &Result{}, "" // the supervisor's own reason (relayed.fail)
	case fatal != nil && fatal.Name == wire.ClassMemoryError:
		return failed(wire.ClassMemoryError, fmt.Sprintf("cell exceeded the %s heap limit", bytesize.Exact(l.HeapBytes))), before
	case crashed:
		return crashResult(crash, l), before
	case end != nil && end.Result != nil:
		return resultFrom(end.Result), before
	case ws.Exited() && ws.ExitStatus() == wire.ExitSetup:
		return failed(wire.ClassSandboxError, "the compiled cell could not start: "+lastLines(strings.TrimSpace(text), 5)), ""
	case ws.Exited() && ws.ExitStatus() == 0:
		// os.Exit(0): a program's successful end, as go run reports it.
		return &Result{Success: true}, before
	case ws.Exited():
		return failed(wire.ClassExit, fmt.Sprintf("exit status %d (the program called os.Exit or log.Fatal: it stopped there without running its deferred calls; the session and its variables are kept)", ws.ExitStatus())), before
	case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
		return failed(wire.ClassWorkerCrashed, "the compiled cell was killed by SIGKILL (its CPU-time limit, or the host's out-of-memory killer)"), before
	case ws.Signaled():
		return failed(wire.ClassWorkerCrashed, "the compiled cell was killed by "+ws.Signal().String()), before
	}
	return failed(wire.ClassWorkerCrashed, fmt.Sprintf("the compiled cell ended without a result (%v)", r.waitErr)), before
}

// crashResult classifies what the runtime reported when the program died.
func crashResult(c gotrace.Crash, l Limits) *Result {
	class, msg := wire.ClassPanic, c.Message
	switch {
	case !c.Fatal && strings.HasPrefix(msg, "runtime error: "):
		class = wire.ClassRuntimeError
	case !c.Fatal && c.Goroutine != 1:
		msg += " (in a goroutine the cell started)"
	case strings.Contains(msg, "deadlock"):
		class = wire.ClassDeadlock
		msg += "\n(the cell's code and every goroutine it started are blocked on channel operations, select or locks, and no timer is pending; as gc does, the program ends here)"
	case strings.Contains(msg, "stack overflow"):
		class = wire.ClassStackOverflow
		msg = fmt.Sprintf("the cell recursed too deeply (a goroutine stack exceeded %s); check the recursion's base case", bytesize.Exact(wire.MaxStackBytes))
	case strings.Contains(msg, "out of memory"):
		class = wire.ClassMemoryError
		msg = fmt.Sprintf("cell exceeded the %s heap limit (an allocation failed)", bytesize.Exact(l.HeapBytes))
	default:
		class = wire.ClassRuntimeError
		msg = "fatal error: " + msg
	}
	frames := make([]string, len(c.Frames))
	for i, f := range c.Frames {
		frames[i] = f.String()
	}
	r := failed(class, msg)
	r.Traceback = Traceback(class, msg, frames...)
	return r
}
