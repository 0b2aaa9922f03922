package wire

// Error classes: the ErrorName of a failed cell's Result (Jupyter's
// ename). They are the one place these names are spelled.
const (
	ClassSyntaxError   = "SyntaxError"   // the cell does not parse
	ClassNotAllowed    = "NotAllowed"    // the AST check, or the interpreter as it ran, refused a construct
	ClassCompileError  = "CompileError"  // the interpreter, or gc for a compiled cell, could not compile it
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
	ClassBuildError    = "BuildError"    // a compiled cell's build failed for another reason than its code (a limit, the toolchain)
)

// Traceback is the one way a traceback is built: the "Class: message"
// line, then the cell's frames, innermost last.
func Traceback(class, msg string, frames ...string) []string {
	return append([]string{class + ": " + msg}, frames...)
}

// Fail returns a failed Result of class with msg and its traceback.
func Fail(class, msg string) *Result {
	return &Result{ErrorName: class, ErrorMessage: msg, Traceback: Traceback(class, msg)}
}
