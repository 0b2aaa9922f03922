package worker

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/sbirtools/sbir-kernel/internal/textcut"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/outcap"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/valuefmt"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise"

	"github.com/sbirtools/sbir-kernel/display"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// Output is batched by time and size: a cell that prints a line at a
// time costs one frame per batch, not one per line, and its first bytes
// still leave within flushInterval. A large write leaves as frames of
// flushBytes, so the supervisor and the kernel work on the first while
// the rest crosses the pipe.
const (
	flushInterval  = 10 * time.Millisecond
	flushBytes     = 256 << 10
	maxStreamFrame = flushBytes
)

// Bounds of a cell's result, which travels in one frame: an error message
// or a traceback line longer than maxErrorBytes is cut, and the rich MIME
// types of a value larger than maxValueBytes (JSON) are dropped.
const (
	maxErrorBytes     = 64 << 10
	maxTracebackLines = 200
	maxValueBytes     = 8 << 20
)

// cellOutput collects what a cell writes, enforces the output cap and
// sends it to the supervisor in batches, in order across both streams.
type cellOutput struct {
	send       func(*wire.Message) error
	sendStream func(name string, text []byte) error // a stream frame (wire.Conn.SendStream)
	limit      int

	// sendMu is held from taking pending output until it is sent, so a
	// flush by end (before the result goes out) waits for one already in
	// flight from loop: output never arrives after its cell's result.
	sendMu sync.Mutex
	spare  []byte // the previous batch's buffer, reused

	mu        sync.Mutex
	buf       []byte       // pending text of both streams, in write order
	parts     []streamPart // runs of buf by stream
	armed     bool         // the flush timer is running
	ended     bool         // between cells: writes are dropped
	total     int          // bytes of output the cell was allowed
	truncated bool
	overflow  string // stream that hit the cap
	dropped   int    // bytes beyond the cap
	dropWrite int    // writes that lost bytes to the cap
	frames    []string

	displayed    int // bytes charged for the cell's displays
	dispDropped  int // displays refused
	dispDropSize int // their bytes

	kick  chan struct{}
	timer *time.Timer
}

// streamPart is a run of pending output of one stream, ending at end in
// the pending buffer.
type streamPart struct {
	name string
	end  int
}

func newCellOutput(send func(*wire.Message) error, sendStream func(name string, text []byte) error, limit int) *cellOutput {
	o := &cellOutput{send: send, sendStream: sendStream, limit: limit, kick: make(chan struct{}, 1), ended: true}
	o.timer = time.AfterFunc(time.Hour, o.wake)
	o.timer.Stop()
	go o.loop()
	return o
}

func (o *cellOutput) wake() {
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// writer returns the io.Writer of one stream.
func (o *cellOutput) writer(name string) io.Writer { return streamWriter{o, name} }

type streamWriter struct {
	o    *cellOutput
	name string
}

func (w streamWriter) Write(p []byte) (int, error) {
	w.o.write(w.name, p)
	return len(p), nil
}

// WriteString is Write without converting s: write copies what it keeps
// and never modifies p, so the string's bytes can be lent to it. fmt.Print
// of one string (yaegi patch 16) and io.WriteString come here.
func (w streamWriter) WriteString(s string) (int, error) {
	w.o.write(w.name, unsafe.Slice(unsafe.StringData(s), len(s)))
	return len(s), nil
}

// traceWriter returns the interpreter's own stderr, where yaegi writes one
// line per frame a panic unwinds. Those lines become the traceback; the
// cell's os.Stderr is a different writer, so nothing a cell prints is
// mistaken for a frame.
func (o *cellOutput) traceWriter() io.Writer { return traceWriter{o} }

type traceWriter struct{ o *cellOutput }

// panicLine matches the line yaegi writes for each frame a panic unwinds:
// "_.go:5:3: panic: main.f(...)".
var panicLine = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

func (w traceWriter) Write(p []byte) (int, error) {
	if m := panicLine.FindSubmatch(p); m != nil {
		w.o.addFrame(string(m[1]), string(m[2]), string(m[3]))
		return len(p), nil
	}
	// Anything else yaegi reports goes to the cell's stderr.
	w.o.write("stderr", p)
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
	if o.ended {
		// Writes after the end of the cell (there should be none).
		o.mu.Unlock()
		return
	}
	if o.truncated || o.total+len(p) > o.limit {
		keep := 0
		if !o.truncated {
			keep = o.limit - o.total
			for keep > 0 && keep < len(p) && !utf8.RuneStart(p[keep]) {
				keep-- // never split a character
			}
			o.truncated, o.overflow = true, name
		}
		o.dropped += len(p) - keep
		o.dropWrite++
		p = p[:keep]
	}
	o.total += len(p)
	o.appendLocked(name, p)
	big := len(o.buf) >= flushBytes
	arm := !big && !o.armed && len(o.buf) > 0
	if arm {
		o.armed = true
	}
	o.mu.Unlock()
	if big {
		o.wake()
	} else if arm {
		o.timer.Reset(flushInterval)
	}
}

// appendLocked adds p to the pending output of stream name.
func (o *cellOutput) appendLocked(name string, p []byte) {
	if len(p) == 0 {
		return
	}
	o.buf = append(o.buf, p...)
	if n := len(o.parts); n > 0 && o.parts[n-1].name == name {
		o.parts[n-1].end = len(o.buf)
	} else {
		o.parts = append(o.parts, streamPart{name, len(o.buf)})
	}
}

// loop sends pending output when the timer or a full batch asks.
func (o *cellOutput) loop() {
	for range o.kick {
		o.flush()
	}
}

// admitDisplay charges a display against the cell's budget and returns
// its data and metadata to send, or ok false when it must be dropped.
// They are encoded here, once: the charge is their exact JSON size, and
// the encoded values are what the frame carries.
func (o *cellOutput) admitDisplay(m display.Message) (data, meta map[string]any, ok bool) {
	o.mu.Lock()
	if o.dispDropped > 0 {
		// Once one is dropped, all later ones are: no need to encode.
		o.dispDropped++
		o.dispDropSize += outcap.DisplayOverhead + len(m.DisplayID) + approxSize(m.Data) + approxSize(m.Metadata)
		o.mu.Unlock()
		return nil, nil, false
	}
	o.mu.Unlock()
	n := outcap.DisplayOverhead + len(m.DisplayID)
	encode := func(in map[string]any) map[string]any {
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
			n += len(k) + len(b) + 4
		}
		return out
	}
	data, meta = encode(m.Data), encode(m.Metadata)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ended {
		return nil, nil, false
	}
	if o.dispDropped > 0 || o.displayed+n > outcap.MaxDisplayBytes || n > wire.MaxFrameBytes-outcap.DisplayOverhead {
		o.dispDropped++
		o.dispDropSize += n
		return nil, nil, false
	}
	o.displayed += n
	return data, meta, true
}

