// Package cellrt is the runtime every compiled cell's program links
// (cellprep renders the cell as a program that imports it). Its init runs
// before any of the cell's code, the cell's package-level variables
// included (a package is initialised after those it imports): it forbids
// exec to the process (the launcher's one allowed exec was this program),
// reads its configuration from the supervisor, lowers the address-space
// limit (leaving room for the data when the supervisor passed it),
// points the cell's os.Stderr and package log at the stderr pipe, sends
// displays to the supervisor after the output written before them, and
// watches the heap. A program that uses award_data also links package
// celldata, whose init, after this one's and before the cell's code, maps
// the data from the descriptor it inherited and hands it to award_data.
// The program's main defers Finish, which reports the cell's end: its
// value (Show), or its panic with the cell's frames.
//
// It acts only in a process a launcher started (argv[0] is
// wire.ProgramArg0); linked anywhere else it does nothing, and Finish
// and Show are plain functions.
package cellrt

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/sbirtools/sbir-kernel/display"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/gotrace"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/valuefmt"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/isolate"
	"golang.org/x/sys/unix"
)

// cell is the runtime of this process's cell: nil outside a compiled
// cell's program. It is the package's one piece of state (the generated
// main calls package functions), set once by init.
var cell *runtimeState

// runtimeState is what the runtime keeps for the cell.
type runtimeState struct {
	out  *wire.Conn      // ReplyFD: displays, the end, the heap watchdog's report
	rows *wire.RowWindow // the frame rows results carry as records (celldata)
	// crash is the File of descriptor 2, where the runtime writes its
	// report of a fatal error (the supervisor reads it as the crash
	// report). os.Stderr is the program's own standard error; the File
	// it held before must stay reachable: a File nobody references is
	// closed by its cleanup after a collection, and the report of a
	// heap grown past the address-space limit (after many collections)
	// was then written to a closed descriptor, or to whatever took its
	// number, and lost.
	crash *os.File

	mu    sync.Mutex
	value []any // what Show captured
	shown bool
}

func init() {
	if len(os.Args) != 1 || os.Args[0] != wire.ProgramArg0 {
		return
	}
	c, err := start()
	if err != nil {
		// The supervisor reads standard error when the program ends
		// without a result.
		fmt.Fprintln(os.Stderr, "sbir-kernel: the compiled cell's runtime could not start:", err)
		os.Exit(wire.ExitSetup)
	}
	cell = c
}

// start sets the process up for the cell.
func start() (*runtimeState, error) {
	if err := isolate.DenyExec(); err != nil {
		return nil, fmt.Errorf("forbidding exec: %w", err)
	}
	cfgPipe := os.NewFile(wire.RequestFD, "sbir-config")
	m, err := wire.ReadFrame(cfgPipe)
	cfgPipe.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the configuration: %w", err)
	}
	if m.Op != wire.OpConfig || m.Program == nil {
		return nil, fmt.Errorf("expected the program's configuration, got %q", m.Op)
	}
	cfg := m.Program
	debug.SetMaxStack(wire.MaxStackBytes)
	debug.SetMemoryLimit(cfg.HeapBytes)
	if len(cfg.Zone) > 0 {
		if loc, err := time.LoadLocationFromTZData("Local", cfg.Zone); err == nil {
			time.Local = loc
		}
	}
	// Only now is the address space the program's own: its runtime
	// started; the data, when passed, is mapped next (celldata), in room
	// kept for it.
	if err := isolate.TightenAddressSpace(cfg.HeapBytes, dataSize()); err != nil {
		return nil, fmt.Errorf("limiting the address space: %w", err)
	}
	c := &runtimeState{out: wire.NewConn(strings.NewReader(""), os.NewFile(wire.ReplyFD, "sbir-replies")), rows: cfg.Rows, crash: os.Stderr}
	os.Stderr = os.NewFile(wire.ProgramStderrFD, "/dev/stderr")
	log.SetOutput(os.Stderr)
	display.SetSink(c.display)
	c.watchHeap(cfg.HeapBytes)
	return c, nil
}

// dataSize is the size of the data the supervisor passed as
// wire.DataFD (it passes it only to a program that uses award_data), or
// 0.
func dataSize() int64 {
	var st unix.Stat_t
	if unix.Fstat(wire.DataFD, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0
	}
	return st.Size
}

