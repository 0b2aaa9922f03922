package sandbox

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// workerEnv is the worker's whole environment: nothing of the
// supervisor's (secrets, paths) is inherited.
var workerEnv = []string{"GOTRACEBACK=single"}

// workerNproc is the process and thread limit of the nobody uid workers
// run as.
const workerNproc = 512

// responsePipeBytes is the buffer asked for the pipe the worker writes
// to: one of the worker's output frames (at most 256 KiB), so that a
// cell's large write crosses without the two processes taking turns every
// 64 KiB (a pipe's default). 1 MiB measured no faster through
// jupyter_client, and pipe buffers count against a user's
// fs.pipe-user-pages-soft (64 MiB by default, past which every new pipe of
// the user gets one page): 256 KiB lets 256 workers of one user run
// before that.
const responsePipeBytes = 256 << 10

// readyTimeout bounds a worker's start.
const readyTimeout = 15 * time.Second

// proc is one running worker process seen from the supervisor.
type proc struct {
	cmd     *exec.Cmd
	c       *wire.Conn
	msgs    chan *wire.Message // frames from the worker; closed when its pipe ends
	exited  chan struct{}      // closed after the process was reaped
	waitErr error
	stderr  *tailBuffer
	layers  []Layer
	columns []string

	lastID     atomic.Uint64 // the number of the latest request
	cpuSeconds int           // the worker's RLIMIT_CPU

	logger *slog.Logger // the session's; logs the output of a worker that crashed

	mu       sync.Mutex
	killedBy string        // "timeout" or "interrupt" when the supervisor killed it
	fatal    *wire.Message // the worker's last words (heap watchdog)
}

// startProc starts a worker and waits until it is ready. pkgDir, when not
// empty, is the package environment the worker may read (GOPATH layout).
// opts.Isolation must be set (NewSession detects it once).
func startProc(ctx context.Context, opts Options, pkgDir string) (*proc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: finding the executable to start as the worker: %w", err)
	}
	files, err := openWorkerFiles(opts.DataPath, pkgDir)
	if err != nil {
		return nil, err
	}
	defer files.close()
	p, err := spawnRetrying(ctx, opts, exe, files.extra())
	if err != nil {
		return nil, err
	}
	p.logger = opts.Logger
	cfg := workerConfig(opts, files, pkgDir)
	p.cpuSeconds = wire.CPUSeconds
	if cfg.CPUSeconds > 0 {
		p.cpuSeconds = cfg.CPUSeconds
	}
	if err := p.c.Send(&wire.Message{Op: wire.OpConfig, Config: cfg}); err != nil {
		p.kill("")
		return nil, fmt.Errorf("sandbox: configuring the worker: %w%s", err, p.stderrHint())
	}
	ready, err := p.awaitReady(ctx)
	if err != nil {
		return nil, err
	}
	if ready.Err != "" {
		p.kill("")
		return nil, fmt.Errorf("sandbox: the worker could not start: %s", readyError(ready.Err, cfg, opts.DataPath, runsAsNobody(*opts.Isolation)))
	}
	p.columns = ready.Columns
	p.layers = append(supervisorLayers(*opts.Isolation), layersFrom(ready.Layers)...)
	return p, nil
}

// workerFiles are the files the supervisor opens for a worker, which the
// worker receives as descriptors and never by path.
type workerFiles struct {
	data, pkgs *os.File
	dataSize   int64
}

// openWorkerFiles opens the data file (when dataPath is not empty) and the
// package environment's directory (when pkgDir is not empty).
func openWorkerFiles(dataPath, pkgDir string) (*workerFiles, error) {
	f := &workerFiles{}
	if dataPath != "" {
		var err error
		if f.data, f.dataSize, err = openData(dataPath); err != nil {
			return nil, err
		}
	}
	if pkgDir != "" {
		var err error
		if f.pkgs, err = os.Open(pkgDir); err != nil {
			f.close()
			return nil, fmt.Errorf("sandbox: opening the package environment for the worker: %w", err)
		}
	}
	return f, nil
}

// openData opens the Arrow file a worker maps and returns its size.
func openData(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("sandbox: opening the data for the worker: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("sandbox: opening the data for the worker: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		// The worker would fail to open its descriptor of it, with an
		// error (permission denied, for a directory) about the wrong
		// thing.
		return nil, 0, fmt.Errorf("sandbox: the data %s is a %s, not an Arrow file: give the path of the Arrow file", path, fileKind(fi.Mode()))
	}
	return f, fi.Size(), nil
}

// extra returns the worker's fixed descriptors from wire.DataFD on: the
// data, then the packages (a nil entry leaves the descriptor closed in
// the worker).
func (f *workerFiles) extra() []*os.File {
	switch {
	case f.pkgs != nil:
		return []*os.File{f.data, f.pkgs}
	case f.data != nil:
		return []*os.File{f.data}
	}
	return nil
}

