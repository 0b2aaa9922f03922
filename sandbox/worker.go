package sandbox

import (
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker"
)

// IsWorker reports whether this process was started by a Session as its
// worker. The binary's main must check it first and, when it is true, call
// WorkerMain and exit with its status.
func IsWorker() bool { return worker.IsWorker() }

// WorkerMain runs the worker side of a session and returns the process's
// exit status. It is the only place where the worker keeps process-wide
// state (the interpreter's hooks and the loaded data).
func WorkerMain() int { return worker.Main() }

// IsComplete reports whether code is ready to run, as the Jupyter
// is_complete_request wants it: "complete", "incomplete" (with the indent of
// the next line), or "invalid".
func IsComplete(code string) (status, indent string) { return cellprep.IsComplete(code) }
