package symbols

import (
	"io"
	"reflect"
)

// osStreams is the package "os" cells see: their own standard streams,
// so that the Go they know works (fmt.Fprintln(os.Stderr, ...)), and
// Exit, which ends the cell as a program ends; nothing else of the real
// os package: no files, processes or environment. Use also adds os.Args and a virtual environment built from
// interp.Options.Args and Env: the sandbox leaves the environment empty and gives os.Args the one element
// of a program run without arguments, its name ("cell").
func osStreams(opts Options) map[string]reflect.Value {
	stdin, stdout, stderr := opts.Stdin, opts.Stdout, opts.Stderr
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	return map[string]reflect.Value{
		"Stdin":  reflect.ValueOf(&stdin).Elem(),
		"Stdout": reflect.ValueOf(&stdout).Elem(),
		"Stderr": reflect.ValueOf(&stderr).Elem(),
		// Exit ends the cell, not the worker: see ExitError.
		"Exit": reflect.ValueOf(func(code int) { panic(ExitError{code}) }),
	}
}

// osDocs documents the cells' "os" for inspect.
var osDocs = map[string]Entry{
	"":       {Sig: `package os // import "os"`, Doc: "Package os, in a cell, holds only the cell's standard streams (os.Stdin, os.Stdout and os.Stderr) and os.Exit.\nFiles, processes and the environment are not available in the sandbox.\n\n\tfmt.Fprintln(os.Stderr, \"warning:\", n, \"rows skipped\")\n"},
	"Stdin":  {Sig: "var Stdin io.Reader", Doc: "Stdin is the cell's standard input: reading it asks the Jupyter client for a line, when the client allows input.\n"},
	"Stdout": {Sig: "var Stdout io.Writer", Doc: "Stdout is the cell's standard output, shown as the cell's stdout stream.\n"},
	"Exit":   {Sig: "func Exit(code int)", Doc: "Exit ends the cell as os.Exit ends a program: the output so far is kept, deferred functions do not run, and the cell fails reporting the exit status.\nThe session and its variables are kept.\n"},
	"Stderr": {Sig: "var Stderr io.Writer", Doc: "Stderr is the cell's standard error, shown as the cell's stderr stream.\n\n\tfmt.Fprintln(os.Stderr, \"something went wrong\")\n"},
}
