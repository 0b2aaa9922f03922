package sandbox

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// TestFailedStartKeepsIsolation checks that a worker start that fails (a
// transient error: no descriptors, a fork refused) never weakens the
// isolation of the workers after it. The worker that finally starts, and
// every later one, has its namespaces and stops a network connection.
func TestFailedStartKeepsIsolation(t *testing.T) {
	iso := DetectIsolation()
	if !iso.Namespaces {
		t.Skipf("this host does not allow the worker's namespaces (%s); nothing to weaken", iso.Reason)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	checkIsolated := func(t *testing.T, s *Session) {
		t.Helper()
		if on, detail := layerActive(s, "namespaces"); !on {
			t.Fatalf("namespaces inactive after a failed start: %s", detail)
		}
		probes, err := s.probe(wire.ProbeTarget{TCP: ln.Addr().String(), PID: os.Getpid()})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probes {
			if p.Name == "tcp connect" && !p.Blocked {
				t.Fatalf("a cell reached the host's loopback after a failed start: %s", p.Detail)
			}
		}
	}

	// One failed attempt: the retry starts a fully isolated worker.
	attempts := 0
	opts := Options{DataPath: testDataPath, Isolation: &iso, spawnFault: func(attempt int) error {
		attempts = attempt
		if attempt == 1 {
			return syscall.EMFILE
		}
		return nil
	}}
	s, err := NewSession(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if attempts != 2 {
		t.Errorf("the start took %d attempts, want 2", attempts)
	}
	checkIsolated(t, s)

	// Every attempt fails: the session reports it instead of starting a
	// worker with less isolation.
	opts.spawnFault = func(int) error { return syscall.EAGAIN }
	if _, err := NewSession(context.Background(), opts); err == nil || !errors.Is(err, syscall.EAGAIN) || !strings.Contains(err.Error(), "attempts") {
		t.Fatalf("a start that always fails: err = %v, want the EAGAIN reported", err)
	}

	// And the next session, with the same detected isolation, is whole.
	opts.spawnFault = nil
	s2, err := NewSession(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	checkIsolated(t, s2)
}

func TestSentinelErrors(t *testing.T) {
	s := newTestSession(t, nil)
	s.Close()
	if _, err := s.Run(context.Background(), "1", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Run after Close: %v, want ErrClosed", err)
	}
	if _, err := NewSession(context.Background(), Options{DataPath: testDataPath, RequireIsolation: true,
		Isolation: &Isolation{Reason: "test: namespaces unavailable"}}); !errors.Is(err, ErrIsolationMissing) {
		t.Errorf("RequireIsolation without namespaces: %v, want ErrIsolationMissing", err)
	}
}
