package e2e

// Shared harness for the end-to-end tests (e2e_*_test.go): they build the
// sbir-kernel binary, install its kernelspec into a private Jupyter data
// directory, and drive real Jupyter clients from Debian's packages.
//
// They run only under SBIR_E2E=1 (what .ci/run sets), and then a missing
// client is a failure that says which package provides it: together they
// take longer than go test's default 10-minute timeout allows a package,
// so the README's `go test work` leaves them to CI (and to developers who
// ask: `SBIR_E2E=1 go test -timeout 30m ./e2e`).

import (
	"bytes"
	"context"
	"flag"
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

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// systemPython is Debian's interpreter, the one the Jupyter packages are
// installed for (the first python3 on PATH may be another one).
const systemPython = "/usr/bin/python3"

// TestMain runs the package's tests only under SBIR_E2E=1.
func TestMain(m *testing.M) {
	if os.Getenv("SBIR_E2E") != "1" {
		fmt.Println("e2e: skipped: the end-to-end tests with real Jupyter clients run under SBIR_E2E=1 (.ci/run sets it; .ci/setup.d installs the clients)")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "sbir-e2e-build-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	flag.Parse()
	if builtKernel, err = buildOnce(dir, testTimeout()); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireClient fails the test, naming the Debian packages that provide
// the missing client.
func requireClient(t *testing.T, missing string, debianPackages string) {
	t.Helper()
	t.Fatalf("SBIR_E2E=1 makes this test mandatory, but %s (install the Debian packages: apt-get install -y --no-install-recommends %s)", missing, debianPackages)
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
		// The client scripts scale their own waits as the tests do.
		testenv.EnvSlow+"="+strconv.FormatFloat(testenv.Slow(), 'g', -1, 64),
		// Debian's debugpy prints a frozen-modules warning on every start.
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
	)
	t.Cleanup(func() { j.checkNoStrayProcesses() })
	return j
}

// builtKernel is the sbir-kernel binary TestMain builds once for the
// package's tests.
var builtKernel string

// testTimeout is the test binary's -timeout (0: none). Go starts that
// alarm only in m.Run, after TestMain's build.
func testTimeout() time.Duration {
	if f := flag.Lookup("test.timeout"); f != nil {
		if d, ok := f.Value.(flag.Getter).Get().(time.Duration); ok {
			return d
		}
	}
	return 0
}

// buildOnce compiles the command under test (CGO_ENABLED=0, as released)
// into dir, for TestMain, within limit (0: none), the test run's own
// time limit: a fixed bound (it was 5 minutes) failed the package when a
// loaded machine built the kernel from a cold cache, as CI's first run
// of a branch does, and a hung build still ends with the run.
func buildOnce(dir string, limit time.Duration) (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("the go command is needed to build the kernel for end-to-end tests: %w", err)
	}
	bin := filepath.Join(dir, "sbir-kernel")
	ctx := context.Background()
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", bin, "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}

// buildKernel copies the binary TestMain built into dir: each test has
// one of its own, so that its kernel and worker processes are told apart
// from other tests' by their executable's path (and a copy takes a
// fraction of a second where a build took seconds of a loaded machine,
// for each of some twenty tests).
func buildKernel(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "sbir-kernel")
	b, err := os.ReadFile(builtKernel)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
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
	grace := testenv.Scale(5 * time.Second)
	deadline := time.Now().Add(grace)
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
	j.t.Errorf("stray processes of %s remain %v after the test ended (killing them): %v", j.bin, grace, left)
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

// cpuTicks sums the CPU time, in clock ticks (10 ms on Linux), that the
// live kernel and worker processes of j.bin have used.
func (j *jupyterEnv) cpuTicks() int64 {
	var total int64
	for pid := range j.kernelProcesses() {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			continue
		}
		// utime and stime are the 12th and 13th fields after the command.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			total += u + s
		}
	}
	return total
}

// waitSpinning waits until the kernel and worker processes have used a
// third of a second of CPU more than base (from cpuTicks): a cell that
// loops is running, not still on its way to the kernel. The wait is an
// event (CPU used), so a loaded machine only makes it longer.
func (j *jupyterEnv) waitSpinning(t *testing.T, base int64) {
	t.Helper()
	deadline := time.Now().Add(testenv.Scale(60 * time.Second))
	for j.cpuTicks()-base < 33 {
		if time.Now().After(deadline) {
			t.Fatalf("the endless cell did not start spinning within %v", testenv.Scale(60*time.Second))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitKernelsIdle waits until every kernel with a connection file in the
// private runtime directory answers kernel_info on its shell channel: a
// kernel answers shell requests in order, so the reply comes once the cell
// it runs has ended.
func (j *jupyterEnv) waitKernelsIdle(t *testing.T, timeout time.Duration) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(j.root, "runtime", "kernel-*.json"))
	if len(files) == 0 {
		t.Fatal("no kernel connection file in the runtime directory")
	}
	const ask = `import sys
from jupyter_client import BlockingKernelClient
kc = BlockingKernelClient(connection_file=sys.argv[1])
kc.load_connection_file()
kc.start_channels()
kc.kernel_info()
kc.get_shell_msg(timeout=float(sys.argv[2]))
kc.stop_channels()
`
	timeout = testenv.Scale(timeout)
	for _, f := range files {
		ctx, cancel := context.WithTimeout(context.Background(), timeout+testenv.Scale(30*time.Second))
		out, err := j.command(ctx, systemPython, "-c", ask, f, strconv.FormatFloat(timeout.Seconds(), 'f', 1, 64)).CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("the kernel of %s did not answer kernel_info within %v: %v\n%s", filepath.Base(f), timeout, err, lastLines(string(out), 10))
		}
	}
}