// approxSize is about the JSON size of a MIME bundle, without encoding
// strings (the usual content) again.
func approxSize(m map[string]any) int {
	n := 0
	for k, v := range m {
		n += len(k) + 4
		if s, ok := v.(string); ok {
			n += len(s) + 2
			continue
		}
		b, _ := json.Marshal(v)
		n += len(b)
	}
	return n
}

// flush sends pending output now.
func (o *cellOutput) flush() {
	o.sendMu.Lock()
	defer o.sendMu.Unlock()
	o.mu.Lock()
	buf, parts := o.buf, o.parts
	o.buf, o.parts, o.armed = o.spare[:0], nil, false
	o.mu.Unlock()
	start := 0
	for _, p := range parts {
		for start < p.end {
			// A frame holds at most maxStreamFrame bytes, cut between
			// characters.
			end := p.end
			if end-start > maxStreamFrame {
				end = start + maxStreamFrame
				for end > start+1 && !utf8.RuneStart(buf[end]) {
					end--
				}
			}
			_ = o.sendStream(p.name, buf[start:end])
			start = end
		}
	}
	if cap(buf) <= 4*flushBytes {
		o.spare = buf
	} else {
		o.spare = nil
	}
}

// begin resets the per-cell state.
func (o *cellOutput) begin() {
	o.flush()
	o.mu.Lock()
	o.ended = false
	o.total, o.truncated, o.overflow, o.dropped, o.dropWrite, o.frames = 0, false, "", 0, 0, nil
	o.displayed, o.dispDropped, o.dispDropSize = 0, 0, 0
	o.mu.Unlock()
}

// end adds the notes of what was dropped, flushes, marks the cell ended
// (later writes are dropped) and bounds res to what one frame carries.
func (o *cellOutput) end(res *wire.Result) {
	o.mu.Lock()
	if o.truncated {
		o.appendLocked(o.overflow, []byte(outcap.TruncationLine(o.limit, o.dropped, o.dropWrite)))
	}
	if o.dispDropped > 0 {
		o.appendLocked("stderr", []byte(outcap.DisplayDropLine(o.dispDropped, o.dispDropSize)))
	}
	res.Truncated = o.truncated || o.dispDropped > 0
	o.ended = true
	o.mu.Unlock()
	o.flush()
	boundResult(res)
}

// boundResult cuts what a result carries to what one frame may hold: a
// 20 MiB panic message is reported, shortened, as the panic it is.
func boundResult(res *wire.Result) {
	res.ErrorMessage = cutText(res.ErrorMessage, maxErrorBytes)
	if len(res.Traceback) > maxTracebackLines {
		n := len(res.Traceback)
		res.Traceback = append(res.Traceback[:maxTracebackLines:maxTracebackLines], fmt.Sprintf("  ... %d more frames", n-maxTracebackLines))
	}
	for i, l := range res.Traceback {
		res.Traceback[i] = cutText(l, maxErrorBytes)
	}
	if res.Value == nil {
		return
	}
	size := 0
	sizes := map[string]int{}
	for k, v := range res.Value {
		b, err := json.Marshal(v)
		if err != nil {
			delete(res.Value, k)
			continue
		}
		res.Value[k] = json.RawMessage(b)
		sizes[k] = len(b)
		size += len(b)
	}
	if size <= maxValueBytes {
		return
	}
	plain, _ := res.Value["text/plain"].(json.RawMessage)
	var text string
	_ = json.Unmarshal(plain, &text)
	text = cutText(text, valuefmt.MaxBytes)
	for k, n := range sizes {
		if k != "text/plain" {
			text += fmt.Sprintf("\n[the value's %s (%s) is over the %s a value may send and is not shown]", k, bytesize.Approx(int64(n)), bytesize.Exact(maxValueBytes))
		}
	}
	res.Value = map[string]any{"text/plain": text}
}

// cutText shortens s to about max bytes, saying how long it was.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return textcut.Prefix(s, max) + " … [" + bytesize.Approx(int64(len(s))) + " in all]"
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
			panic(supervise.ErrInterrupted)
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
