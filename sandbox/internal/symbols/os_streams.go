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
