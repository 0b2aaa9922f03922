package sandbox

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWorkerDiesWithSupervisor kills a supervisor with SIGKILL (no cleanup
// runs) and checks that its worker does not survive it.
func TestWorkerDiesWithSupervisor(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SBIR_TEST_SUPERVISOR_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("reading the worker pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("supervisor said %q", line)
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("worker %d is not running", pid)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	deadline := time.Now().Add(waitTime)
	for {
		// Gone, or a zombie waiting for init to reap it.
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(b), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("worker %d survived its supervisor", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCloseLeavesNoProcess checks that Close reaps the worker.
func TestCloseLeavesNoProcess(t *testing.T) {
	s := newTestSession(t, nil)
	pid := s.p.cmd.Process.Pid
	s.Close()
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Fatalf("worker %d still exists after Close", pid)
	}
}