// close closes the supervisor's copies once the worker has its own.
func (f *workerFiles) close() {
	if f.data != nil {
		f.data.Close()
	}
	if f.pkgs != nil {
		f.pkgs.Close()
	}
}

// spawnRetrying starts the worker process. A start can fail for reasons
// of the moment (no descriptors, a fork refused under load): it is
// retried, but never with weaker isolation than the host supports, which
// was decided at start-up.
func spawnRetrying(ctx context.Context, opts Options, exe string, extra []*os.File) (*proc, error) {
	var p *proc
	var err error
	for attempt := 1; ; attempt++ {
		if opts.spawnFault != nil {
			err = opts.spawnFault(attempt)
		}
		if err == nil {
			p, err = spawn(exe, extra, opts.Isolation.Namespaces)
		}
		if err == nil || attempt == spawnAttempts || ctx.Err() != nil {
			break
		}
		opts.Logger.Warn("sandbox: starting the worker failed; retrying with the same isolation", "attempt", attempt, "err", err)
		time.Sleep(time.Duration(attempt) * 20 * time.Millisecond)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: starting the worker (%d attempts): %w", spawnAttempts, err)
	}
	return p, nil
}

// workerConfig is the first message a worker started with files receives.
func workerConfig(opts Options, files *workerFiles, pkgDir string) *wire.Config {
	cfg := &wire.Config{
		HeapBytes:      opts.Limits.HeapBytes,
		MaxOutputBytes: opts.Limits.MaxOutputBytes,
		Isolate:        true,
		DataSize:       files.dataSize,
		CPUSeconds:     opts.testCPUSeconds,
		KillGrace:      opts.Limits.KillGrace,
	}
	if runsAsNobody(*opts.Isolation) {
		cfg.Nproc = workerNproc
	}
	if files.data != nil {
		cfg.DataPath = inheritedPath(wire.DataFD, opts.DataPath)
	}
	if files.pkgs != nil {
		cfg.PackagesDir = inheritedPath(wire.PackagesFD, pkgDir)
	}
	return cfg
}

// runsAsNobody reports whether workers run as the host's nobody: a root
// supervisor with namespaces maps the worker's uid to it.
func runsAsNobody(iso Isolation) bool { return iso.Namespaces && os.Geteuid() == 0 }

// awaitReady waits for the worker's ready message.
func (p *proc) awaitReady(ctx context.Context) (*wire.Ready, error) {
	timer := time.NewTimer(readyTimeout)
	defer timer.Stop()
	select {
	case m, ok := <-p.msgs:
		if !ok {
			p.kill("")
			<-p.exited
			return nil, fmt.Errorf("sandbox: the worker exited while starting (%v)%s", p.waitErr, p.stderrHint())
		}
		if m.Op != wire.OpReady || m.Ready == nil {
			p.kill("")
			return nil, fmt.Errorf("sandbox: the worker sent %q instead of ready", m.Op)
		}
		return m.Ready, nil
	case <-timer.C:
		p.kill("")
		return nil, fmt.Errorf("sandbox: the worker was not ready after %v%s", readyTimeout, p.stderrHint())
	case <-ctx.Done():
		p.kill("")
		return nil, ctx.Err()
	}
}

// readyError words a worker's start-up failure for the supervisor's user:
// the worker knows the data file only by its descriptor's path.
func readyError(msg string, cfg *wire.Config, dataPath string, asNobody bool) string {
	if cfg.DataPath == "" || cfg.DataPath == dataPath {
		return msg
	}
	msg = strings.ReplaceAll(msg, cfg.DataPath, dataPath)
	if asNobody && strings.Contains(msg, dataPath+": permission denied") {
		// The supervisor could open it: the worker's user cannot.
		msg += " (the worker runs as host uid 65534, nobody, and opens the file itself: it must be readable by others, chmod o+r)"
	}
	return msg
}

// supervisorLayers are the layers the supervisor applies when it starts
// the worker.
func supervisorLayers(iso Isolation) []Layer {
	layers := []Layer{
		{Name: "worker-process", Active: true, Detail: "cells run in a separate process with an empty environment and its own process group; its death never ends the kernel"},
		{Name: "pdeathsig", Active: runtime.GOOS == "linux", Detail: "the worker is killed when the kernel exits"},
	}
	l := Layer{Name: "namespaces", Active: iso.Namespaces, Detail: iso.Reason}
	if iso.Namespaces {
		l.Detail = namespaceDetail()
	}
	return append(layers, l)
}

