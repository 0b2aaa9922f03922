package sandbox

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

	"golang.org/x/sys/unix"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/display"
)

// workerArg is argv[1] of a worker process.
const workerArg = "__sbir_worker"

// Worker exit statuses the supervisor interprets.
const (
	exitHeapLimit = 3 // the heap watchdog fired
	exitSetup     = 4 // the worker could not start
)

// maxStackBytes bounds a goroutine's stack in the worker, so that runaway
// recursion ends the worker quickly instead of after gigabytes.
const maxStackBytes = 256 << 20

// IsWorker reports whether this process was started as a sandbox worker.
// main (and TestMain of packages that start sessions) must then call
// WorkerMain instead of doing anything else.
func IsWorker() bool { return len(os.Args) > 1 && os.Args[1] == workerArg }

// WorkerMain runs the worker side of a session: it reads its configuration
// from the supervisor, maps the data, applies the isolation layers, builds
// the interpreter and serves cells until the supervisor closes the pipe.
// It returns the process exit status.
func WorkerMain() int {
	in := os.NewFile(3, "sbir-requests")
	out := os.NewFile(4, "sbir-replies")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "sbir-kernel worker: started without the supervisor's pipes (fds 3 and 4); the worker is started by the kernel, not by hand")
		return exitSetup
	}
	dataFD := -1
	var st unix.Stat_t
	if unix.Fstat(workerDataFD, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		dataFD = workerDataFD
	}
	pkgFD := -1
	if unix.Fstat(workerPackagesFD, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		pkgFD = workerPackagesFD
	}
	if err := maybeReexecLandlocked(dataFD, pkgFD); err != nil {
		// The worker goes on without Landlock; the layer reports why.
		reexecErr = err
	}
	c := newConn(in, out)
	w, err := startWorker(c)
	if err != nil {
		_ = c.send(&message{Op: opReady, Ready: &ready{Err: err.Error()}})
		return exitSetup
	}
	return w.serve()
}

// worker is the worker process's state.
type worker struct {
	c       *conn
	cfg     workerConfig
	out     *cellOutput
	stdin   *inputReader
	sess    *session
	data    *dataset.Dataset
	columns []string
	src     *sourceDocs // third-party API for completion and inspection
	running sync.Mutex  // held while a cell runs
	cancel  context.CancelFunc
	mu      sync.Mutex // guards cancel
}

func startWorker(c *conn) (*worker, error) {
	m, err := c.recv()
	if err != nil {
		return nil, fmt.Errorf("reading the configuration: %w", err)
	}
	if m.Op != opConfig || m.Config == nil {
		return nil, fmt.Errorf("expected a config message, got %q", m.Op)
	}
	w := &worker{c: c, cfg: *m.Config}
	debug.SetMaxStack(maxStackBytes)
	debug.SetMemoryLimit(w.cfg.HeapBytes)
	// Load the local time zone now: Landlock hides /etc/localtime later.
	_ = time.Now().Local()
	var columns []string
	if w.cfg.DataPath != "" {
		d, err := dataset.OpenFile(w.cfg.DataPath)
		if err != nil {
			return nil, fmt.Errorf("opening the data: %w", err)
		}
		if err := award_data.Use(d); err != nil {
			d.Close()
			return nil, fmt.Errorf("loading the data into award_data: %w", err)
		}
		w.data = d
		for _, f := range d.Schema().Fields() {
			columns = append(columns, f.Name)
		}
	}
	var layers []Layer
	if w.cfg.Isolate {
		layers = applyIsolation(w.cfg)
	}
	go w.watchHeap()
	layers = append(layers, Layer{Name: "heap-watchdog", Active: true,
		Detail: fmt.Sprintf("the worker stops when its heap exceeds %s; goroutine stacks are limited to %s", formatBytes(w.cfg.HeapBytes), formatBytes(maxStackBytes))})

	w.out = newCellOutput(c.send, w.cfg.MaxOutputBytes)
	w.stdin = &inputReader{send: c.send, flush: w.out.flush, replies: make(chan *message, 1)}
	display.SetSink(w.display)
	sess, err := newInterpreter(w.out, w.stdin, w.cfg.PackagesDir)
	if err != nil {
		return nil, err
	}
	w.sess = sess
	w.columns = columns
	w.src = newSourceDocs(w.cfg.PackagesDir)
	if err := c.send(&message{Op: opReady, Ready: &ready{Layers: layers, Columns: columns}}); err != nil {
		return nil, err
	}
	return w, nil
}

