// Package wire is the protocol between the supervisor (package sandbox)
// and a worker process (package worker): framed messages over two pipes,
// each request numbered and its reply carrying the number; the process
// contract (argv, the descriptors the worker inherits, exit statuses); the
// payloads both sides exchange; and the error classes of a failed cell,
// with the one traceback builder. It depends on the standard library only,
// so that each side links nothing of the other.
package wire

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
	"unsafe"
)

// MaxFrameBytes bounds a frame. The supervisor and the worker exchange
// frames over two pipes (never the worker's stdout, which cells could
// reach if they ever escaped the interpreter's writers): a 4-byte
// big-endian length, then one JSON message (or a raw stream frame).
const MaxFrameBytes = 16 << 20

// Message operations.
const (
	// supervisor → worker
	OpConfig    = "config"    // first message: what the worker needs to start
	OpRun       = "run"       // evaluate chunks
	OpInterrupt = "interrupt" // cancel the running cell
	OpInputRep  = "input_reply"
	OpComplete  = "complete"
	OpInspect   = "inspect"
	OpProbe     = "probe"     // attempt escapes and report (tests, doctor)
	OpPreflight = "preflight" // load one third-party package (Code) in a fresh interpreter
	OpExec      = "exec"      // a launcher's program is in ExecFD, sealed: execute it
	// worker → supervisor
	OpReady    = "ready"  // the worker is isolated and the interpreter is up
	OpStream   = "stream" // batched stdout/stderr of the running cell
	OpDisplay  = "display"
	OpClear    = "clear"
	OpInputReq = "input_request"
	OpResult   = "result" // end of a cell
	OpReply    = "reply"  // answer to complete/inspect/preflight (Err: why the package failed)
	OpFatal    = "fatal"  // the worker is about to exit: why
)

// Message is the single frame type; each op uses a few fields.
type Message struct {
	Op string `json:"op"`
	// ID pairs a reply with its request: the supervisor numbers every
	// run, complete, inspect, probe and pre-flight request, and the worker
	// copies the number into the reply (OpReply) or the cell's end
	// (OpResult) and into everything the cell sends meanwhile. A reply to
	// a request the supervisor gave up on is recognised and dropped.
	ID uint64 `json:"id,omitempty"`

	Config *Config `json:"config,omitempty"`
	// Program configures a compiled cell's runtime (the second config
	// frame a launcher's process reads; see LaunchArg).
	Program *ProgramConfig `json:"program,omitempty"`
	Chunks  []Chunk        `json:"chunks,omitempty"`
	// Rows, on a run, is the part of a frame the cell's results carry as
	// records (award_data.SetRecordWindow); nil: the display settings'.
	Rows *RowWindow `json:"rows,omitempty"`

	Name     string `json:"name,omitempty"` // stream name; fatal error name
	Text     string `json:"text,omitempty"` // stream text; input; fatal message
	Password bool   `json:"password,omitempty"`
	Wait     bool   `json:"wait,omitempty"`
	Err      string `json:"err,omitempty"`

	Display *Display `json:"display,omitempty"`
	Result  *Result  `json:"result,omitempty"`
	Ready   *Ready   `json:"ready,omitempty"`

	Code   string `json:"code,omitempty"`
	Cursor int    `json:"cursor,omitempty"`
	Detail int    `json:"detail,omitempty"`
	// Names are the session's top-level names, for completion.
	Names []string `json:"names,omitempty"`

	// Restart, on a reply, says that the worker is unusable after this
	// request (formatting a value ran compiled code past its deadline and
	// the interpreter is still in use): the supervisor replaces it.
	Restart bool `json:"restart,omitempty"`

	Probe      *ProbeTarget  `json:"probe,omitempty"`
	Probes     []ProbeResult `json:"probes,omitempty"`
	Completion *Completion   `json:"completion,omitempty"`
	Inspection *Inspection   `json:"inspection,omitempty"`

	// frame is the buffer a stream message's Text views (Conn.Recycle).
	frame []byte
}