// spawn starts the worker process from a goroutine locked to its OS
// thread: Pdeathsig fires when the thread that started the child exits,
// so that thread must live exactly as long as the worker. extra become the
// worker's descriptors 5 and up.
func spawn(exe string, extra []*os.File, withNamespaces bool) (*proc, error) {
	reqR, reqW, err := blockingPipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := blockingPipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	growPipe(respW, responsePipeBytes)
	p := &proc{
		msgs:   make(chan *wire.Message, 256),
		exited: make(chan struct{}),
		stderr: newTailBuffer(4<<10, 8<<10),
	}
	// /proc/self/exe rather than the path: the worker may run as a uid
	// that cannot walk to the binary (a test binary in a private build
	// directory, a binary under /root), but the magic link needs no
	// directory permissions.
	cmd := exec.Command(exe, wire.WorkerArg)
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		cmd.Path = "/proc/self/exe"
	}
	cmd.Env = workerEnv
	cmd.Dir = "/"
	cmd.Stdout = p.stderr
	cmd.Stderr = p.stderr
	cmd.ExtraFiles = append([]*os.File{reqR, respW}, extra...)
	cmd.SysProcAttr = procAttr(withNamespaces)
	p.cmd = cmd
	err = startLocked(cmd, p.exited, &p.waitErr)
	reqR.Close()
	respW.Close()
	if err != nil {
		reqW.Close()
		respR.Close()
		return nil, err
	}
	p.c = wire.NewConn(respR, reqW)
	go func() {
		defer close(p.msgs)
		defer respR.Close()
		for {
			m, err := p.c.Recv()
			if err != nil {
				return
			}
			if m.Op == wire.OpFatal {
				p.mu.Lock()
				p.fatal = m
				p.mu.Unlock()
				continue
			}
			p.msgs <- m
		}
	}()
	return p, nil
}

// startLocked starts cmd from a goroutine locked to its OS thread, which
// then waits for it: Pdeathsig fires when the thread that started the
// child exits, so that thread must live exactly as long as the child.
// exited is closed once the child was reaped (or did not start), with
// *waitErr set.
func startLocked(cmd *exec.Cmd, exited chan struct{}, waitErr *error) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// Never unlocked: the thread ends with this goroutine, after
		// the child.
		if err := cmd.Start(); err != nil {
			started <- err
			close(exited)
			return
		}
		started <- nil
		*waitErr = cmd.Wait()
		close(exited)
	}()
	return <-started
}

// kill ends the worker; reason records why for the error message.
func (p *proc) kill(reason string) {
	p.mu.Lock()
	if p.killedBy == "" {
		p.killedBy = reason
	}
	p.mu.Unlock()
	if p.cmd.Process != nil {
		// The worker leads its process group; with a pid namespace it is
		// its init, and its death ends everything inside.
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		_ = p.cmd.Process.Kill()
	}
}

// request numbers m and sends it; the reply carries the same number.
func (p *proc) request(m *wire.Message) (id uint64, err error) {
	m.ID = p.lastID.Add(1)
	return m.ID, p.c.Send(m)
}

// isReply reports whether m answers request id (a late answer to a request
// that timed out has an older number and is dropped).
func isReply(m *wire.Message, op string, id uint64) bool { return m.Op == op && m.ID == id }

// close asks the worker to exit (end of its request pipe) and kills it if
// it has not after grace.
func (p *proc) close(grace time.Duration) {
	p.c.Close()
	select {
	case <-p.exited:
	case <-time.After(grace):
		p.kill("")
		<-p.exited
	}
}

// stderrHint returns what error messages say of the worker's own error
// output (stderrSummary); the whole of it goes to the log at debug level.
func (p *proc) stderrHint() string {
	out := p.stderr.String()
	s := stderrSummary(out)
	if s == "" {
		return ""
	}
	if p.logger != nil {
		p.logger.Debug("sandbox: the output of a worker that failed", "pid", p.cmd.Process.Pid, "output", strings.TrimSpace(out))
	}
	return ": " + s
}

// stderrSummary is what a user is told of a worker's error output: its
// panic or fatal error line, else its last lines before any goroutine
// dump. Never a Go stack trace: they name the build's source paths and
// mean nothing to a user.
func stderrSummary(out string) string {
	s := firstLine(out, "panic:")
	if s == "" {
		s = firstLine(out, "fatal error:")
	}
	if s == "" {
		t := strings.TrimSpace(out)
		if i := strings.Index(t, "\ngoroutine "); i >= 0 {
			t = strings.TrimSpace(t[:i])
		}
		s = lastLines(t, 5)
	}
	return s
}