// Active reports whether this process is a compiled cell's program,
// set up by this package's init (celldata maps the data only then).
func Active() bool { return cell != nil }

// Rows is the part of a frame the cell's results carry as records, as
// the supervisor configured it (nil: the default).
func Rows() *wire.RowWindow {
	if cell == nil {
		return nil
	}
	return cell.rows
}

// Go is called before each go statement of the cell (cellprep puts the
// call there): with wire.MaxGoroutines goroutines alive, the statement
// panics instead of starting another, as it would in an interpreted
// cell. The heap watchdog, which looks after each garbage collection,
// would see a goroutine bomb only after gigabytes of stacks.
func Go() {
	if n := runtime.NumGoroutine(); n >= wire.MaxGoroutines {
		panic(fmt.Sprintf("too many goroutines: the cell already has %d alive (the limit is %d); a cell's goroutines must end by the end of the cell", n, wire.MaxGoroutines))
	}
}

// Show captures the values of the cell's last expression, shown as the
// cell's value when it ends.
func Show(v ...any) {
	if cell == nil {
		return
	}
	cell.mu.Lock()
	cell.value, cell.shown = v, true
	cell.mu.Unlock()
}

// Finish ends the cell; the generated main defers it first, so that it
// runs last. A panic of main's goroutine ends the program here, with the
// cell's frames and exit status 2, as an unrecovered panic would;
// otherwise the cell's value goes to the supervisor and main returns,
// which ends every goroutine.
func Finish() {
	p := recover()
	if cell == nil {
		if p != nil {
			panic(p)
		}
		return
	}
	if p != nil {
		cell.end(panicResult(p, string(debug.Stack())))
		os.Exit(2)
	}
	cell.mu.Lock()
	vals, shown := cell.value, cell.shown
	cell.mu.Unlock()
	res := &wire.Result{Success: true}
	if shown {
		res = valueResult(vals)
	}
	cell.end(res)
}

// end sends the cell's result.
func (c *runtimeState) end(res *wire.Result) {
	_ = c.out.Send(&wire.Message{Op: wire.OpResult, Result: res})
}

// panicResult reports a panic with value p and the stack it unwound.
func panicResult(p any, stack string) *wire.Result {
	class := panicClass(p)
	msg := strings.TrimSpace(panicText(p))
	var frames []string
	for _, f := range gotrace.Frames(stack) {
		frames = append(frames, f.String())
	}
	return &wire.Result{ErrorName: class, ErrorMessage: msg, Traceback: wire.Traceback(class, msg, frames...)}
}

// panicText is the runtime's text for a panic's value, which gc prints
// after "panic: ": an error's Error, a Stringer's String, and a value of
// a named type of a basic kind with its type, as in main.Code(3) or
// main.Name("x"); anything else as fmt prints it (the runtime prints an
// address for those).
func panicText(p any) string {
	switch p.(type) {
	case error, fmt.Stringer, nil:
		return fmt.Sprint(p)
	}
	t := reflect.TypeOf(p)
	if t.PkgPath() == "" || t.Kind() > reflect.Complex128 && t.Kind() != reflect.String {
		return fmt.Sprint(p)
	}
	if t.Kind() == reflect.String {
		return fmt.Sprintf("%s(\"%v\")", t, p)
	}
	return fmt.Sprintf("%s(%v)", t, p)
}

// valueResult renders the cell's value; a value carrying an error (an
// award_data frame built from a misspelt column) fails the cell with it,
// as the interpreter does.
func valueResult(vals []any) (res *wire.Result) {
	defer func() {
		if p := recover(); p != nil {
			msg := "formatting the cell's value panicked: " + strings.SplitN(fmt.Sprint(p), "\n", 2)[0]
			res = &wire.Result{ErrorName: "FormatError", ErrorMessage: msg, Traceback: wire.Traceback("FormatError", msg)}
		}
	}()
	if len(vals) == 1 {
		if e, ok := vals[0].(interface{ Err() error }); ok {
			if err := e.Err(); err != nil {
				class := panicClass(err)
				return &wire.Result{ErrorName: class, ErrorMessage: err.Error(), Traceback: wire.Traceback(class, err.Error())}
			}
		}
	}
	return &wire.Result{Success: true, Value: valuefmt.Bundle(vals)}
}

