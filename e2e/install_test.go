package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/kernelspec"
)

// TestE2EInstall runs the built binary's install and uninstall commands the
// way a user does, and asks the real `jupyter kernelspec list` whether it
// sees the result.
func TestE2EInstall(t *testing.T) {
	j := newJupyterEnv(t)
	run := func(args ...string) (string, int) {
		t.Helper()
		return j.runCLI(t, args...)
	}
	specDir := filepath.Join(j.dataDir, "kernels", "sbir")
	readSpec := func(dir string) kernelspec.Spec {
		t.Helper()
		return readKernelSpec(t, dir)
	}

	out, code := run("install")
	if code != 0 || !strings.Contains(out, "Installed kernelspec \"sbir\"") || !strings.Contains(out, specDir) ||
		!strings.Contains(out, "jupyter console --kernel sbir") {
		t.Fatalf("install: exit %d, output:\n%s\nwant the directory %s and the next command", code, out, specDir)
	}
	spec := readSpec(specDir)
	if want := []string{j.bin, "kernel", "-f", "{connection_file}"}; !reflect.DeepEqual(spec.Argv, want) {
		t.Errorf("argv = %q, want %q (limits left at their defaults stay out)", spec.Argv, want)
	}
	for _, f := range []string{"logo-32x32.png", "logo-64x64.png", "logo-svg.svg"} {
		if _, err := os.Stat(filepath.Join(specDir, f)); err != nil {
			t.Errorf("logo missing: %v", err)
		}
	}

	out, code = run("install", "--cell-timeout", "5s", "--max-output-bytes", "64KiB", "--display-name", "Go (short cells)")
	if code != 0 || !strings.Contains(out, "Updated kernelspec") {
		t.Fatalf("re-install: exit %d, output:\n%s", code, out)
	}
	spec = readSpec(specDir)
	want := []string{j.bin, "kernel", "--max-output-bytes=65536", "--cell-timeout=5s", "-f", "{connection_file}"}
	if !reflect.DeepEqual(spec.Argv, want) || spec.DisplayName != "Go (short cells)" {
		t.Errorf("after re-install argv = %q display %q, want %q and the new display name", spec.Argv, spec.DisplayName, want)
	}

	// A shared server's kernelspec: isolation required, packages allowed.
	out, code = run("install", "--name", "sbir-strict", "--require-isolation", "--allow-packages")
	if code != 0 {
		t.Fatalf("install --require-isolation: exit %d\n%s", code, out)
	}
	strict := readSpec(filepath.Join(filepath.Dir(specDir), "sbir-strict"))
	want = []string{j.bin, "kernel", "--allow-packages=true", "--require-isolation", "-f", "{connection_file}"}
	if !reflect.DeepEqual(strict.Argv, want) {
		t.Errorf("strict argv = %q, want %q", strict.Argv, want)
	}

	prefix := filepath.Join(j.root, "prefix")
	out, code = run("install", "--prefix", prefix, "--name", "sbir-prefixed")
	if code != 0 {
		t.Fatalf("install --prefix: exit %d\n%s", code, out)
	}
	readSpec(filepath.Join(prefix, "share", "jupyter", "kernels", "sbir-prefixed"))

	for _, bad := range [][]string{
		{"install", "--user", "--prefix", prefix},
		{"install", "--cell-timeout", "soon"},
		{"install", "extra-argument"},
		{"install", "--name", "no/slashes"},
	} {
		out, code := run(bad...)
		if code == 0 || !strings.Contains(out, "sbir-kernel install") {
			t.Errorf("sbir-kernel %s: exit %d, output %q; want a failure naming the command", strings.Join(bad, " "), code, out)
		}
	}

	j.checkKernelspecList(t, prefix, specDir)

	out, code = run("uninstall")
	if code != 0 || !strings.Contains(out, "Removed kernelspec \"sbir\"") {
		t.Errorf("uninstall: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(specDir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after uninstall", specDir)
	}
	out, code = run("uninstall")
	if code != 1 || !strings.Contains(out, "not installed") || !strings.Contains(out, specDir) {
		t.Errorf("second uninstall: exit %d, output %q; want exit 1 saying where it looked", code, out)
	}
	if out, code = run("uninstall", "--prefix", prefix, "--name", "sbir-prefixed"); code != 0 {
		t.Errorf("uninstall --prefix: exit %d\n%s", code, out)
	}
}

// runCLI runs sbir-kernel with args in j's environment and returns its
// output (stdout and stderr) and exit code.
func (j *jupyterEnv) runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(j.bin, args...)
	cmd.Env = j.env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("sbir-kernel %s: %v", strings.Join(args, " "), err)
	}
	return string(out), code
}

// readKernelSpec reads the kernel.json in dir.
func readKernelSpec(t *testing.T, dir string) kernelspec.Spec {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s kernelspec.Spec
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("kernel.json: %v\n%s", err, data)
	}
	return s
}

// checkKernelspecList checks that Jupyter's own listing, when Jupyter is
// installed, shows the kernelspec installed in specDir and the one
// installed under prefix as "sbir-prefixed".
func (j *jupyterEnv) checkKernelspecList(t *testing.T, prefix, specDir string) {
	t.Helper()
	jupyter, err := exec.LookPath("jupyter")
	if err != nil {
		t.Log("jupyter is not installed: not checking `jupyter kernelspec list`")
		return
	}
	// Jupyter's start is Python's: seconds on a quiet machine, and past a
	// fixed minute under load; the run's own deadline bounds it.
	ctx, cancel := context.WithTimeout(context.Background(), startLimit(t, time.Minute))
	defer cancel()
	cmd := j.command(ctx, jupyter, "kernelspec", "list", "--json")
	cmd.Env = append(cmd.Env, "JUPYTER_PATH="+filepath.Join(prefix, "share", "jupyter"))
	listing, err := cmd.Output()
	if err != nil {
		t.Fatalf("jupyter kernelspec list: %v", err)
	}
	var list struct {
		Kernelspecs map[string]struct {
			ResourceDir string `json:"resource_dir"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(listing, &list); err != nil {
		t.Fatalf("jupyter kernelspec list --json: %v\n%s", err, listing)
	}
	if list.Kernelspecs["sbir"].ResourceDir != specDir || list.Kernelspecs["sbir-prefixed"].ResourceDir == "" {
		t.Errorf("jupyter kernelspec list does not show both kernels:\n%s", listing)
	}
}