// memoryError is the message of a MemoryError: the session's heap limit
// and what the cell had taken when one of the limit's two guards stopped
// it. The heap watchdog says how large the heap grew (its last words,
// fatal); the address-space limit makes the runtime refuse an allocation,
// and the runtime says how much it asked for (out). The worker's resident
// memory is not what the limit counts: a large slice the cell never wrote
// to is heap but was never resident, and a worker that "peaked at 37.9 MB"
// beside a 256 MiB limit it passed reads as a contradiction.
func memoryError(heapBytes int64, fatal *wire.Message, out string) string {
	msg := "cell exceeded the " + bytesize.Exact(heapBytes) + " heap limit"
	if fatal != nil && fatal.Name == wire.ClassMemoryError && fatal.Text != "" {
		return msg + ": " + fatal.Text
	}
	var ask, inUse int64
	line := firstLine(out, "runtime: out of memory: cannot allocate")
	if _, err := fmt.Sscanf(line, "runtime: out of memory: cannot allocate %d-byte block (%d in use)", &ask, &inUse); err == nil {
		return fmt.Sprintf("%s: an allocation that needed %s more heap was refused, with %s in use already", msg, bytesize.ApproxIEC(ask), bytesize.ApproxIEC(inUse))
	}
	if strings.Contains(out, "out of memory") || strings.Contains(out, "cannot allocate memory") {
		return msg + ": an allocation was refused"
	}
	return msg
}

// death explains why a worker died, for a cell's result.
func (p *proc) death(l Limits) (name, msg string) {
	<-p.exited
	p.mu.Lock()
	killedBy, fatal := p.killedBy, p.fatal
	p.mu.Unlock()
	out := p.stderr.String()
	var ws syscall.WaitStatus
	if p.cmd.ProcessState != nil {
		ws, _ = p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	}
	switch {
	case killedBy == "timeout":
		return wire.ClassTimeout, fmt.Sprintf("the cell exceeded the %v time limit and did not stop within %v of the interrupt, so its worker was killed", l.CellTimeout, l.KillGrace)
	case killedBy == "interrupt":
		return wire.ClassInterrupted, fmt.Sprintf("the cell did not stop within %v of the interrupt, so its worker was killed", l.KillGrace)
	case fatal != nil && fatal.Name == wire.ClassMemoryError, ws.Exited() && ws.ExitStatus() == wire.ExitHeapLimit:
		return wire.ClassMemoryError, memoryError(l.HeapBytes, fatal, out)
	case strings.Contains(out, "stack overflow") || strings.Contains(out, "stack exceeds"):
		return wire.ClassStackOverflow, fmt.Sprintf("the cell recursed too deeply (a goroutine stack exceeded %s); check the recursion's base case", bytesize.Exact(wire.MaxStackBytes))
	case strings.Contains(out, "out of memory") || strings.Contains(out, "cannot allocate memory"):
		return wire.ClassMemoryError, memoryError(l.HeapBytes, nil, out)
	case strings.Contains(out, "concurrent map"):
		return wire.ClassWorkerCrashed, "the worker crashed: " + firstLine(out, "fatal error:")
	case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
		return wire.ClassWorkerCrashed, fmt.Sprintf("the worker was killed by SIGKILL (its %ds CPU-time limit, or the host's out-of-memory killer)", p.cpuSeconds)
	case ws.Signaled():
		return wire.ClassWorkerCrashed, "the worker was killed by " + ws.Signal().String()
	}
	detail := stderrSummary(out)
	if !strings.HasPrefix(detail, "panic:") && !strings.HasPrefix(detail, "fatal error:") {
		detail = strings.TrimSuffix(fmt.Sprintf("exit status %d: %s", ws.ExitStatus(), detail), ": ")
	}
	if t := strings.TrimSpace(out); t != "" && p.logger != nil {
		p.logger.Debug("sandbox: the output of a worker that crashed", "pid", p.cmd.Process.Pid, "output", t)
	}
	return wire.ClassWorkerCrashed, "the worker crashed: " + detail
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// firstLine returns the first line of s that starts with prefix.
func firstLine(s, prefix string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), prefix) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// tailBuffer keeps the head and the tail of what is written to it.
type tailBuffer struct {
	mu         sync.Mutex
	head, tail []byte
	headMax    int
	tailMax    int
	dropped    bool
}

func newTailBuffer(headMax, tailMax int) *tailBuffer {
	return &tailBuffer{headMax: headMax, tailMax: tailMax}
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	if room := b.headMax - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		b.tail = append(b.tail, p...)
		if over := len(b.tail) - b.tailMax; over > 0 {
			b.tail = append(b.tail[:0], b.tail[over:]...)
			b.dropped = true
		}
	}
	return n, nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped {
		return string(b.head) + "\n...\n" + string(b.tail)
	}
	return string(b.head) + string(b.tail)
}

// fileKind names what a non-regular file is, for errors.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeSocket != 0:
		return "socket"
	default:
		return "special file"
	}
}