// panicClass classifies a panic value as the interpreter's worker does:
// an error that names its class, a runtime error, award_data's and
// display's errors, or a plain panic.
func panicClass(v any) string {
	if n, ok := v.(interface{ ErrorName() string }); ok {
		return n.ErrorName()
	}
	if _, ok := v.(runtime.Error); ok {
		return wire.ClassRuntimeError
	}
	if err, ok := v.(error); ok {
		t := strings.TrimPrefix(fmt.Sprintf("%T", err), "*")
		if strings.HasPrefix(t, "award_data.") || strings.HasPrefix(t, "display.") {
			return t
		}
	}
	return wire.ClassPanic
}

// display sends a display call of the cell to the supervisor once the
// output written before it has left the pipes, and returns once the
// supervisor has read it, so that output and displays arrive in the order
// the cell made them (the supervisor reads the pipes in one loop).
func (c *runtimeState) display(m display.Message) {
	awaitDrained(1, drainWait)
	awaitDrained(wire.ProgramStderrFD, drainWait)
	defer awaitDrained(wire.ReplyFD, readWait)
	if m.Clear {
		_ = c.out.Send(&wire.Message{Op: wire.OpClear, Wait: m.Wait})
		return
	}
	msg := &wire.Message{Op: wire.OpDisplay, Display: &wire.Display{Data: encode(m.Data), Metadata: encode(m.Metadata), DisplayID: m.DisplayID, Update: m.Update}}
	if err := c.out.Send(msg); err != nil {
		fmt.Fprintf(os.Stderr, "... [a display was dropped: %v]\n", err)
	}
}

// drainWait bounds how long a display waits for earlier output to be read
// (a cell's other goroutine may write without pause); readWait how long
// it waits for the supervisor to read the display itself.
const (
	drainWait = time.Second
	readWait  = 2 * time.Second
)

// awaitDrained waits until the supervisor has read what the pipe on fd
// holds (FIONREAD works on a pipe's write end too), or wait passed.
func awaitDrained(fd int, wait time.Duration) {
	deadline := time.Now().Add(wait)
	for pause := 20 * time.Microsecond; ; pause = min(2*pause, time.Millisecond) {
		n, err := queued(fd)
		if err != nil || n == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(pause)
	}
}

// encode converts a MIME bundle's values to JSON once, as the worker
// does, so that the frame carries what the kernel sends.
func encode(in map[string]any) map[string]any {
	if in == nil {
		return nil
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		b, err := json.Marshal(v)
		if err != nil {
			b, _ = json.Marshal(fmt.Sprintf("<%s could not be encoded: %v>", k, err))
		}
		out[k] = json.RawMessage(b)
	}
	return out
}

// watchHeap ends the program when its heap and goroutine stacks exceed
// the budget (the memory limit alone is soft), as the worker's watchdog
// does; the address-space limit is the backstop. It looks after every
// garbage collection (which the memory limit makes frequent as the heap
// nears it), from a finalizer rather than a goroutine of its own: a
// goroutine that sleeps or waits in a system call would keep the runtime
// from reporting a deadlock, as it must when every goroutine of the cell
// is blocked.
func (c *runtimeState) watchHeap(limit int64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	var arm func()
	check := func(*gcTick) {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
			return
		}
		if used := sample[0].Value.Uint64() + sample[1].Value.Uint64(); used > uint64(limit) {
			_ = c.out.Send(&wire.Message{Op: wire.OpFatal, Name: wire.ClassMemoryError, Text: "the heap reached " + bytesize.Exact(int64(used))})
			os.Exit(wire.ExitHeapLimit)
		}
		arm()
	}
	arm = func() { runtime.SetFinalizer(&gcTick{}, check) }
	arm()
}

// gcTick is garbage as soon as it is made: its finalizer runs after the
// next collection. (It holds a pointer so that the tiny allocator, whose
// blocks may keep a finalizer from ever running, does not take it.)
type gcTick struct{ _ *gcTick }
