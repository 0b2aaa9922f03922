package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/assist"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/isolate"

	"golang.org/x/sys/unix"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/display"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// IsWorker reports whether this process was started as a sandbox worker
// (or as its isolation probe, or as the launcher of a compiled cell).
// main (and TestMain of packages that start sessions) must then call
// WorkerMain instead of doing anything else.
func IsWorker() bool {
	return len(os.Args) > 1 && (os.Args[1] == wire.WorkerArg || os.Args[1] == wire.ProbeArg || os.Args[1] == wire.LaunchArg)
}

// Main runs the worker side of a session: it reads its configuration
// from the supervisor, maps the data, applies the isolation layers, builds
// the interpreter and serves cells until the supervisor closes the pipe.
// It returns the process exit status.
func Main() int {
	switch os.Args[1] {
	case wire.ProbeArg:
		return 0
	case wire.LaunchArg:
		return launch()
	}
	in := os.NewFile(wire.RequestFD, "sbir-requests")
	out := os.NewFile(wire.ReplyFD, "sbir-replies")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "sbir-kernel worker: started without the supervisor's pipes (fds 3 and 4); the worker is started by the kernel, not by hand")
		return wire.ExitSetup
	}
	dataFD := -1
	var st unix.Stat_t
	if unix.Fstat(wire.DataFD, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		dataFD = wire.DataFD
	}
	pkgFD := -1
	if unix.Fstat(wire.PackagesFD, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		pkgFD = wire.PackagesFD
	}
	// On failure the worker goes on without Landlock; the layer reports
	// why.
	reexecErr := isolate.ReexecLandlocked(dataFD, pkgFD)
	c := wire.NewConn(in, out)
	w, err := startWorker(c, reexecErr)
	if err != nil {
		_ = c.Send(&wire.Message{Op: wire.OpReady, Ready: &wire.Ready{Err: err.Error()}})
		return wire.ExitSetup
	}
	return w.serve()
}

// openData maps the data file, if the session has one, and hands it to
// award_data; it returns the column names.
func (w *worker) openData() (columns []string, err error) {
	if w.cfg.DataPath == "" {
		return nil, nil
	}
	d, err := dataset.OpenFile(w.cfg.DataPath)
	if err != nil {
		return nil, fmt.Errorf("opening the data: %w", err)
	}
	defer func() {
		// A file damaged where OpenFile does not look (it checks the
		// shape of the columns; Locate checked every row before handing
		// it over) must fail the start with a message, not a Go stack.
		if p := recover(); p != nil {
			d.Close()
			columns, err = nil, fmt.Errorf("loading the data into award_data: the Arrow file is corrupt (%v); restarting the kernel converts it again", p)
		}
	}()
	if err := award_data.Use(d); err != nil {
		d.Close()
		return nil, fmt.Errorf("loading the data into award_data: %w", err)
	}
	w.data = d
	for _, f := range d.Schema().Fields() {
		columns = append(columns, f.Name)
	}
	return columns, nil
}

// worker is the worker process's state.
type worker struct {
	c     *wire.Conn
	cfg   wire.Config
	out   *cellOutput
	stdin *inputReader
	sess  *session
	data  *dataset.Dataset
	// assist answers completion and inspection; used by serve's
	// goroutine only.
	assist  *assist.Assistant
	running sync.Mutex // held while a cell runs
	cancel  context.CancelFunc
	mu      sync.Mutex // guards cancel
}

// gcPercent is the worker's GOGC (see startWorker).
const gcPercent = 400

