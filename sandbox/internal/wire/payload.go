package wire

// A Chunk is one piece of a cell that the worker's interpreter evaluates
// on its own: a run of declarations, a run of statements, or the cell's
// last expression. yaegi rejects a source that starts with a declaration
// and continues with statements, so the supervisor (package cellprep)
// splits a cell at those boundaries.
type Chunk struct {
	// Code is the source. Each segment starts with a /*line :L:C*/
	// directive naming its place in the cell (L is the cell's line plus
	// one, for the interpreter's wrapper line), so that the interpreter's
	// positions are the cell's.
	Code string `json:"code"`
	// Expr marks the cell's last expression: the worker evaluates it
	// through a helper that captures its values, and falls back to running
	// it as a statement when it has none.
	Expr bool `json:"expr,omitempty"`
	// Quiet marks an expression whose values are not worth showing
	// (fmt.Println's byte count and nil error).
	Quiet bool `json:"quiet,omitempty"`
	// Direct marks an expression that is not a call, and so certainly has
	// exactly one value.
	Direct bool `json:"direct,omitempty"`
	// Main marks the call of a program's main function that preparation
	// adds after a cell that declares func main and does not call it: as
	// with go run, the cell ends when main returns, and goroutines still
	// running then are stopped.
	Main bool `json:"main,omitempty"`
}

// Result is the end of one cell as the worker reports it (OpResult); the
// supervisor converts it into sandbox.Result.
type Result struct {
	// Stdout and Stderr are the cell's output: it travels in stream
	// frames, and the receiver collects it here (the worker leaves them
	// empty).
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Success is false when the cell failed; the error fields say why.
	Success bool `json:"success"`
	// ErrorName is the class of the failure, one of the Class* constants
	// (errors.go).
	ErrorName    string   `json:"error_name,omitempty"`
	ErrorMessage string   `json:"error_message,omitempty"`
	Traceback    []string `json:"traceback,omitempty"`
	// Value is the MIME bundle of the cell's last expression ("text/plain"
	// at least), or nil when the cell has no value to show.
	Value map[string]any `json:"value,omitempty"`
	// Truncated reports that output beyond Limits.MaxOutputBytes was
	// dropped.
	Truncated bool `json:"truncated,omitempty"`
	// ReplaceWorker says that this worker is unusable after the cell
	// (goroutines stuck in compiled code, an earlier value's String method
	// that never returned): the supervisor replaces it, and the session's
	// variables are lost.
	ReplaceWorker bool `json:"replace_worker,omitempty"`
}

// Display is one rich output a cell produced with the display package.
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

// Layer is one isolation layer of the worker.
type Layer struct {
	// Name identifies the layer, e.g. "landlock", "seccomp", "user-namespace".
	Name string `json:"name"`
	// Active reports whether the layer applied to the worker.
	Active bool `json:"active"`
	// Detail says what the layer does, or why it is not active.
	Detail string `json:"detail"`
}

// ProgramConfig is what a compiled cell's runtime needs before the cell's
// code runs.
type ProgramConfig struct {
	// HeapBytes is the heap budget (the runtime's memory limit and its
	// watchdog's).
	HeapBytes int64 `json:"heap_bytes"`
	// Zone is the host's time zone (TZif data of /etc/localtime), which
	// the program, under Landlock from its start, cannot read; nil is UTC.
	Zone []byte `json:"zone,omitempty"`
	// Rows is the part of a frame the cell's results carry as records
	// (award_data.SetRecordWindow), as on an interpreted run.
	Rows *RowWindow `json:"rows,omitempty"`
}
