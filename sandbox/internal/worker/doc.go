// Package worker is the sandboxed process that runs cells: the binary
// re-executed by the supervisor (package sandbox) with IsWorker true. Main
// reads the configuration from the supervisor's pipe, maps the data file
// the supervisor opened (while the interpreter is built on another
// goroutine), applies the isolation layers (package isolate), then serves
// requests until the pipe closes.
//
// This package holds the interpreter session: yaegi over the allow-listed
// symbol table (package symbols) with the helpers the supervisor's
// rewrites call, the evaluation of a cell's chunks and the classification
// of its failures, output batching and caps (cellOutput), value rendering
// under deadlines (the formatting gate), the refusal of reflect values
// reachable through the table, package pre-flight, and the heap watchdog.
// A cell's goroutines and deadlock detection are package supervise's;
// completion and inspection, package assist's.
//
// The worker process is the one place with package-level state (the
// running cell's context and captured value: yaegi calls the compiled
// helpers with no receiver); one worker process runs one session.
package worker
