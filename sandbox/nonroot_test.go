package sandbox

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// asNobodyEnv marks the test binary re-executed by TestSandboxAsNonRoot.
const asNobodyEnv = "SBIR_TEST_AS_NOBODY"

// TestSandboxAsNonRoot runs the isolation and hostile-cell tests again as
// an unprivileged user (nobody), as a shared server's kernel runs: the
// worker then keeps that uid inside its user namespace instead of being
// mapped to nobody by a root supervisor. It needs root and setpriv.
func TestSandboxAsNonRoot(t *testing.T) {
	if os.Getenv(asNobodyEnv) != "" {
		t.Skip("already running as the unprivileged user")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: the whole suite already runs unprivileged")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		if os.Getenv("SBIR_E2E") == "1" {
			t.Fatal("setpriv (Debian package util-linux) is needed to run the sandbox as nobody")
		}
		t.Skip("setpriv not found (Debian package util-linux)")
	}
	if testing.Short() {
		t.Skip("runs the hostile cells again")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A directory nobody can enter, with a copy of this test binary.
	dir, err := os.MkdirTemp("", "sandbox-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sandbox.test")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "-test.v",
		"-test.run", "^(TestHostileOS|TestHostileCells|TestMemoryBudgetHeldWhereMemoryIsTaken|TestFailedStartKeepsIsolation|TestProbeIsolationAndRequire|TestNoUserNamespaces)$")
	cmd.Dir = dir
	cmd.Env = []string{asNobodyEnv + "=1", "HOME=" + tmp, "TMPDIR=" + tmp, "PATH=/usr/bin:/bin",
		testenv.EnvSlow + "=" + os.Getenv(testenv.EnvSlow)}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestHostileOS") {
		t.Fatalf("the sandbox tests as nobody: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "--- ") {
			t.Log(line)
		}
	}
}

// TestNoUserNamespaces forces the host without user namespaces (containers
// often forbid them) and checks what remains: every other layer active,
// and a cell still kept from the host's files, network and processes.
func TestNoUserNamespaces(t *testing.T) {
	iso := Isolation{Reason: "test: the host refused to create them"}
	s, err := NewSession(context.Background(), Options{DataPath: testDataPath, Isolation: &iso})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, l := range s.Layers() {
		switch {
		case l.Name == "namespaces":
			if l.Active || !strings.Contains(l.Detail, "refused") {
				t.Errorf("namespaces layer: %+v, want inactive with the reason", l)
			}
		case !l.Active:
			t.Errorf("layer %s inactive without namespaces: %s", l.Name, l.Detail)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	secret := filepath.Join(t.TempDir(), "connection.json")
	if err := os.WriteFile(secret, []byte(`{"key": "k"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	probes, err := s.probe(wire.ProbeTarget{TCP: ln.Addr().String(), PID: os.Getpid(), File: secret})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probes {
		switch p.Name {
		case "read /etc/passwd", "read a file next to the kernel", "tcp connect", "write /tmp":
			if !p.Blocked {
				t.Errorf("without namespaces, %q was not blocked: %s", p.Name, p.Detail)
			}
		}
	}
}

// TestCPULimitKill lowers the worker's CPU-time backstop (RLIMIT_CPU) and
// spins past it: the kernel's own kill signal ends the worker, the cell
// says which limit, and the next cell runs in a fresh worker.
func TestCPULimitKill(t *testing.T) {
	l := DefaultLimits()
	generous(&l) // 2 s of CPU take far longer on a loaded machine
	s, err := NewSession(context.Background(), Options{Limits: l, DataPath: testDataPath, testCPUSeconds: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := run(t, s, "x := 1\nfor {}")
	if res.Success || res.ErrorName != ClassWorkerCrashed || !strings.Contains(res.ErrorMessage, "2s CPU-time limit") || !res.Restarted {
		t.Fatalf("a cell past the CPU limit: %+v", res)
	}
	if r := run(t, s, "1 + 1"); !r.Success || value(r) != "2" {
		t.Fatalf("the next cell: %+v", r)
	}
}