// startWorker reads the configuration, maps the data, builds the
// interpreter and applies the isolation layers; reexecErr is why a cgo
// build runs without Landlock.
func startWorker(c *wire.Conn, reexecErr error) (*worker, error) {
	m, err := c.Recv()
	if err != nil {
		return nil, fmt.Errorf("reading the configuration: %w", err)
	}
	if m.Op != wire.OpConfig || m.Config == nil {
		return nil, fmt.Errorf("expected a config message, got %q", m.Op)
	}
	w := &worker{c: c, cfg: *m.Config}
	debug.SetMaxStack(wire.MaxStackBytes)
	debug.SetMemoryLimit(w.cfg.HeapBytes)
	// The interpreter makes garbage at every call (frames, reflect
	// values): collecting at 5 times the live heap instead of 2 took 38%
	// less CPU on the call-heavy bench/lang programs (fib, closures,
	// sortslice, methods: 11.0 -> 6.8 s), for +45 MiB of peak resident
	// memory on them (docs/performance.md). The memory limit above still
	// makes the collector run as the heap nears the session's budget.
	debug.SetGCPercent(gcPercent)
	// Load the local time zone now: Landlock hides /etc/localtime later.
	_ = time.Now().Local()
	w.out = newCellOutput(c.Send, c.SendStream, w.cfg.MaxOutputBytes)
	w.stdin = &inputReader{send: c.Send, flush: w.out.flush, replies: make(chan *wire.Message, 1)}
	display.SetSink(w.display)
	// The interpreter (~8 ms) is built while the data is mapped and
	// wrapped (~7 ms), on the other core: a session starts in that much
	// less time. Building it reads no file and runs no cell code; the
	// isolation layers still come before the first cell.
	type built struct {
		sess *session
		err  error
	}
	interpDone := make(chan built, 1)
	go func() {
		sess, err := newInterpreter(w.out, w.stdin, w.cfg.PackagesDir)
		interpDone <- built{sess, err}
	}()
	columns, dataErr := w.openData()
	b := <-interpDone
	if dataErr != nil {
		return nil, dataErr
	}
	if b.err != nil {
		return nil, b.err
	}
	w.sess = b.sess
	w.sess.killGrace = w.cfg.KillGrace
	var layers []wire.Layer
	if w.cfg.Isolate {
		layers = isolate.Apply(w.cfg, reexecErr)
	}
	go w.watchHeap()
	layers = append(layers, wire.Layer{Name: "heap-watchdog", Active: true,
		Detail: fmt.Sprintf("the worker stops when its heap exceeds %s; goroutine stacks are limited to %s", bytesize.Exact(w.cfg.HeapBytes), bytesize.Exact(wire.MaxStackBytes))})

	w.assist = assist.New(assistSession{w.sess}, w.data, columns, w.cfg.PackagesDir)
	if err := c.Send(&wire.Message{Op: wire.OpReady, Ready: &wire.Ready{Layers: layers, Columns: columns}}); err != nil {
		return nil, err
	}
	return w, nil
}

// display forwards display.* calls of the cell to the supervisor, after the
// output written before them.
func (w *worker) display(m display.Message) {
	// A clear is charged too: each is a message the kernel signs and
	// publishes to every client.
	data, meta, ok := w.out.admitDisplay(m)
	if !ok {
		return
	}
	w.out.flush()
	if m.Clear {
		_ = w.c.Send(&wire.Message{Op: wire.OpClear, Wait: m.Wait})
		return
	}
	_ = w.c.Send(&wire.Message{Op: wire.OpDisplay, Display: &wire.Display{Data: data, Metadata: meta, DisplayID: m.DisplayID, Update: m.Update}})
}

