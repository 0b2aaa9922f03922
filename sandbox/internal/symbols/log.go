package symbols

import (
	"fmt"
	"io"
	"log"
	"reflect"
)

// ExitError ends a cell the way os.Exit ends a program: os.Exit panics
// with it, and log.Fatal and Logger.Fatal after writing their message. A cell is not a
// process, so "exit" means: the cell stops there and fails (the worker and
// the session's state live on), with this error as the reason.
type ExitError struct {
	// Code is the status a program would have exited with.
	Code int
}

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// ErrorName classifies the failure for the cell's error reply (the
// worker's wire.ClassExit).
func (e ExitError) ErrorName() string { return "Exit" }

// ExitStatus makes ExitError an interp.Exiter: the interpreter unwinds
// the cell without running deferred functions, which recover therefore
// cannot stop, as os.Exit ends a program.
func (e ExitError) ExitStatus() int { return e.Code }

// positionFlags are the log flags that print the caller's file and line.
// log finds them with runtime.Caller, which in an interpreted cell sees the
// interpreter's own source ("value.go:586"), never the cell's line: a
// logger asking for them is refused rather than print another position.
const positionFlags = log.Lshortfile | log.Llongfile

// NotAllowedError is the refusal of something a cell asked for that the
// interpreter cannot give as gc does (the worker's wire.ClassNotAllowed).
type NotAllowedError struct{ Msg string }

func (e NotAllowedError) Error() string { return e.Msg }

// ErrorName classifies the failure for the cell's error reply.
func (e NotAllowedError) ErrorName() string { return "NotAllowed" }

// checkLogFlags panics with a NotAllowedError when flag asks for the
// caller's file and line.
func checkLogFlags(flag int) {
	if flag&positionFlags != 0 {
		panic(NotAllowedError{"log.Lshortfile and log.Llongfile are not available to interpreted cells: the file and line they print would be the interpreter's own, not the cell's; leave them out of the flags, or run the cell compiled (//sbir:compile), where they name the cell's line"})
	}
}

// SetFlags is log.Logger's, refusing the flags of the caller's position.
func (l *CellLogger) SetFlags(flag int) {
	checkLogFlags(flag)
	l.Logger.SetFlags(flag)
}

// CellLogger is log.Logger for cells: the same methods, except that Fatal,
// Fatalf and Fatalln end the cell (see ExitError) instead of the worker,
// and that the flags of the caller's position are refused (SetFlags).
type CellLogger struct {
	*log.Logger
}

// Fatal is Print followed by the end of the cell.
func (l *CellLogger) Fatal(v ...any) { l.Output(2, fmt.Sprint(v...)); panic(ExitError{1}) }

// Fatalf is Printf followed by the end of the cell.
func (l *CellLogger) Fatalf(format string, v ...any) {
	l.Output(2, fmt.Sprintf(format, v...))
	panic(ExitError{1})
}

// Fatalln is Println followed by the end of the cell.
func (l *CellLogger) Fatalln(v ...any) { l.Output(2, fmt.Sprintln(v...)); panic(ExitError{1}) }

// logNames are the members addLog adds to "log".
var logNames = []string{"Default", "Fatal", "Fatalf", "Fatalln", "Flags", "Logger", "New", "Output", "Panic", "Panicf", "Panicln", "Prefix", "Print", "Printf", "Println", "SetFlags", "SetOutput", "SetPrefix", "Writer"}

// addLog completes the cells' "log" with a standard logger of their own,
// writing to the cell's stderr: the real log.Default is the worker's
// logger (writing to the worker's own stderr), and log.Fatal would exit
// the worker. SetOutput can only point it at a writer the cell holds.
func addLog(m map[string]reflect.Value, stderr io.Writer) {
	if m == nil {
		return
	}
	if stderr == nil {
		stderr = io.Discard
	}
	std := &CellLogger{log.New(stderr, "", log.LstdFlags)}
	m["Logger"] = reflect.ValueOf((*CellLogger)(nil))
	m["New"] = reflect.ValueOf(func(out io.Writer, prefix string, flag int) *CellLogger {
		checkLogFlags(flag)
		return &CellLogger{log.New(out, prefix, flag)}
	})
	m["Default"] = reflect.ValueOf(func() *CellLogger { return std })
	m["Fatal"] = reflect.ValueOf(std.Fatal)
	m["Fatalf"] = reflect.ValueOf(std.Fatalf)
	m["Fatalln"] = reflect.ValueOf(std.Fatalln)
	m["Flags"] = reflect.ValueOf(std.Flags)
	m["Output"] = reflect.ValueOf(std.Output)
	m["Panic"] = reflect.ValueOf(std.Panic)
	m["Panicf"] = reflect.ValueOf(std.Panicf)
	m["Panicln"] = reflect.ValueOf(std.Panicln)
	m["Prefix"] = reflect.ValueOf(std.Prefix)
	m["Print"] = reflect.ValueOf(std.Print)
	m["Printf"] = reflect.ValueOf(std.Printf)
	m["Println"] = reflect.ValueOf(std.Println)
	m["SetFlags"] = reflect.ValueOf(std.SetFlags)
	m["SetOutput"] = reflect.ValueOf(std.SetOutput)
	m["SetPrefix"] = reflect.ValueOf(std.SetPrefix)
	m["Writer"] = reflect.ValueOf(std.Writer)
}
