package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary act as the sandbox worker: sessions started
// by the tests re-execute it with the worker marker.
func TestMain(m *testing.M) {
	if maybeRunWorker() {
		return
	}
	os.Exit(m.Run())
}
