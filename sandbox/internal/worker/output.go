package worker

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// flushInterval is how often buffered cell output is sent while a cell
// runs; flushBytes sends earlier when that much is pending.
const (
	flushInterval = 25 * time.Millisecond
	flushBytes    = 64 << 10
)

// truncationLine is added once when a cell's output exceeds the cap.
func truncationLine(limit int) string {
	return "... [output truncated at " + bytesize.Exact(int64(limit)) + "]\n"
}

// cellOutput collects what a cell writes, enforces the output cap and
// sends it to the supervisor in batches, in order across both streams.
type cellOutput struct {
	send  func(*wire.Message) error
	limit int

	// sendMu is held from taking pending output until it is sent, so a
	// flush by end (before the result goes out) waits for one already in
	// flight from loop: output never arrives after its cell's result.
	sendMu sync.Mutex

	mu        sync.Mutex
	pending   []streamPart
	pendBytes int
	total     int
	truncated bool
	overflow  string // stream that hit the cap
	frames    []string
	displayed int // bytes of display data sent by the cell
	stdout    strings.Builder
	stderr    strings.Builder
	kick      chan struct{}
}

type streamPart struct{ name, text string }

func newCellOutput(send func(*wire.Message) error, limit int) *cellOutput {
	o := &cellOutput{send: send, limit: limit, kick: make(chan struct{}, 1)}
	go o.loop()
	return o
}

// writer returns the io.Writer of one stream.
func (o *cellOutput) writer(name string) io.Writer { return streamWriter{o, name} }

type streamWriter struct {
	o    *cellOutput
	name string
}

// panicLine matches the line yaegi writes to stderr for each frame a
// panic unwinds: "_.go:5:3: panic: main.f(...)".
var panicLine = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

func (w streamWriter) Write(p []byte) (int, error) {
	if w.name == "stderr" && len(p) < 512 {
		if m := panicLine.FindSubmatch(p); m != nil {
			w.o.addFrame(string(m[1]), string(m[2]), string(m[3]))
			return len(p), nil
		}
	}
	w.o.write(w.name, p)
	return len(p), nil
}

// addFrame records one frame of a panic's traceback, in cell lines.
func (o *cellOutput) addFrame(line, col, fn string) {
	n, _ := strconv.Atoi(line)
	if n > 1 {
		n-- // the wrapper line
	}
	fn = strings.TrimPrefix(fn, "main.")
	if fn == "main" || fn == cellFunc {
		fn = "the cell"
	}
	o.mu.Lock()
	if len(o.frames) < 50 {
		o.frames = append(o.frames, fmt.Sprintf("  at line %d, column %s, in %s", n, col, fn))
	}
	o.mu.Unlock()
}

// takeFrames returns and clears the recorded panic frames.
func (o *cellOutput) takeFrames() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	f := o.frames
	o.frames = nil
	return f
}

func (o *cellOutput) write(name string, p []byte) {
	o.mu.Lock()
	if o.truncated {
		o.mu.Unlock()
		return
	}
	if o.total+len(p) > o.limit {
		p = p[:o.limit-o.total]
		o.truncated = true
		o.overflow = name
	}
	o.total += len(p)
	if len(p) > 0 {
		s := string(p)
		if n := len(o.pending); n > 0 && o.pending[n-1].name == name {
			o.pending[n-1].text += s
		} else {
			o.pending = append(o.pending, streamPart{name, s})
		}
		o.pendBytes += len(s)
		if name == "stderr" {
			o.stderr.WriteString(s)
		} else {
			o.stdout.WriteString(s)
		}
	}
	big := o.pendBytes >= flushBytes
	o.mu.Unlock()
	if big {
		select {
		case o.kick <- struct{}{}:
		default:
		}
	}
}

// loop flushes pending output periodically for the worker's lifetime.
func (o *cellOutput) loop() {
	t := time.NewTicker(flushInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-o.kick:
		}
		o.flush()
	}
}

// maxDisplayBytes bounds the display data one cell may send.
const maxDisplayBytes = 16 << 20

// allowDisplay accounts for a display of n bytes and reports whether it
// fits the cell's budget; the first refusal adds a note to stderr.
func (o *cellOutput) allowDisplay(n int) bool {
	o.mu.Lock()
	over := o.displayed+n > maxDisplayBytes
	first := over && o.displayed <= maxDisplayBytes
	if over {
		o.displayed = maxDisplayBytes + 1
	} else {
		o.displayed += n
	}
	o.mu.Unlock()
	if first {
		o.write("stderr", []byte("... [display output dropped: the cell exceeded "+bytesize.Exact(maxDisplayBytes)+" of displays]\n"))
	}
	return !over
}

// flush sends pending output now.
func (o *cellOutput) flush() {
	o.sendMu.Lock()
	defer o.sendMu.Unlock()
	o.mu.Lock()
	parts := o.pending
	o.pending, o.pendBytes = nil, 0
	o.mu.Unlock()
	for _, p := range parts {
		_ = o.send(&wire.Message{Op: wire.OpStream, Name: p.name, Text: p.text})
	}
}

// begin resets the per-cell state.
func (o *cellOutput) begin() {
	o.flush()
	o.mu.Lock()
	o.total, o.truncated, o.overflow, o.frames, o.displayed = 0, false, "", nil, 0
	o.stdout.Reset()
	o.stderr.Reset()
	o.mu.Unlock()
}

// end flushes, adds the truncation line if needed and copies the cell's
// output into res.
func (o *cellOutput) end(res *wire.Result) {
	o.mu.Lock()
	if o.truncated {
		line := truncationLine(o.limit)
		o.pending = append(o.pending, streamPart{o.overflow, line})
		if o.overflow == "stderr" {
			o.stderr.WriteString(line)
		} else {
			o.stdout.WriteString(line)
		}
	}
	res.Truncated = o.truncated
	res.Stdout, res.Stderr = o.stdout.String(), o.stderr.String()
	o.mu.Unlock()
	o.flush()
	// Writes after the end of the cell (there should be none) are dropped.
	o.mu.Lock()
	o.truncated = true
	o.overflow = ""
	o.mu.Unlock()
}

// inputReader is the interpreter's stdin: each read with nothing buffered
// asks the supervisor for a line.
type inputReader struct {
	send    func(*wire.Message) error
	flush   func() // sends pending output (the prompt) first
	replies chan *wire.Message
	buf     string
}

// inputError is why a cell could not read its standard input (the client
// does not allow input, or the user interrupted the prompt); the cell
// fails with it as an InputError.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

// ErrorName names the error class shown to the user.
func (e *inputError) ErrorName() string { return "InputError" }

func (r *inputReader) Read(p []byte) (int, error) {
	if r.buf == "" {
		ctx := currentCellContext()
		// Drop a stale reply from an interrupted earlier request.
		select {
		case <-r.replies:
		default:
		}
		if r.flush != nil {
			r.flush()
		}
		if err := r.send(&wire.Message{Op: wire.OpInputReq}); err != nil {
			return 0, err
		}
		var m *wire.Message
		select {
		case m = <-r.replies:
		case <-ctx.Done():
			panic(errInterrupted)
		}
		if m.Err != "" {
			panic(&inputError{m.Err})
		}
		r.buf = m.Text + "\n"
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
