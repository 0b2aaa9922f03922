package sandbox

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// testDataPath is the Arrow file of the embedded sample, shared by the
// package's tests.
var testDataPath string

// TestMain makes the test binary double as the worker: sessions re-execute
// it with the worker marker.
func TestMain(m *testing.M) {
	if IsWorker() {
		os.Exit(WorkerMain())
	}
	if os.Getenv("SBIR_TEST_SUPERVISOR_CHILD") == "1" {
		supervisorChild()
		return
	}
	dir, err := os.MkdirTemp("", "sandbox-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	src, err := dataset.Locate(context.Background(), dataset.Config{CacheDir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, "preparing test data:", err)
		os.Exit(1)
	}
	testDataPath = src.ArrowPath
	code := m.Run()
	os.RemoveAll(dir)
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// waitTime is how long a test waits for what must happen (a worker gone,
// a session closed): it bounds only a failure, so it is long, and scaled
// by SBIR_TEST_SLOW.
var waitTime = testenv.Scale(10 * time.Second)

// newTestSession starts a session on the sample data with limits suited to
// tests; change adjusts them. The time limit (5 s, scaled by
// SBIR_TEST_SLOW) is for cells that end on their own: a test of the limit
// itself sets it, and one whose cell works for a while sets a generous one,
// so that a loaded machine does not turn its result into a Timeout.
func newTestSession(t testing.TB, change func(*Limits)) *Session {
	t.Helper()
	l := DefaultLimits()
	l.CellTimeout = testenv.Scale(5 * time.Second)
	l.KillGrace = testenv.Scale(l.KillGrace)
	if change != nil {
		change(&l)
	}
	s, err := NewSession(context.Background(), Options{Limits: l, DataPath: testDataPath})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// generous gives a cell that works for a while (a flood, a bomb that must
// reach a memory or output budget, not the clock) a time limit far past
// what it needs on a quiet machine: the budget under test, not the
// machine's speed, must end it.
func generous(l *Limits) { l.CellTimeout = testenv.Scale(2 * time.Minute) }

// run runs code and fails the test on a session error.
func run(t testing.TB, s *Session, code string) *Result {
	t.Helper()
	res, err := s.Run(context.Background(), code, nil)
	if err != nil {
		t.Fatalf("Run(%q): %v", code, err)
	}
	return res
}

// value returns the text/plain value of a result.
func value(r *Result) string {
	v, _ := r.Value["text/plain"].(string)
	return v
}

// layerActive reports whether the session's worker has the named layer.
func layerActive(s *Session, name string) (bool, string) {
	for _, l := range s.Layers() {
		if l.Name == name {
			return l.Active, l.Detail
		}
	}
	return false, "not reported"
}

// supervisorChild is a supervisor process for TestWorkerDiesWithSupervisor:
// it starts a session, prints its worker's pid and waits to be killed.
func supervisorChild() {
	s, err := NewSession(context.Background(), Options{})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(s.p.cmd.Process.Pid)
	select {}
}
