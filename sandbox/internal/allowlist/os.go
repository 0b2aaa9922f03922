package allowlist

// osDocs documents the cells' "os", which is not the standard package: it
// holds only the cell's own streams and Exit (see package symbols).
var osDocs = map[string]Entry{
	"":       {Sig: `package os // import "os"`, Doc: "Package os, in a cell, holds only the cell's standard streams (os.Stdin, os.Stdout and os.Stderr) and os.Exit.\nFiles, processes and the environment are not available in the sandbox.\n\n\tfmt.Fprintln(os.Stderr, \"warning:\", n, \"rows skipped\")\n"},
	"Stdin":  {Sig: "var Stdin io.Reader", Doc: "Stdin is the cell's standard input: reading it asks the Jupyter client for a line, when the client allows input.\n"},
	"Stdout": {Sig: "var Stdout io.Writer", Doc: "Stdout is the cell's standard output, shown as the cell's stdout stream.\n"},
	"Exit":   {Sig: "func Exit(code int)", Doc: "Exit ends the cell as os.Exit ends a program: the output so far is kept, deferred functions do not run, and the cell fails reporting the exit status.\nThe session and its variables are kept.\n"},
	"Stderr": {Sig: "var Stderr io.Writer", Doc: "Stderr is the cell's standard error, shown as the cell's stderr stream.\n\n\tfmt.Fprintln(os.Stderr, \"something went wrong\")\n"},
}
