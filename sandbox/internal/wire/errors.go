package wire

// Error classes: the ErrorName of a failed cell's Result (Jupyter's
// ename). They are the one place these names are spelled.
const (
	ClassSyntaxError   = "SyntaxError"   // the cell does not parse
	ClassNotAllowed    = "NotAllowed"    // the AST check refused a construct
	ClassCompileError  = "CompileError"  // the interpreter could not compile it
	ClassInputError    = "InputError"    // reading stdin failed or is not available
	ClassPanic         = "Panic"         // the cell, or one of its goroutines, panicked
	ClassRuntimeError  = "RuntimeError"  // a Go runtime error (nil map write, index out of range, ...)
	ClassInterrupted   = "Interrupted"   // the user interrupted the cell
	ClassTimeout       = "Timeout"       // the cell exceeded its wall-clock limit
	ClassDeadlock      = "Deadlock"      // the cell and all its goroutines were blocked for good
	ClassMemoryError   = "MemoryError"   // the session exceeded its heap limit
	ClassStackOverflow = "StackOverflow" // recursion exceeded the stack limit
	ClassWorkerCrashed = "WorkerCrashed" // the worker died for another reason
	ClassCodeTooLarge  = "CodeTooLarge"  // the cell exceeds the code-size limit
	ClassSandboxError  = "SandboxError"  // the sandbox could not run the cell at all
	ClassPackageError  = "PackageError"  // a //sbir:require declaration could not be satisfied
	ClassExit          = "Exit"          // the cell called os.Exit or log.Fatal: it ended as a program exits
)

// Traceback is the one way a traceback is built: the "Class: message"
// line, then the cell's frames, innermost last.
func Traceback(class, msg string, frames ...string) []string {
	return append([]string{class + ": " + msg}, frames...)
}

// CellError is a failed cell as a Go error, for callers that want
// errors.As rather than Result fields.
type CellError struct {
	Class     string
	Message   string
	Traceback []string
}

func (e *CellError) Error() string { return e.Class + ": " + e.Message }

// Is reports whether target is a *CellError of the same class, so that
// errors.Is(err, &CellError{Class: ClassTimeout}) works.
func (e *CellError) Is(target error) bool {
	t, ok := target.(*CellError)
	return ok && t.Class == e.Class && (t.Message == "" || t.Message == e.Message)
}

// Err returns the cell's failure as a *CellError, or nil when it succeeded.
func (r *Result) Err() error {
	if r == nil || r.Success {
		return nil
	}
	return &CellError{Class: r.ErrorName, Message: r.ErrorMessage, Traceback: r.Traceback}
}

// Fail returns a failed Result of class with msg and its traceback.
func Fail(class, msg string) *Result {
	return &Result{ErrorName: class, ErrorMessage: msg, Traceback: Traceback(class, msg)}
}
