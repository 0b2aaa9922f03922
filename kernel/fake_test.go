package kernel

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// scriptEvaluator is a fake Evaluator driven by the cell's text, one
// command per line:
//
//	print TEXT      stream TEXT+"\n" to stdout
//	eprint TEXT     stream TEXT+"\n" to stderr
//	write N TEXT    N writes of TEXT to stdout
//	big N           one write of N bytes to stdout
//	chunks N W      N writes of W bytes to stdout, the i-th all of letter i%26
//	lines N W       N writes of a W-byte line (newline included) to stdout
//	value TEXT      the cell's value is TEXT (text/plain)
//	html TEXT       the cell's value has text/html TEXT
//	display TEXT    display_data with text/plain TEXT
//	displays N      N display_data messages with text/markdown
//	clear           clear_output
//	fail NAME MSG   the cell fails
//	sleep DUR       wait DUR, failing with Interrupted on cancel
//	block           wait for the interrupt, then fail with Interrupted
//	input PROMPT    read a line and print it back
//	panic           panic
type scriptEvaluator struct {
	closed   atomic.Bool
	requests atomic.Int64 // Complete, Inspect and IsComplete calls
	mu       sync.Mutex
	executed []string
	started  chan string // receives each cell as it starts, when non-nil
}

var _ Evaluator = (*scriptEvaluator)(nil)

func (e *scriptEvaluator) Execute(ctx context.Context, code string, out Output) ExecuteResult {
	e.mu.Lock()
	e.executed = append(e.executed, code)
	e.mu.Unlock()
	if e.started != nil {
		e.started <- code
	}
	var res ExecuteResult
	for line := range strings.SplitSeq(code, "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "print":
			out.Stream("stdout", arg+"\n")
		case "eprint":
			out.Stream("stderr", arg+"\n")
		case "write":
			ns, text, _ := strings.Cut(arg, " ")
			n, _ := strconv.Atoi(ns)
			for range n {
				out.Stream("stdout", text)
			}
		case "lines":
			ns, ws, _ := strings.Cut(arg, " ")
			n, _ := strconv.Atoi(ns)
			w, _ := strconv.Atoi(ws)
			line := strings.Repeat("y", max(w-1, 0)) + "\n"
			for range n {
				out.Stream("stdout", line)
			}
		case "big":
			n, _ := strconv.Atoi(arg)
			out.Stream("stdout", strings.Repeat("x", n))
		case "chunks":
			ns, ws, _ := strings.Cut(arg, " ")
			n, _ := strconv.Atoi(ns)
			w, _ := strconv.Atoi(ws)
			for i := range n {
				out.Stream("stdout", chunk(i, w))
			}
		case "value":
			res.Value = &DisplayData{Data: map[string]any{"text/plain": arg}}
		case "html":
			res.Value = &DisplayData{Data: map[string]any{"text/html": arg}}
		case "display":
			out.Display(DisplayData{Data: map[string]any{"text/plain": arg}, DisplayID: "d1"})
		case "displays":
			n, _ := strconv.Atoi(arg)
			for i := range n {
				out.Display(DisplayData{Data: map[string]any{"text/plain": strconv.Itoa(i), "text/markdown": "**" + strconv.Itoa(i) + "**"}})
			}
		case "clear":
			out.ClearOutput(false)
		case "fail":
			name, msg, _ := strings.Cut(arg, " ")
			return ExecuteResult{Err: &ExecError{Name: name, Value: msg}}
		case "sleep", "block", "slowstop":
			d, _ := time.ParseDuration(arg)
			if cmd == "block" || cmd == "slowstop" {
				d = time.Hour
			}
			select {
			case <-time.After(d):
			case <-ctx.Done():
				if cmd == "slowstop" {
					// Like a worker that takes a while to stop a cell.
					time.Sleep(300 * time.Millisecond)
				}
				return ExecuteResult{Err: &ExecError{Name: "Interrupted", Value: "cell interrupted", Traceback: []string{"Interrupted"}}}
			}
		case "input":
			v, err := out.Input(ctx, arg, false)
			if err != nil {
				return ExecuteResult{Err: &ExecError{Name: "InputError", Value: err.Error()}}
			}
			out.Stream("stdout", "got "+v+"\n")
		case "panic":
			panic("evaluator exploded")
		case "":
		default:
			return ExecuteResult{Err: &ExecError{Name: "SyntaxError", Value: fmt.Sprintf("unknown command %q", cmd)}}
		}
	}
	return res
}

func (e *scriptEvaluator) Complete(_ context.Context, code string, cursor int) (Completion, error) {
	e.requests.Add(1)
	switch {
	case strings.HasPrefix(code, "none"):
		return Completion{}, nil
	case strings.HasPrefix(code, "err"):
		return Completion{}, fmt.Errorf("completion failed")
	}
	return Completion{Matches: []string{"Println", "Printf"}, CursorStart: cursor - 2, CursorEnd: cursor}, nil
}

func (e *scriptEvaluator) Inspect(_ context.Context, code string, cursor, detail int) (Inspection, error) {
	e.requests.Add(1)
	if strings.Contains(code, "Println") {
		return Inspection{Found: true, Data: map[string]any{"text/plain": fmt.Sprintf("func Println (cursor %d, detail %d)", cursor, detail)}}, nil
	}
	return Inspection{}, nil
}

func (e *scriptEvaluator) IsComplete(code string) (string, string) {
	e.requests.Add(1)
	switch {
	case strings.HasSuffix(code, "{"):
		return "incomplete", "\t"
	case strings.HasSuffix(code, ")"):
		return "invalid", "ignored"
	case code == "weird":
		return "maybe", ""
	}
	return "complete", ""
}

func (e *scriptEvaluator) Close() error {
	e.closed.Store(true)
	return nil
}

// chunk is the i-th write of the chunks command.
func chunk(i, w int) string { return strings.Repeat(string(rune('a'+i%26)), w) }