// RowWindow is Limit rows of a frame from position Offset.
type RowWindow struct {
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

// Config is the first message a new worker receives (OpConfig).
type Config struct {
	DataPath       string `json:"data_path"`
	DataSize       int64  `json:"data_size"`
	HeapBytes      int64  `json:"heap_bytes"`
	MaxOutputBytes int    `json:"max_output_bytes"`
	// PackagesDir is the package environment's root (GOPATH layout) as
	// the worker sees it, /proc/self/fd/N; "" when the session has none.
	// The worker may read beneath it and nothing else.
	PackagesDir string `json:"packages_dir,omitempty"`
	// Isolate applies the in-process layers (Landlock, seccomp, rlimits).
	Isolate bool `json:"isolate"`
	// Nproc is RLIMIT_NPROC, set only when the worker runs as a uid of
	// its own (0: not set).
	Nproc int `json:"nproc,omitempty"`
	// CPUSeconds overrides the RLIMIT_CPU backstop (0: the CPUSeconds
	// constant); tests lower it to see the kill happen.
	CPUSeconds int `json:"cpu_seconds,omitempty"`
	// KillGrace is how long the supervisor waits for an interrupted
	// cell's result before it kills the worker (0: its default); the
	// worker's wait for the cell's goroutines to stop fits within it.
	KillGrace time.Duration `json:"kill_grace,omitempty"`
}

// Ready is the worker's report once it accepts cells (OpReady): its
// isolation layers and the data's columns, or why it could not start.
type Ready struct {
	Layers  []Layer  `json:"layers"`
	Columns []string `json:"columns,omitempty"`
	Err     string   `json:"err,omitempty"`
}

// Conn reads and writes frames; writes are serialised.
type Conn struct {
	r  *bufio.Reader
	mu sync.Mutex
	w  io.Writer
	// spare holds stream frame buffers handed back by Recycle, which Recv
	// reads later stream frames into.
	spare chan []byte
}

// spareFrames bounds the buffers a Conn keeps for reuse: a few 256 KiB
// frames are in flight between the reader and the kernel at a time.
const spareFrames = 4

// NewConn returns a connection that reads frames from r and writes them
// to w.
func NewConn(r io.Reader, w io.Writer) *Conn {
	return &Conn{r: bufio.NewReaderSize(r, 64<<10), w: w, spare: make(chan []byte, spareFrames)}
}

// Send writes m as one JSON frame.
func (c *Conn) Send(m *Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("sandbox: encoding %s message: %w", m.Op, err)
	}
	if len(b) > MaxFrameBytes {
		return fmt.Errorf("sandbox: %s message of %d bytes exceeds the %d-byte frame limit", m.Op, len(b), MaxFrameBytes)
	}
	buf := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.w.Write(buf)
	return err
}

// streamFrame marks, in a frame's length word, a stream frame: one byte
// naming the stream (streamStdout or streamStderr), then the text as is.
// Output is the one message sent in bulk, and JSON would escape and
// unescape every byte of it on both sides.
const (
	streamFrame  = 1 << 31
	streamStdout = 0
	streamStderr = 1
)

// SendStream sends text of the stream name ("stdout" or "stderr") as a
// stream frame; the reader sees an OpStream message.
func (c *Conn) SendStream(name string, text []byte) error {
	if len(text)+1 > MaxFrameBytes {
		return fmt.Errorf("sandbox: stream frame of %d bytes exceeds the %d-byte frame limit", len(text)+1, MaxFrameBytes)
	}
	var hdr [5]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(text)+1)|streamFrame)
	hdr[4] = streamStdout
	if name == "stderr" {
		hdr[4] = streamStderr
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := c.w.Write(text)
	return err
}

// Recv reads the next frame. A stream message's Text views a buffer that
// Recycle may hand back for reuse.
func (c *Conn) Recv() (*Message, error) {
	return readFrame(c.r, c.frameBuffer)
}

