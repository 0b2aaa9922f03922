package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// lifecycleReport is what testdata/scripts/kernel_lifecycle.py prints.
type lifecycleReport struct {
	Checks []struct {
		Name   string `json:"name"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"checks"`
	Info map[string]any `json:"info"`
}

// TestE2EKernelManager drives the kernel with jupyter_client.KernelManager,
// as JupyterLab and nbclient do: interrupt a running cell (interrupt_request
// on control, then SIGINT), restart, shut down, and look for processes left
// behind, sandbox workers included.
func TestE2EKernelManager(t *testing.T) {
	requirePython(t, map[string]string{"jupyter_client": "python3-jupyter-client"})
	j := newJupyterEnv(t)
	j.install()
	t.Run("harness_on_ipykernel", func(t *testing.T) {
		if _, err := os.Stat("/usr/share/jupyter/kernels/python3/kernel.json"); err != nil {
			t.Skip("Debian's ipykernel (python3-ipykernel) is not installed: the harness is not cross-checked")
		}
		runLifecycle(t, j, "python3")
	})
	if t.Failed() {
		t.Fatal("kernel_lifecycle.py fails on ipykernel, so its verdict on sbir would mean nothing")
	}
	t.Run("sbir", func(t *testing.T) { runLifecycle(t, j, "sbir", "--binary", j.bin) })
}

// runLifecycle runs testdata/scripts/kernel_lifecycle.py and turns each of its
// checks into a test failure or a log line.
func runLifecycle(t *testing.T, j *jupyterEnv, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(3*time.Minute))
	defer cancel()
	stdout, stderr, err := j.python(ctx, "kernel_lifecycle.py", args...)
	var rep lifecycleReport
	if jerr := json.Unmarshal([]byte(stdout), &rep); jerr != nil {
		t.Fatalf("kernel_lifecycle.py (%v) printed no report: %v\nstdout:\n%s\nstderr:\n%s", err, jerr, stdout, lastLines(stderr, 40))
	}
	for _, c := range rep.Checks {
		if !c.OK {
			t.Errorf("%s: FAILED: %s", c.Name, c.Detail)
		} else {
			t.Logf("ok: %s %s", c.Name, c.Detail)
		}
	}
	t.Logf("timings and processes: %v", rep.Info)
	if err != nil && !t.Failed() {
		t.Errorf("kernel_lifecycle.py failed (%v) without a failed check:\n%s", err, lastLines(stderr, 40))
	}
	if t.Failed() && strings.TrimSpace(stderr) != "" {
		t.Logf("client stderr (kernel logs included):\n%s", lastLines(stderr, 40))
	}
}

// TestE2EClientKilled kills the client that started the kernel (SIGKILL,
// no shutdown_request), as a crashing JupyterLab or a closed terminal
// would. jupyter_client passes the client's pid in JPY_PARENT_PID and
// ipykernel exits when that process is gone; the kernel and its workers must
// not outlive their client either.
func TestE2EClientKilled(t *testing.T) {
	requirePython(t, map[string]string{"jupyter_client": "python3-jupyter-client"})
	j := newJupyterEnv(t)
	j.install()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(2*time.Minute))
	defer cancel()
	dir, _ := filepath.Abs(filepath.Join("testdata", "scripts"))
	cmd := j.command(ctx, systemPython, filepath.Join(dir, "crashing_client.py"), "sbir")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "kernel ") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("crashing_client.py did not start the kernel (%v, %q):\n%s", err, line, lastLines(stderr.String(), 30))
	}
	running := j.kernelProcesses()
	if len(running) < 2 {
		t.Errorf("expected the kernel and its worker to be running, found %v", running)
	}
	// Kill only the client: the kernel runs in its own session.
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	killed := time.Now()
	for time.Since(killed) < testenv.Scale(10*time.Second) {
		if len(j.kernelProcesses()) == 0 {
			t.Logf("kernel and workers exited %v after their client was killed", time.Since(killed).Round(10*time.Millisecond))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	left := j.kernelProcesses()
	for pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Errorf("10 s after its client was killed, these processes still run (ipykernel exits within ~1 s: it polls JPY_PARENT_PID): %v", left)
}
