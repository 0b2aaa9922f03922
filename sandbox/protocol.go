package sandbox

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// The supervisor and the worker exchange frames over two pipes (never the
// worker's stdout, which cells could reach if they ever escaped the
// interpreter's writers): a 4-byte big-endian length, then one JSON message.
const maxFrameBytes = 16 << 20

// Message operations.
const (
	// supervisor → worker
	opConfig    = "config"    // first message: what the worker needs to start
	opRun       = "run"       // evaluate chunks
	opInterrupt = "interrupt" // cancel the running cell
	opInputRep  = "input_reply"
	opComplete  = "complete"
	opInspect   = "inspect"
	opProbe     = "probe"     // attempt escapes and report (tests, doctor)
	opPreflight = "preflight" // load one third-party package (Code) in a fresh interpreter
	// worker → supervisor
	opReady    = "ready"  // the worker is isolated and the interpreter is up
	opStream   = "stream" // batched stdout/stderr of the running cell
	opDisplay  = "display"
	opClear    = "clear"
	opInputReq = "input_request"
	opResult   = "result" // end of a cell
	opReply    = "reply"  // answer to complete/inspect/preflight (Err: why the package failed)
	opFatal    = "fatal"  // the worker is about to exit: why
)

// message is the single frame type; each op uses a few fields.
type message struct {
	Op string `json:"op"`

	Config *workerConfig `json:"config,omitempty"`
	Chunks []chunk       `json:"chunks,omitempty"`

	Name     string `json:"name,omitempty"` // stream name; fatal error name
	Text     string `json:"text,omitempty"` // stream text; input; fatal message
	Password bool   `json:"password,omitempty"`
	Wait     bool   `json:"wait,omitempty"`
	Err      string `json:"err,omitempty"`

	Display *Display `json:"display,omitempty"`
	Result  *Result  `json:"result,omitempty"`
	Ready   *ready   `json:"ready,omitempty"`

	Code   string `json:"code,omitempty"`
	Cursor int    `json:"cursor,omitempty"`
	Detail int    `json:"detail,omitempty"`
	// Names are the session's top-level names, for completion.
	Names []string `json:"names,omitempty"`

	Probe      *probeTarget  `json:"probe,omitempty"`
	Probes     []probeResult `json:"probes,omitempty"`
	Completion *Completion   `json:"completion,omitempty"`
	Inspection *Inspection   `json:"inspection,omitempty"`
}

// workerConfig is sent to a new worker.
type workerConfig struct {
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
}

// ready is the worker's report once it accepts cells.
type ready struct {
	Layers  []Layer  `json:"layers"`
	Columns []string `json:"columns,omitempty"`
	Err     string   `json:"err,omitempty"`
}

// conn reads and writes frames; writes are serialised.
type conn struct {
	r  *bufio.Reader
	mu sync.Mutex
	w  io.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReaderSize(r, 64<<10), w: w}
}

func (c *conn) send(m *message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("sandbox: encoding %s message: %w", m.Op, err)
	}
	if len(b) > maxFrameBytes {
		return fmt.Errorf("sandbox: %s message of %d bytes exceeds the %d-byte frame limit", m.Op, len(b), maxFrameBytes)
	}
	buf := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.w.Write(buf)
	return err
}

func (c *conn) recv() (*message, error) {
	return readFrame(c.r)
}

// readFrame decodes one frame from r.
func readFrame(r io.Reader) (*message, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrameBytes {
		return nil, fmt.Errorf("sandbox: frame of %d bytes exceeds the %d-byte limit", n, maxFrameBytes)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	m := new(message)
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("sandbox: decoding frame: %w", err)
	}
	if m.Op == "" {
		return nil, fmt.Errorf("sandbox: frame without an op")
	}
	return m, nil
}

// probeResult is one attempt, made inside an isolated worker, to do what
// an escaped cell would try.
type probeResult struct {
	Name    string `json:"name"`
	Blocked bool   `json:"blocked"`
	Detail  string `json:"detail"`
}

// probeTarget tells the worker what to aim at: a TCP and a UDP address
// the supervisor listens on, and the supervisor's pid.
type probeTarget struct {
	TCP, UDP string
	PID      int
	Secret   string // an environment variable name of the supervisor
	File     string // a file next to the kernel
}