// serve reads requests until the supervisor closes the pipe.
func (w *worker) serve() int {
	for {
		m, err := w.c.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintln(os.Stderr, "sbir-kernel worker:", err)
			return wire.ExitSetup
		}
		switch m.Op {
		case wire.OpRun:
			if w.sess.abandoned.Load() {
				// A formatting call that never returned still holds the
				// interpreter (an inspect reply that carried the restart
				// flag may have come too late): no cell runs beside it.
				res := wire.Fail(wire.ClassWorkerCrashed, "an earlier value's String method never returned, so this worker was replaced before the cell ran; all variables of this session were lost")
				res.ReplaceWorker = true
				_ = w.c.Send(&wire.Message{Op: wire.OpResult, ID: m.ID, Result: res})
				continue
			}
			w.assist.NoteCell(m.Chunks)
			w.startCell(m.ID, m.Chunks, m.Rows)
		case wire.OpInterrupt:
			w.mu.Lock()
			if w.cancel != nil {
				w.cancel()
			}
			w.mu.Unlock()
		case wire.OpInputRep:
			select {
			case w.stdin.replies <- m:
			default:
			}
		case wire.OpComplete:
			c := w.assist.Complete(m.Code, m.Cursor, m.Names)
			_ = w.c.Send(&wire.Message{Op: wire.OpReply, ID: m.ID, Completion: &c})
		case wire.OpInspect:
			in := w.assist.Inspect(m.Code, m.Cursor, m.Detail, m.Names)
			_ = w.c.Send(&wire.Message{Op: wire.OpReply, ID: m.ID, Inspection: &in, Restart: w.sess.abandoned.Load()})
		case wire.OpPreflight:
			_ = w.c.Send(&wire.Message{Op: wire.OpReply, ID: m.ID, Err: preflightImport(w.cfg.PackagesDir, m.Code)})
		case wire.OpProbe:
			if m.Probe != nil {
				_ = w.c.Send(&wire.Message{Op: wire.OpReply, ID: m.ID, Probes: isolate.Probe(*m.Probe)})
			}
		default:
			fmt.Fprintf(os.Stderr, "sbir-kernel worker: unknown request %q\n", m.Op)
		}
	}
}

// startCell runs a cell on its own goroutine so that serve keeps reading
// interrupts and input replies.
func (w *worker) startCell(id uint64, chunks []wire.Chunk, rows *wire.RowWindow) {
	ctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	w.running.Lock()
	go func() {
		defer w.running.Unlock()
		defer cancel()
		res := &wire.Result{}
		w.out.begin()
		// The frames this cell shows carry the rows its caller asked for
		// (the supervisor checked the bounds).
		if rows != nil {
			_ = award_data.SetRecordWindow(rows.Offset, rows.Limit)
			defer award_data.SetRecordWindow(0, 0)
		}
		w.sess.run(ctx, chunks, res)
		// A deadlocked cell was interrupted from within.
		interrupted := ctx.Err() != nil || res.ErrorName == wire.ClassDeadlock
		cancel()
		w.out.end(res)
		// The supervisor keeps its own copy of the streams.
		res.Stdout, res.Stderr = "", ""
		// Before any other evaluation: the cell's top-level closure must
		// not run again (forgetMain). A worker the cell already condemned
		// (its goroutines inside compiled code did not stop) stays
		// condemned: a health check passes beside such a goroutine, and
		// letting it decide kept the worker, and the goroutine running.
		switch {
		case res.ReplaceWorker:
		case interrupted || w.sess.abandoned.Load():
			res.ReplaceWorker = !w.sess.healthy() // the supervisor replaces this worker
		default:
			res.ReplaceWorker = w.sess.forgetMain() != nil
		}
		_ = w.c.Send(&wire.Message{Op: wire.OpResult, ID: id, Result: res})
	}()
}

// watchHeap ends the worker when the heap exceeds its budget: the Go
// memory limit alone is soft and a cell could hold far more. Goroutine
// stacks count: they are heap memory too, and a cell's blocked goroutines
// with deep interpreted stacks held 514 MiB resident under a 256 MiB
// budget when only objects counted.
func (w *worker) watchHeap() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	limit := uint64(w.cfg.HeapBytes)
	for {
		time.Sleep(10 * time.Millisecond)
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
			return
		}
		objects, stacks := sample[0].Value.Uint64(), sample[1].Value.Uint64()
		if used := objects + stacks; used > limit {
			text := "its heap reached " + bytesize.ApproxIEC(int64(used))
			if stacks > used/4 {
				text += ", " + bytesize.ApproxIEC(int64(stacks)) + " of it goroutine stacks"
			}
			done := make(chan struct{})
			go func() {
				_ = w.c.Send(&wire.Message{Op: wire.OpFatal, Name: wire.ClassMemoryError, Text: text})
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(200 * time.Millisecond):
			}
			os.Exit(wire.ExitHeapLimit)
		}
	}
}
