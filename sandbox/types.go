package sandbox

import "github.com/sbirtools/sbir-kernel/sandbox/internal/wire"

// Result is what running a cell produced.
type Result struct {
	// Stdout and Stderr hold everything the cell wrote (after truncation),
	// also delivered to Handlers.Stream while it ran (unless
	// Handlers.StreamOnly).
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Success is false when the cell failed; the error fields say why.
	Success bool `json:"success"`
	// ErrorName is the class of the failure, one of the Class* constants:
	// SyntaxError, NotAllowed, CompileError, InputError, Panic,
	// RuntimeError, Interrupted, Timeout, Deadlock, MemoryError,
	// StackOverflow, WorkerCrashed, CodeTooLarge, SandboxError,
	// PackageError (a //sbir:require declaration could not be satisfied:
	// installs disabled, a failed install, or a new set after cells ran)
	// or Exit (the cell called os.Exit or log.Fatal).
	ErrorName string `json:"error_name,omitempty"`
	// ErrorMessage says what went wrong and, where it can, what to do.
	ErrorMessage string `json:"error_message,omitempty"`
	// Traceback is the "Class: message" line, then the cell's frames,
	// innermost last.
	Traceback []string `json:"traceback,omitempty"`
	// Value is the MIME bundle of the cell's last expression ("text/plain"
	// at least), or nil when the cell has no value to show.
	Value map[string]any `json:"value,omitempty"`
	// Truncated reports that output beyond Limits.MaxOutputBytes was
	// dropped.
	Truncated bool `json:"truncated,omitempty"`
	// Restarted reports that the worker died or was replaced during this
	// cell: every variable of the session is gone, and the next cell runs
	// in a fresh worker. ErrorMessage says why the worker died; Err adds
	// what that cost the session, for callers whose users keep a session
	// across cells.
	Restarted bool `json:"restarted,omitempty"`
}

// SessionLost is what Result.Restarted means to a user whose session lives
// across cells; Result.Err appends it to the message.
const SessionLost = "the worker was restarted and all variables of this session were lost"

// Err returns the cell's failure as a *CellError, or nil when it
// succeeded. When the session's variables were lost (Restarted), the
// message ends by saying so (SessionLost), and the traceback is that one
// line.
func (r *Result) Err() error {
	if r == nil || r.Success {
		return nil
	}
	if r.Restarted {
		msg := r.ErrorMessage + "; " + SessionLost
		return &CellError{Class: r.ErrorName, Message: msg, Traceback: Traceback(r.ErrorName, msg)}
	}
	tb := r.Traceback
	if len(tb) == 0 {
		tb = Traceback(r.ErrorName, r.ErrorMessage)
	}
	return &CellError{Class: r.ErrorName, Message: r.ErrorMessage, Traceback: tb}
}

// CellError is a failed cell as an error: Result.Err returns one, and
// errors.Is(err, &CellError{Class: ClassTimeout}) tests its class.
type CellError struct {
	// Class is one of the Class* constants.
	Class string
	// Message says what went wrong.
	Message string
	// Traceback is the "Class: message" line, then the cell's frames.
	Traceback []string
}

func (e *CellError) Error() string { return e.Class + ": " + e.Message }

// Is reports whether target is a *CellError of the same class (and, when
// target has one, the same message), so that
// errors.Is(err, &CellError{Class: ClassTimeout}) works.
func (e *CellError) Is(target error) bool {
	t, ok := target.(*CellError)
	return ok && t.Class == e.Class && (t.Message == "" || t.Message == e.Message)
}

// Traceback is the one way a traceback is built: the "Class: message"
// line, then the frames, innermost last.
func Traceback(class, msg string, frames ...string) []string {
	return wire.Traceback(class, msg, frames...)
}

// failed returns a failed Result of class with msg and its traceback.
func failed(class, msg string) *Result {
	return &Result{ErrorName: class, ErrorMessage: msg, Traceback: Traceback(class, msg)}
}

// resultFrom converts the end of a cell as the worker sent it. Whether
// the worker must be replaced is the caller's to read (ReplaceWorker).
func resultFrom(r *wire.Result) *Result {
	return &Result{
		Stdout:       r.Stdout,
		Stderr:       r.Stderr,
		Success:      r.Success,
		ErrorName:    r.ErrorName,
		ErrorMessage: r.ErrorMessage,
		Traceback:    r.Traceback,
		Value:        r.Value,
		Truncated:    r.Truncated,
	}
}

// Display is one rich output a cell produced with the display package: a
// display_data or, with Update, an update_display_data message.
type Display struct {
	// Data maps MIME types to content; it always has "text/plain".
	Data map[string]any `json:"data"`
	// Metadata maps MIME types to per-type metadata; may be nil.
	Metadata map[string]any `json:"metadata,omitempty"`
	// DisplayID names the output so that a later update can replace it.
	DisplayID string `json:"display_id,omitempty"`
	// Update replaces the output named DisplayID instead of adding one.
	Update bool `json:"update,omitempty"`
}

