package award_data_test

import (
	"fmt"
	"os"
	"testing"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// TestMain makes the test binary double as the sandbox worker (for the
// session benchmarks) and loads the fixture before tests and examples
// run, so that examples can use the package-level functions directly.
func TestMain(m *testing.M) {
	if sandbox.IsWorker() {
		os.Exit(sandbox.WorkerMain())
	}
	if err := award_data.LoadFixture(); err != nil {
		fmt.Fprintln(os.Stderr, "loading the fixture:", err)
		os.Exit(1)
	}
	code := m.Run()
	award_data.RemoveFixture()
	os.Exit(code)
}