// frameBuffer returns a buffer of n bytes for a stream frame, reusing one
// handed back by Recycle when it is large enough.
func (c *Conn) frameBuffer(n int) []byte {
	select {
	case b := <-c.spare:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return make([]byte, n)
}

// Recycle hands back the memory of a stream message that Recv returned,
// for a later stream frame: m.Text, and any string taken from it without
// a copy, must not be used afterwards. Without it the memory is garbage
// once unused; the kernel recycles each frame once its text is encoded,
// which spared the collector 1 MiB per 1 MiB cell.
func (c *Conn) Recycle(m *Message) {
	if m.frame == nil {
		return
	}
	b := m.frame
	m.frame, m.Text = nil, ""
	select {
	case c.spare <- b:
	default:
	}
}

// ReadFrame decodes one frame from r.
func ReadFrame(r io.Reader) (*Message, error) {
	return readFrame(r, nil)
}

// readFrame is ReadFrame, reading a stream frame into streamBuf(n) when
// streamBuf is not nil.
func readFrame(r io.Reader, streamBuf func(n int) []byte) (*Message, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	stream := n&streamFrame != 0
	n &^= streamFrame
	if n > MaxFrameBytes {
		return nil, fmt.Errorf("sandbox: frame of %d bytes exceeds the %d-byte limit", n, MaxFrameBytes)
	}
	var b []byte
	if stream && streamBuf != nil {
		b = streamBuf(int(n))
	} else {
		b = make([]byte, n)
	}
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if stream {
		if n == 0 || b[0] > streamStderr {
			return nil, fmt.Errorf("sandbox: stream frame without a valid stream byte")
		}
		name := "stdout"
		if b[0] == streamStderr {
			name = "stderr"
		}
		// b is this frame's own buffer, written again only after
		// Conn.Recycle, so the text can be a view of it: a 1 MiB write is
		// not copied once more.
		text := ""
		if n > 1 {
			text = unsafe.String(&b[1], n-1)
		}
		return &Message{Op: OpStream, Name: name, Text: text, frame: b}, nil
	}
	m := new(Message)
	// Numbers in MIME bundles (display.JSON, a frame's table
	// representation) keep their text: decoded as float64, an int64 past
	// 2^53 would reach clients changed.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(m); err != nil {
		return nil, fmt.Errorf("sandbox: decoding frame: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("sandbox: decoding frame: data after the message")
	}
	if m.Op == "" {
		return nil, fmt.Errorf("sandbox: frame without an op")
	}
	return m, nil
}

// ProbeResult is one attempt, made inside an isolated worker, to do what
// an escaped cell would try.
type ProbeResult struct {
	Name    string `json:"name"`
	Blocked bool   `json:"blocked"`
	Detail  string `json:"detail"`
}

// ProbeTarget tells the worker what to aim at: a TCP and a UDP address
// the supervisor listens on, and the supervisor's pid.
type ProbeTarget struct {
	TCP, UDP string
	PID      int
	Secret   string // an environment variable name of the supervisor
	File     string // a file next to the kernel
}

// The process contract between the supervisor and a worker it starts.
const (
	// WorkerArg is argv[1] of a worker process: the binary is re-executed
	// with it and runs the worker instead of its command line.
	WorkerArg = "__sbir_worker"
	// ProbeArg is argv[1] of the process the supervisor starts once to
	// learn whether the host allows namespaces; it exits at once.
	ProbeArg = "__sbir_isolation_probe"
	// LaunchArg is argv[1] of a launcher: the binary re-executed to run a
	// compiled cell. It reads a Config (OpConfig) from RequestFD, applies
	// the worker's isolation layers, sends OpReady with them on ReplyFD,
	// waits for OpExec (the supervisor starts it while the program is
	// built, and fills and seals ExecFD after) and executes the program
	// in ExecFD, which reads a ProgramConfig (OpConfig, Program set) from
	// RequestFD in turn. The program's
	// standard output is the cell's stdout, ProgramStderrFD its stderr,
	// standard error the Go runtime's own reports (panics), ReplyFD its
	// displays and its end (OpResult), DataFD the data.
	LaunchArg = "__sbir_launch"
	// ProgramArg0 is argv[0] of a compiled cell's program: its runtime
	// acts only in a process started so.
	ProgramArg0 = "sbir-cell"
	// RequestFD and ReplyFD are the ends of the supervisor's two pipes in
	// a worker, a launcher and a compiled cell's program.
	RequestFD = 3
	ReplyFD   = 4
	// ProgramStderrFD is a compiled cell's os.Stderr.
	ProgramStderrFD = 6
	// ExecFD is the launcher's descriptor of the program to execute.
	ExecFD = 7
	// StatusFD is a compiled cell's /proc/self/status, opened by its
	// launcher (the program may open no file).
	StatusFD = 8
	// DataFD is the worker's descriptor of the data file, opened read-only
	// by the supervisor, so that the worker never needs a path to it.
	DataFD = 5
	// PackagesFD is the worker's descriptor of its package environment's
	// directory, when the session has one.
	PackagesFD = 6
	// CPUSeconds is the worker's lifetime CPU-time backstop (RLIMIT_CPU);
	// the cell timeout and interrupts act long before it.
	CPUSeconds = 3600
)

// Worker exit statuses the supervisor interprets.
const (
	ExitHeapLimit = 3 // the heap watchdog fired
	ExitSetup     = 4 // the worker could not start
)

// MaxGoroutines bounds the goroutines cells may have alive at once, in a
// worker (those of earlier cells that are blocked forever included) or in
// a compiled cell's process: a goroutine bomb fails its cell instead of
// exhausting the process long before the heap watchdog looks.
const MaxGoroutines = 10000

// MaxStackBytes bounds a goroutine's stack in the worker, so that runaway
// recursion ends the worker quickly instead of after gigabytes.
const MaxStackBytes = 256 << 20

// Close closes the write side of the connection when it can be closed: for
// a worker's request pipe, that tells the worker to exit.
func (c *Conn) Close() error {
	if cl, ok := c.w.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

// Buffered reports how many bytes Recv has read ahead of the frames it
// returned: a reader that polls the pipe must take those frames first.
func (c *Conn) Buffered() int { return c.r.Buffered() }