// display forwards display.* calls of the cell to the supervisor, after the
// output written before them.
func (w *worker) display(m display.Message) {
	if !m.Clear {
		n := 0
		for _, v := range m.Data {
			switch x := v.(type) {
			case string:
				n += len(x)
			case []byte:
				n += len(x)
			default:
				n += 64
			}
		}
		if !w.out.allowDisplay(n) {
			return
		}
	}
	w.out.flush()
	if m.Clear {
		_ = w.c.send(&message{Op: opClear, Wait: m.Wait})
		return
	}
	_ = w.c.send(&message{Op: opDisplay, Display: &Display{Data: m.Data, Metadata: m.Metadata, DisplayID: m.DisplayID, Update: m.Update}})
}

// serve reads requests until the supervisor closes the pipe.
func (w *worker) serve() int {
	for {
		m, err := w.c.recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintln(os.Stderr, "sbir-kernel worker:", err)
			return exitSetup
		}
		switch m.Op {
		case opRun:
			w.src.noteImports(m.Chunks)
			w.startCell(m.Chunks)
		case opInterrupt:
			w.mu.Lock()
			if w.cancel != nil {
				w.cancel()
			}
			w.mu.Unlock()
		case opInputRep:
			select {
			case w.stdin.replies <- m:
			default:
			}
		case opComplete:
			c := w.complete(m.Code, m.Cursor, m.Names, w.columns)
			_ = w.c.send(&message{Op: opReply, Completion: &c})
		case opInspect:
			in := w.inspect(m.Code, m.Cursor, m.Detail, m.Names)
			_ = w.c.send(&message{Op: opReply, Inspection: &in})
		case opPreflight:
			_ = w.c.send(&message{Op: opReply, Err: preflightImport(w.cfg.PackagesDir, m.Code)})
		case opProbe:
			if m.Probe != nil {
				_ = w.c.send(&message{Op: opReply, Probes: runProbes(*m.Probe)})
			}
		default:
			fmt.Fprintf(os.Stderr, "sbir-kernel worker: unknown request %q\n", m.Op)
		}
	}
}

// startCell runs a cell on its own goroutine so that serve keeps reading
// interrupts and input replies.
func (w *worker) startCell(chunks []chunk) {
	ctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	w.running.Lock()
	go func() {
		defer w.running.Unlock()
		defer cancel()
		res := &Result{}
		w.out.begin()
		w.sess.run(ctx, chunks, res)
		interrupted := ctx.Err() != nil
		cancel()
		w.out.end(res)
		// The supervisor keeps its own copy of the streams.
		res.Stdout, res.Stderr = "", ""
		if interrupted && !w.sess.healthy() {
			res.Restarted = true // the supervisor replaces this worker
		} else {
			w.sess.forgetMain()
		}
		_ = w.c.send(&message{Op: opResult, Result: res})
	}()
}

// watchHeap ends the worker when the heap exceeds its budget: the Go
// memory limit alone is soft and a cell could hold far more.
func (w *worker) watchHeap() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	limit := uint64(w.cfg.HeapBytes)
	for {
		time.Sleep(10 * time.Millisecond)
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if used := sample[0].Value.Uint64(); used > limit {
			done := make(chan struct{})
			go func() {
				_ = w.c.send(&message{Op: opFatal, Name: "MemoryError", Text: fmt.Sprintf("the heap reached %s", formatBytes(int64(used)))})
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(200 * time.Millisecond):
			}
			os.Exit(exitHeapLimit)
		}
	}
}