func displayFrom(d *wire.Display) Display {
	return Display{Data: d.Data, Metadata: d.Metadata, DisplayID: d.DisplayID, Update: d.Update}
}

// Completion is the answer to a completion request.
type Completion struct {
	// Matches are the candidate replacements for code[Start:End].
	Matches []string `json:"matches"`
	// Start and End delimit, in runes, the text the matches replace.
	Start int `json:"start"`
	End   int `json:"end"`
}

// Inspection is the answer to an inspect request.
type Inspection struct {
	// Found is false when nothing is known about the name at the cursor.
	Found bool `json:"found"`
	// Data is a MIME bundle ("text/plain", and "text/markdown") describing
	// the name: signature and documentation, or type and value.
	Data map[string]any `json:"data,omitempty"`
}

func inspectionFrom(in *wire.Inspection) Inspection {
	return Inspection{Found: in.Found, Data: in.Data}
}

// Layer is one isolation layer of the worker and whether it is active.
type Layer struct {
	// Name identifies the layer, e.g. "landlock", "seccomp", "user-namespace".
	Name string `json:"name"`
	// Active reports whether the layer applied to the worker.
	Active bool `json:"active"`
	// Detail says what the layer does, or why it is not active.
	Detail string `json:"detail"`
}

func layersFrom(ls []wire.Layer) []Layer {
	out := make([]Layer, len(ls))
	for i, l := range ls {
		out[i] = Layer{Name: l.Name, Active: l.Active, Detail: l.Detail}
	}
	return out
}

// Handlers receive what a running cell produces. All are optional. They are
// called from Run's goroutine, never concurrently with one another.
type Handlers struct {
	// Stream receives stdout ("stdout") and stderr ("stderr") text in
	// batches while the cell runs.
	Stream func(name, text string)
	// StreamOnly leaves Result.Stdout and Result.Stderr empty of what
	// went to Stream: a caller that shows the text as it comes (the
	// kernel) need not hold a second copy of up to Limits.MaxOutputBytes.
	// Its memory is then reused for later output, so the text passed to
	// Stream is valid only until Stream returns: copy it to keep it.
	StreamOnly bool
	// Display receives display.* calls of the cell.
	Display func(d Display)
	// Clear receives display.Clear calls.
	Clear func(wait bool)
	// Input answers a cell reading standard input. When nil, reading
	// input is a cell error.
	Input func(prompt string, password bool) (string, error)
	// Rows chooses the rows of a frame that the cell's value and displays
	// carry as exact records (the table representation,
	// application/vnd.dataresource+json): the zero value, the frame's
	// display settings (its first 20 rows).
	Rows RowWindow
}

// RowWindow is Limit rows of a frame from position Offset (0-based).
// Limit 0 means the frame's display settings; at most MaxRowWindow rows
// are carried, and fewer when they pass 2 MiB.
type RowWindow struct {
	Offset, Limit int
}

// MaxRowWindow is the largest RowWindow.Limit.
const MaxRowWindow = 10000

// The error classes of a failed cell (Result.ErrorName). The worker and
// the supervisor spell them through package wire, which these name.
const (
	ClassSyntaxError   = wire.ClassSyntaxError   // the cell does not parse
	ClassNotAllowed    = wire.ClassNotAllowed    // the AST check refused a construct
	ClassCompileError  = wire.ClassCompileError  // the interpreter, or gc for a compiled cell, could not compile it
	ClassInputError    = wire.ClassInputError    // reading stdin failed or is not available
	ClassPanic         = wire.ClassPanic         // the cell, or one of its goroutines, panicked
	ClassRuntimeError  = wire.ClassRuntimeError  // a Go runtime error (nil map write, index out of range, ...)
	ClassInterrupted   = wire.ClassInterrupted   // the user interrupted the cell
	ClassTimeout       = wire.ClassTimeout       // the cell exceeded its wall-clock limit
	ClassDeadlock      = wire.ClassDeadlock      // the cell and all its goroutines were blocked for good
	ClassMemoryError   = wire.ClassMemoryError   // the session exceeded its heap limit
	ClassStackOverflow = wire.ClassStackOverflow // recursion exceeded the stack limit
	ClassWorkerCrashed = wire.ClassWorkerCrashed // the worker died for another reason
	ClassCodeTooLarge  = wire.ClassCodeTooLarge  // the cell exceeds the code-size limit
	ClassSandboxError  = wire.ClassSandboxError  // the sandbox could not run the cell at all
	ClassPackageError  = wire.ClassPackageError  // a //sbir:require declaration could not be satisfied
	ClassExit          = wire.ClassExit          // the cell called os.Exit or log.Fatal
	ClassBuildError    = wire.ClassBuildError    // a compiled cell's build failed for another reason than its code (a limit, the toolchain)
)
