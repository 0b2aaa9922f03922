package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/outcap"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// A compiled cell's program runs in a process of its own. The supervisor
// starts this binary as a launcher (wire.LaunchArg) in the worker's
// namespaces while the program is being built; the launcher applies the
// worker's in-process layers (rlimits, Landlock, seccomp), reports them
// and waits. Once the build is done, the supervisor copies the program
// into the launcher's memfd, seals it, and tells the launcher to execute
// it (wire.OpExec); the program's runtime (package cellrt) reads its
// configuration, maps the data from its descriptor and runs the cell. The
// supervisor relays its output, displays and end, enforces the output
// caps, kills it at the cell's time limit or an interrupt, and explains
// how it ended.

// programRun is a compiled cell's process seen from the supervisor.
type programRun struct {
	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
	config  *wire.Conn // the request pipe: the launcher's and the program's configurations
	crash   *tailBuffer
	// killedBy is "timeout" or "interrupt" when the supervisor killed it.
	killedBy string
}

// programFiles are the descriptors a launcher inherits, and the
// supervisor's ends of its pipes and of its program's memfd.
type programFiles struct {
	child                          []*os.File // closed in the supervisor once the child has them
	exe                            *os.File   // the memfd, until the supervisor has filled and sealed it
	reqW                           *os.File
	stdout, stderr, replies, crash *os.File
}

// close closes the supervisor's copies of the child's descriptors.
func (f *programFiles) closeChild() {
	for _, c := range f.child {
		if c != nil {
			c.Close()
		}
	}
	f.child = nil
}

// openProgramFiles opens what a launcher inherits: the memfd of its
// program (empty yet), the data when the program uses it, /dev/null as
// standard input, and the pipes.
func (s *Session) openProgramFiles(usesData bool) (*programFiles, *os.File, []*os.File, error) {
	f := &programFiles{}
	fail := func(err error) (*programFiles, *os.File, []*os.File, error) {
		f.closeChild()
		for _, p := range []*os.File{f.exe, f.reqW, f.stdout, f.stderr, f.replies, f.crash} {
			if p != nil {
				p.Close()
			}
		}
		return nil, nil, nil, err
	}
	exe, err := programMemfd()
	if err != nil {
		return fail(err)
	}
	f.exe = exe
	var data *os.File
	if usesData && s.opts.DataPath != "" {
		if data, _, err = openData(s.opts.DataPath); err != nil {
			return fail(err)
		}
		f.child = append(f.child, data)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return fail(err)
	}
	f.child = append(f.child, null)
	pipe := func(read **os.File) (*os.File, error) {
		r, w, err := blockingPipe()
		if err != nil {
			return nil, err
		}
		*read = r
		f.child = append(f.child, w)
		return w, nil
	}
	var reqR, repW, outW, errW, crashW *os.File
	if reqR, f.reqW, err = blockingPipe(); err != nil {
		return fail(err)
	}
	f.child = append(f.child, reqR)
	for _, p := range []struct {
		read  **os.File
		write **os.File
	}{{&f.replies, &repW}, {&f.stdout, &outW}, {&f.stderr, &errW}, {&f.crash, &crashW}} {
		if *p.write, err = pipe(p.read); err != nil {
			return fail(err)
		}
	}
	growPipe(outW, responsePipeBytes)
	growPipe(repW, responsePipeBytes)
	// fd 3, 4, 5, 6, 7: see wire.LaunchArg.
	extra := []*os.File{reqR, repW, data, errW, exe}
	return f, null, append([]*os.File{outW, crashW}, extra...), nil
}

// startProgram starts a launcher and sends its configuration; the
// program it will execute is put in files.exe later (runLaunched).
func (s *Session) startProgram(usesData bool) (*programRun, *programFiles, error) {
	files, stdin, fds, err := s.openProgramFiles(usesData)
	if err != nil {
		return nil, nil, err
	}
	self, err := os.Executable()
	if err != nil {
		files.closeChild()
		files.exe.Close()
		return nil, nil, err
	}
	cmd := exec.Command(self, wire.LaunchArg)
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		cmd.Path = "/proc/self/exe"
	}
	cmd.Env = workerEnv
	cmd.Dir = "/"
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, fds[0], fds[1]
	cmd.ExtraFiles = fds[2:]
	cmd.SysProcAttr = procAttr(s.opts.Isolation.Namespaces)
	r := &programRun{cmd: cmd, exited: make(chan struct{}), crash: newTailBuffer(64<<10, 16<<10)}
	err = startLocked(cmd, r.exited, &r.waitErr)
	files.closeChild()
	if err != nil {
		files.reqW.Close()
		files.exe.Close()
		return nil, nil, fmt.Errorf("starting the compiled cell: %w", err)
	}
	r.config = wire.NewConn(strings.NewReader(""), files.reqW)
	if err := r.config.Send(&wire.Message{Op: wire.OpConfig, Config: s.launchConfig(usesData)}); err != nil {
		r.kill("")
	}
	return r, files, nil
}

