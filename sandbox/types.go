package sandbox

import "github.com/sbirtools/sbir-kernel/sandbox/internal/wire"

// The values a session returns are defined beside the worker protocol
// that carries them; these aliases are their public names.
type (
	// Result is what running a cell produced. See [wire.Result].
	Result = wire.Result
	// Display is one display_data or update_display_data message.
	Display = wire.Display
	// Completion answers a complete request.
	Completion = wire.Completion
	// Inspection answers an inspect request.
	Inspection = wire.Inspection
	// Layer is one isolation layer and whether it is active.
	Layer = wire.Layer
)

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

// CellError is a failed cell as an error: Result.Err returns one, and
// errors.Is(err, &CellError{Class: ClassTimeout}) tests its class.
type CellError = wire.CellError

// The error classes of a failed cell (Result.ErrorName).
const (
	ClassSyntaxError   = wire.ClassSyntaxError
	ClassNotAllowed    = wire.ClassNotAllowed
	ClassCompileError  = wire.ClassCompileError
	ClassInputError    = wire.ClassInputError
	ClassPanic         = wire.ClassPanic
	ClassRuntimeError  = wire.ClassRuntimeError
	ClassInterrupted   = wire.ClassInterrupted
	ClassTimeout       = wire.ClassTimeout
	ClassDeadlock      = wire.ClassDeadlock
	ClassMemoryError   = wire.ClassMemoryError
	ClassStackOverflow = wire.ClassStackOverflow
	ClassWorkerCrashed = wire.ClassWorkerCrashed
	ClassCodeTooLarge  = wire.ClassCodeTooLarge
	ClassSandboxError  = wire.ClassSandboxError
	ClassPackageError  = wire.ClassPackageError
	ClassExit          = wire.ClassExit
)
