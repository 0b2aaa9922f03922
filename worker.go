package main

import (
	"os"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// maybeRunWorker runs the sandbox worker when this process was started as
// one (the supervisor re-executes this binary with a marker argument) and
// then exits; otherwise it returns false and main carries on.
func maybeRunWorker() bool {
	if !sandbox.IsWorker() {
		return false
	}
	os.Exit(sandbox.WorkerMain())
	return true
}
