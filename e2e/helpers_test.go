package e2e

// Shared harness for the end-to-end tests (e2e_*_test.go): they build the
// sbir-kernel binary, install its kernelspec into a private Jupyter data
// directory, and drive real Jupyter clients from Debian's packages.
//
// Without SBIR_E2E=1 a test whose client is missing skips and says which
// Debian package provides it; with SBIR_E2E=1 (CI) a missing client fails.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// systemPython is Debian's interpreter, the one the Jupyter packages are
// installed for (the first python3 on PATH may be another one).
const systemPython = "/usr/bin/python3"

// e2eMandatory reports whether missing clients are failures (SBIR_E2E=1).
func e2eMandatory() bool { return os.Getenv("SBIR_E2E") == "1" }

// requireClient skips the test when a client is missing, or fails it under
// SBIR_E2E=1.
func requireClient(t *testing.T, missing string, debianPackages string) {
	t.Helper()
	msg := fmt.Sprintf("%s (install the Debian packages: apt-get install -y --no-install-recommends %s)", missing, debianPackages)
	if e2eMandatory() {
		t.Fatalf("SBIR_E2E=1 makes this test mandatory, but %s", msg)
	}
	t.Skipf("skipping: %s; set SBIR_E2E=1 to make this a failure", msg)
}

// requireCommand returns the path of a command, or skips/fails.
func requireCommand(t *testing.T, name, debianPackages string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		requireClient(t, fmt.Sprintf("%s is not on PATH", name), debianPackages)
	}
	return p
}

// requireJupyter returns Debian's jupyter command (the one whose
// subcommands run under /usr/bin/python3), else the one on PATH.
func requireJupyter(t *testing.T, debianPackages string) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/jupyter"); err == nil {
		return "/usr/bin/jupyter"
	}
	return requireCommand(t, "jupyter", debianPackages)
}

// requirePython checks that Debian's python3 can import every module; the
// map gives the Debian package of each.
func requirePython(t *testing.T, modules map[string]string) {
	t.Helper()
	if _, err := os.Stat(systemPython); err != nil {
		requireClient(t, systemPython+" does not exist", "python3")
	}
	var missing, pkgs []string
	for _, mod := range sortedKeys(modules) {
		if err := exec.Command(systemPython, "-c", "import "+mod).Run(); err != nil {
			missing = append(missing, mod)
			pkgs = append(pkgs, modules[mod])
		}
	}
	if len(missing) > 0 {
		requireClient(t, fmt.Sprintf("%s cannot import %s", systemPython, strings.Join(missing, ", ")), strings.Join(pkgs, " "))
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jupyterEnv is one test's private Jupyter installation: a freshly built
// kernel binary, and data, config, runtime and home directories that no
// other test or user setting touches.
type jupyterEnv struct {
	t       *testing.T
	root    string
	bin     string   // the sbir-kernel binary under test
	dataDir string   // JUPYTER_DATA_DIR
	env     []string // environment for clients (and, through them, the kernel)
	// pythonExe runs the client scripts: Debian's python3, or a PyPI
	// virtualenv's (newVenvJupyterEnv).
	pythonExe string
}

// newJupyterEnv builds the kernel and prepares the directories. At the end
// of the test it checks that no process of this binary (kernel or sandbox
// worker) is still running, and kills any it finds.
func newJupyterEnv(t *testing.T) *jupyterEnv {
	t.Helper()
	if testing.Short() && !e2eMandatory() {
		t.Skip("end-to-end test skipped in -short mode (it builds the kernel and starts real clients)")
	}
	root := t.TempDir()
	j := &jupyterEnv{t: t, root: root, bin: buildKernel(t, root), dataDir: filepath.Join(root, "data"), pythonExe: systemPython}
	home := filepath.Join(root, "home")
	for _, d := range []string{j.dataDir, home, filepath.Join(root, "config"), filepath.Join(root, "runtime"), filepath.Join(root, "cache")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "JUPYTER_") || strings.HasPrefix(name, "SBIR_") ||
			name == "HOME" || name == "IPYTHONDIR" || name == "XDG_DATA_HOME" || name == "XDG_CONFIG_HOME" ||
			name == "PYTHONPATH" || name == "VIRTUAL_ENV" || name == "CONDA_PREFIX" || name == "TMUX" {
			continue
		}
		j.env = append(j.env, kv)
	}
	j.env = append(j.env,
		"HOME="+home,
		"JUPYTER_DATA_DIR="+j.dataDir,
		"JUPYTER_CONFIG_DIR="+filepath.Join(root, "config"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(root, "runtime"),
		"IPYTHONDIR="+filepath.Join(root, "ipython"),
		// The kernel converts its data into a private cache: every test
		// runs on the embedded sample, never on a user's download.
		"SBIR_CACHE_DIR="+filepath.Join(root, "cache"),
		"PYTHONDONTWRITEBYTECODE=1",
		// Debian's debugpy prints a frozen-modules warning on every start.
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
	)
	t.Cleanup(func() { j.checkNoStrayProcesses() })
	return j
}

// buildKernel compiles the package under test into dir.
func buildKernel(t *testing.T, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the kernel for end-to-end tests: %v", err)
	}
	bin := filepath.Join(dir, "sbir-kernel")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", bin, "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// install runs `sbir-kernel install` with args into the private data
// directory and returns its output.
func (j *jupyterEnv) install(args ...string) string {
	j.t.Helper()
	cmd := exec.Command(j.bin, append([]string{"install"}, args...)...)
	cmd.Env = j.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		j.t.Fatalf("sbir-kernel install %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// command prepares a client command in the private environment.
func (j *jupyterEnv) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = j.env
	cmd.Dir = j.root
	// Clients start kernels in their own sessions; make sure a test timeout
	// kills the client's whole process group, not only the client.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// python runs a script from testdata/scripts with the environment's
// interpreter (Debian's python3 unless newVenvJupyterEnv chose another).
func (j *jupyterEnv) python(ctx context.Context, script string, args ...string) (stdout, stderr string, err error) {
	dir, err := filepath.Abs(filepath.Join("testdata", "scripts"))
	if err != nil {
		return "", "", err
	}
	cmd := j.command(ctx, j.pythonExe, append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// kernelProcesses lists the live processes running j.bin (by executable or
// argv[0]): the kernel and its sandbox workers.
func (j *jupyterEnv) kernelProcesses() map[int]string {
	found := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' || stat[i+2] == 'X' {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		argv0, _, _ := bytes.Cut(cmdline, []byte{0})
		if exe == j.bin || string(argv0) == j.bin {
			found[pid] = strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
		}
	}
	return found
}

// checkNoStrayProcesses fails the test if kernel or worker processes of
// this binary outlive it (after a grace period), then kills them.
func (j *jupyterEnv) checkNoStrayProcesses() {
	deadline := time.Now().Add(5 * time.Second)
	var left map[int]string
	for {
		left = j.kernelProcesses()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	j.t.Errorf("stray processes of %s remain 5 s after the test ended (killing them): %v", j.bin, left)
	for pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// lastLines returns the last n lines of s, for failure messages.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