// launchConfig is the launcher's configuration: the worker's limits, the
// CPU time of one cell on every core.
func (s *Session) launchConfig(usesData bool) *wire.Config {
	l := s.opts.Limits
	cfg := &wire.Config{HeapBytes: l.HeapBytes, MaxOutputBytes: l.MaxOutputBytes, Isolate: true,
		CPUSeconds: int(l.CellTimeout.Seconds()+1)*max(1, numCPU()) + 5}
	if s.opts.testCPUSeconds > 0 {
		cfg.CPUSeconds = s.opts.testCPUSeconds
	}
	if st, err := os.Stat(s.opts.DataPath); err == nil && usesData && s.opts.DataPath != "" {
		cfg.DataSize = st.Size()
	}
	if runsAsNobody(*s.opts.Isolation) {
		cfg.Nproc = workerNproc
	}
	return cfg
}

// programConfig is what the program's runtime is told before the cell's
// code runs.
func (s *Session) programConfig(h *Handlers) *wire.ProgramConfig {
	cfg := &wire.ProgramConfig{HeapBytes: s.opts.Limits.HeapBytes, Zone: s.opts.Compiler.zone}
	if h != nil && h.Rows != (RowWindow{}) {
		cfg.Rows = &wire.RowWindow{Offset: h.Rows.Offset, Limit: h.Rows.Limit}
	}
	return cfg
}

// kill ends the program (its process group; with a pid namespace it is
// the namespace's init, whose death ends everything in it).
func (r *programRun) kill(reason string) {
	if r.killedBy == "" {
		r.killedBy = reason
	}
	if r.cmd.Process != nil {
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		_ = r.cmd.Process.Kill()
	}
}

// A launched is a launcher started ahead of its program's build, with the
// relay of its pipes running.
type launched struct {
	r     *programRun
	files *programFiles
	evs   chan progEvent
}

// launch starts a launcher for a program that is not built yet (usesData:
// cellprep.Program.UsesData), so that its start and its isolation layers
// overlap the build; runLaunched then runs the program in it, or abandon
// ends it.
func (s *Session) launch(usesData bool) (*launched, error) {
	r, files, err := s.startProgram(usesData)
	if err != nil {
		return nil, err
	}
	l := &launched{r: r, files: files, evs: make(chan progEvent, 64)}
	go relay(files, r.crash, l.evs)
	return l, nil
}

// abandon ends a launcher whose program will not run (its build failed or
// was interrupted) and waits for it.
func (l *launched) abandon() {
	l.r.kill("")
	l.files.exe.Close()
	_ = l.r.config.Close()
	for range l.evs {
	}
	<-l.r.exited
}

// runProgram runs the compiled cell bin and returns its result; usesData
// passes it the data (cellprep.Program.UsesData).
func (s *Session) runProgram(ctx context.Context, bin string, usesData bool, h *Handlers) *Result {
	l, err := s.launch(usesData)
	if err != nil {
		return failed(wire.ClassSandboxError, err.Error())
	}
	return s.runLaunched(ctx, l, bin, h)
}

