package kernel

import (
	"context"
	"errors"
)

// ErrStdinNotAllowed is returned by Output.Input when the execute request
// had allow_stdin false (nbclient and papermill always send false).
var ErrStdinNotAllowed = errors.New("reading input is not allowed: this client does not support stdin (allow_stdin is false)")

// An Evaluator runs cells for the kernel. The kernel owns everything the
// protocol says about a cell (execution counts, execute_input, status,
// history, batching of streams); the evaluator only runs code.
//
// The kernel never calls Execute, Complete or Inspect concurrently with one
// another. Cancelling the context passed to Execute is how the kernel
// interrupts a cell; the evaluator must return promptly afterwards.
type Evaluator interface {
	// Execute runs code. Output produced while it runs goes to out; the
	// value of the cell, if any, and its error, if any, are returned.
	Execute(ctx context.Context, code string, out Output) ExecuteResult
	// Complete returns completions for code at cursor (a rune offset).
	Complete(ctx context.Context, code string, cursor int) (Completion, error)
	// Inspect returns documentation for the name at cursor (a rune offset).
	// detailLevel is 0 or 1, as in inspect_request.
	Inspect(ctx context.Context, code string, cursor, detailLevel int) (Inspection, error)
	// IsComplete reports whether code is ready to run: "complete",
	// "incomplete" (with the indent for the next line), "invalid" or
	// "unknown".
	IsComplete(code string) (status, indent string)
	// Close stops the evaluator and releases its resources (worker
	// processes included).
	Close() error
}

// Output receives what a running cell produces. Implementations are safe
// for concurrent use.
type Output interface {
	// Stream appends text to the cell's "stdout" or "stderr" stream.
	Stream(name, text string)
	// Display shows rich output (display_data or update_display_data).
	Display(d DisplayData)
	// ClearOutput clears the cell's output; with wait, only when new output
	// arrives.
	ClearOutput(wait bool)
	// Input asks the user for a line of input. It returns
	// ErrStdinNotAllowed when the client did not allow stdin.
	Input(ctx context.Context, prompt string, password bool) (string, error)
}

// DisplayData is one rich output: a MIME bundle with metadata.
type DisplayData struct {
	// Data maps MIME types to content; it always has "text/plain".
	Data map[string]any
	// Metadata maps MIME types to per-type metadata; may be nil.
	Metadata map[string]any
	// DisplayID, when set, names the output so later displays with
	// Update can replace it (transient.display_id).
	DisplayID string
	// Update sends update_display_data instead of display_data.
	Update bool
}

// ExecuteResult is the outcome of one cell.
type ExecuteResult struct {
	// Value is the cell's last expression, or nil when it had none.
	Value *DisplayData
	// Err is non-nil when the cell failed.
	Err *ExecError
}

// ExecError describes a failed cell as Jupyter shows it.
type ExecError struct {
	Name      string   // ename, e.g. "CompileError", "Timeout", "MemoryError"
	Value     string   // evalue, one line
	Traceback []string // lines shown to the user; never nil when sent
}

func (e *ExecError) Error() string { return e.Name + ": " + e.Value }

// newExecError is the kernel's own cell error (name one of the Error*
// constants) with its traceback: the one line Error returns, the only
// place that line is spelled.
func newExecError(name, value string) *ExecError {
	e := &ExecError{Name: name, Value: value}
	e.Traceback = []string{e.Error()}
	return e
}

// Completion is the answer to a complete_request.
type Completion struct {
	Matches     []string
	CursorStart int // rune offsets into the code
	CursorEnd   int
	// Metadata is sent as the reply's metadata (e.g. _jupyter_types_experimental).
	Metadata map[string]any
}

// Inspection is the answer to an inspect_request.
type Inspection struct {
	Found bool
	// Data is a MIME bundle with at least "text/plain" when Found.
	Data     map[string]any
	Metadata map[string]any
}
