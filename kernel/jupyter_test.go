package kernel

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJupyterClient runs real Jupyter clients (jupyter_client's
// KernelManager and the jupyter_kernel_test conformance suite, from
// Debian's python3-jupyter-client and python3-jupyter-kernel-test) against
// this test binary serving the script evaluator. It skips when they are
// missing, unless SBIR_E2E=1.
func TestJupyterClient(t *testing.T) {
	if testing.Short() {
		t.Skip("starts kernel processes; skipped with -short")
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import jupyter_client, jupyter_kernel_test").Run(); err != nil {
		if os.Getenv("SBIR_E2E") == "1" {
			t.Fatalf("SBIR_E2E=1 but %s cannot import jupyter_client and jupyter_kernel_test: %v "+
				"(apt-get install python3-jupyter-client python3-jupyter-kernel-test)", py, err)
		}
		t.Skipf("jupyter_client/jupyter_kernel_test not importable by %s: %v", py, err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, mode := range map[string]string{"sbir-test": "message", "sbir-test-signal": "signal"} {
		spec := filepath.Join(dir, "kernels", name)
		if err := os.MkdirAll(spec, 0o755); err != nil {
			t.Fatal(err)
		}
		kj, _ := json.Marshal(map[string]any{
			"argv":           []string{exe, "{connection_file}"},
			"display_name":   "sbir kernel test helper",
			"language":       "go",
			"interrupt_mode": mode,
			"env":            map[string]string{helperEnv: "1"},
		})
		if err := os.WriteFile(filepath.Join(spec, "kernel.json"), kj, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(py, filepath.Join("testdata", "jupyter_client_test.py"))
	cmd.Env = append(os.Environ(), "JUPYTER_PATH="+dir, "JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"KERNEL_NAME=sbir-test", "PYDEVD_DISABLE_FILE_VALIDATION=1")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("Jupyter client checks failed: %v", err)
	}
}