// runLaunched puts the program bin into the launcher's memfd, seals it,
// lets the launcher execute it once it has reported its layers, and
// returns the cell's result.
func (s *Session) runLaunched(ctx context.Context, l *launched, bin string, h *Handlers) *Result {
	err := fillSealed(l.files.exe, bin)
	l.files.exe.Close()
	if err != nil {
		l.abandon()
		return failed(wire.ClassSandboxError, err.Error())
	}
	r := l.r
	rel := newRelayed(s.opts.Limits, h)
	timeout := time.NewTimer(s.opts.Limits.CellTimeout)
	defer timeout.Stop()
	done := ctx.Done()
	var end, fatal *wire.Message
	for ev := range withStops(l.evs, done, timeout.C, r) {
		switch {
		case ev.msg == nil:
			rel.text(ev.name, ev.text)
		case ev.msg.Op == wire.OpReady:
			if msg := s.admitLaunch(ev.msg.Ready); msg != "" {
				r.kill("isolation")
				rel.fail = failed(wire.ClassSandboxError, msg)
				continue
			}
			// The launcher executes the program, which reads its
			// configuration next from the same pipe.
			_ = r.config.Send(&wire.Message{Op: wire.OpExec})
			_ = r.config.Send(&wire.Message{Op: wire.OpConfig, Program: s.programConfig(h)})
			_ = r.config.Close()
		case ev.msg.Op == wire.OpResult:
			end = ev.msg
		case ev.msg.Op == wire.OpFatal:
			fatal = ev.msg
		default:
			rel.message(ev.msg)
		}
	}
	_ = r.config.Close()
	<-r.exited
	return rel.finish(r.outcome(end, fatal, s.opts.Limits))
}

// withStops forwards evs until it closes, killing the program on the
// first of done (an interrupt) and timeout; the events of a killed
// program are still drained (its pipes end with it).
func withStops(evs <-chan progEvent, done <-chan struct{}, timeout <-chan time.Time, r *programRun) <-chan progEvent {
	out := make(chan progEvent)
	go func() {
		defer close(out)
		for {
			select {
			case ev, ok := <-evs:
				if !ok {
					return
				}
				out <- ev
			case <-done:
				done = nil
				r.kill("interrupt")
			case <-timeout:
				timeout = nil
				r.kill("timeout")
			}
		}
	}()
	return out
}

// admitLaunch checks the layers the launcher applied; it returns why the
// cell must not run, or "".
func (s *Session) admitLaunch(ready *wire.Ready) string {
	if ready == nil || !s.opts.RequireIsolation {
		return ""
	}
	layers := append(supervisorLayers(*s.opts.Isolation), layersFrom(ready.Layers)...)
	if missing := inactive(layers); len(missing) > 0 {
		return fmt.Sprintf("--require-isolation: these isolation layers are not active for compiled cells on this host: %s", strings.Join(missing, "; "))
	}
	return ""
}

// relayed is what the supervisor passes on of a compiled cell: its output
// under the caps, its displays, and what it collects for the Result.
type relayed struct {
	h              *Handlers
	budget         outcap.Budget
	stdout, stderr strings.Builder
	fail           *Result // set when the supervisor stopped the cell itself
}

func newRelayed(l Limits, h *Handlers) *relayed {
	if h == nil {
		h = &Handlers{}
	}
	return &relayed{h: h, budget: outcap.Budget{Limit: l.MaxOutputBytes}}
}

// text passes on output of stream name, within the cap.
func (r *relayed) text(name string, p []byte) {
	r.emit(name, string(r.budget.Text(name, p)))
}

func (r *relayed) emit(name, text string) {
	if text == "" {
		return
	}
	if r.h.Stream != nil {
		r.h.Stream(name, text)
		if r.h.StreamOnly {
			return
		}
	}
	if name == "stderr" {
		r.stderr.WriteString(text)
	} else {
		r.stdout.WriteString(text)
	}
}

// message passes on a display or a clear, within the display budget.
func (r *relayed) message(m *wire.Message) {
	switch {
	case m.Op == wire.OpClear:
		if r.budget.Display(outcap.DisplayOverhead) && r.h.Clear != nil {
			r.h.Clear(m.Wait)
		}
	case m.Op == wire.OpDisplay && m.Display != nil:
		d := m.Display
		size := outcap.DisplayOverhead + len(d.DisplayID) + jsonSize(d.Data) + jsonSize(d.Metadata)
		if r.budget.Display(size) && r.h.Display != nil {
			r.h.Display(displayFrom(d))
		}
	}
}

func jsonSize(v map[string]any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// finish adds the program's own standard error output (the builtin print
// and println write there), the notes of what the caps dropped, and the
// collected streams to res.
func (r *relayed) finish(res *Result, before string) *Result {
	if r.fail != nil {
		res = r.fail
	}
	r.text("stderr", []byte(before))
	notes, truncated := r.budget.Notes()
	for _, n := range notes {
		r.emit(n.Stream, n.Text)
	}
	res.Truncated = res.Truncated || truncated
	res.Stdout, res.Stderr = r.stdout.String(), r.stderr.String()
	return res
}
