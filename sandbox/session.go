package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// Options configures a Session.
type Options struct {
	// Limits bounds each cell; the zero value means DefaultLimits.
	Limits Limits
	// DataPath is the Arrow file the worker maps read-only
	// (dataset.Source.ArrowPath). Empty runs without data: award_data
	// then reports that nothing is loaded.
	DataPath string
	// RequireIsolation makes NewSession fail unless every isolation layer
	// is active on this host.
	RequireIsolation bool
	// Logger receives the supervisor's own logs; nil discards them.
	Logger *slog.Logger
	// Packages configures the third-party modules cells declare with
	// //sbir:require (see package pkgenv). Packages.AllowInstall is the
	// trust gate: without it only environments already in the cache can
	// be used. Packages.Dir is the package cache (the program keeps it
	// beside its data cache); empty, a declaration fails saying so. A nil
	// Preflight means the sandbox's own (a worker isolated like a cell's
	// loads each package); Progress is set per cell (the cell's stderr).
	Packages pkgenv.Options
	// Isolation is what the host allows, as DetectIsolation found it. A
	// program that starts many sessions detects it once and shares it;
	// nil means NewSession detects it.
	Isolation *Isolation
	// Compiler builds the cells that run compiled (whole programs, and
	// cells marked with CompileDirective); nil runs every cell
	// interpreted, and CompileOff then says why (for the note a cell
	// that asked to be compiled gets).
	Compiler   *Compiler
	CompileOff string
	// DeferStart makes NewSession return without starting the worker:
	// the first cell the interpreter runs starts it (or the first
	// completion or inspection). A session whose cells all run compiled
	// (`run` of a whole program) never starts one; RequireIsolation is
	// then checked for each compiled cell's launcher, and for the worker
	// when it starts.
	DeferStart bool

	// spawnFault, set by tests, fails a worker start attempt (1, 2, ...)
	// before it is made.
	spawnFault func(attempt int) error
	// testPreflightTimeout, set by tests, shortens the pre-flight limit.
	testPreflightTimeout time.Duration
	// testCPUSeconds, set by tests, lowers the worker's CPU-time limit.
	testCPUSeconds int
}

// A Session is one interpreter's state across cells, in its own worker
// process. Its methods may be called from several goroutines; they are
// serialised.
type Session struct {
	opts Options

	mu     sync.Mutex
	p      *proc
	st     *cellprep.State
	layers []Layer
	closed bool

	// builds is the session's build budget account (made at its first
	// compiled cell when the compiler sets a budget).
	builds *buildAccount
	// deferred is set until the first worker of a DeferStart session
	// starts: that start keeps what compiled cells declared.
	deferred bool

	// env is the package environment of the session's requirement set
	// reqs (nil and empty when no cell declared packages). ranCode is set
	// once the current worker ran a cell: its packages are then fixed.
	env     *pkgenv.Env
	reqs    []pkgenv.Requirement
	ranCode bool
}

// NewSession starts a worker and returns when it is ready to run cells.
func NewSession(ctx context.Context, opts Options) (*Session, error) {
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits()
	}
	if err := opts.Limits.validate(); err != nil {
		return nil, err
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Isolation == nil {
		iso := DetectIsolation()
		opts.Isolation = &iso
	}
	s := &Session{opts: opts, st: cellprep.NewState()}
	if opts.DeferStart {
		s.deferred = true
		s.st.SetImports(s.imports())
		return s, nil
	}
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// start replaces the worker; the caller holds s.mu (or owns s).
func (s *Session) start(ctx context.Context) error {
	t0 := time.Now()
	pkgDir := ""
	if s.env != nil {
		pkgDir = s.env.Dir
	}
	p, err := startProc(ctx, s.opts, pkgDir)
	if err != nil {
		return err
	}
	if err := requireIsolation(p, s.opts); err != nil {
		return err
	}
	s.p, s.layers, s.ranCode = p, p.layers, false
	if !s.deferred {
		// A new worker knows nothing of the old one's cells.
		s.st = cellprep.NewState()
	}
	s.deferred = false
	s.st.SetImports(s.imports())
	s.opts.Logger.Debug("sandbox worker ready", "pid", p.cmd.Process.Pid, "elapsed", time.Since(t0))
	return nil
}

// Layers reports the isolation layers of the current worker.
func (s *Session) Layers() []Layer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Layer(nil), s.layers...)
}

// Run runs one cell. Output reaches h while the cell runs. Cancelling ctx
// interrupts the cell. A cell error is reported in the Result, not as an
// error; Run returns an error only when the session cannot run cells at
// all (closed, or no worker can be started).
func (s *Session) Run(ctx context.Context, code string, h *Handlers) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if h == nil {
		h = &Handlers{}
	}
	if w := h.Rows; w.Offset < 0 || w.Limit < 0 || w.Limit > MaxRowWindow {
		return nil, fmt.Errorf("sandbox: Handlers.Rows %+v: give an Offset of 0 or more and a Limit from 0 to %d", w, MaxRowWindow)
	}
	l := s.opts.Limits
	if len(code) > l.MaxCodeBytes {
		return failed(wire.ClassCodeTooLarge, fmt.Sprintf("the cell is %d bytes; the limit is %s — move data into award_data queries or split the cell", len(code), bytesize.Exact(int64(l.MaxCodeBytes)))), nil
	}
	if expr, detail, ok := cellprep.HelpQuery(code); ok {
		return s.help(ctx, expr, detail)
	}
	reqs, derrs := pkgenv.ParseRequirements(code)
	if len(derrs) > 0 {
		return failed(wire.ClassSyntaxError, directiveErrors(derrs)), nil
	}
	// What declaring packages wrote to the cell's stderr (install
	// progress, warnings) leads the Result's Stderr.
	var pre strings.Builder
	if len(reqs) > 0 {
		// A cell that does not parse fails before anything is installed.
		// (The rest of prepare's checks need the environment: they run
		// after declare.)
		if _, err := cellprep.Prepare(code, s.st); err != nil {
			var se cellprep.SyntaxError
			if errors.As(err, &se) {
				return failed(wire.ClassSyntaxError, se.Error()), nil
			}
		}
		res, err := s.declare(ctx, reqs, h, &pre)
		if err != nil {
			return nil, err
		}
		if res != nil {
			res.Stderr = pre.String()
			return res, nil
		}
	}
	prep, err := cellprep.Prepare(code, s.st)
	if err != nil {
		var ce *cellprep.CheckError
		var se cellprep.SyntaxError
		res := failed(wire.ClassSyntaxError, err.Error())
		switch {
		case errors.As(err, &ce):
			res = failed(wire.ClassNotAllowed, ce.Error())
		case errors.As(err, &se):
			res = failed(wire.ClassSyntaxError, se.Error())
		}
		res.Stderr = pre.String()
		return res, nil
	}
	res, note, done := s.compiled(ctx, code, prep, h)
	pre.WriteString(note)
	if done {
		res.Stderr = pre.String() + res.Stderr
		return res, nil
	}
	if ce := prep.InterpreterOnly; ce != nil {
		res := failed(wire.ClassNotAllowed, ce.Error())
		res.Stderr = pre.String()
		return res, nil
	}
	if len(prep.Chunks) == 0 {
		return &Result{Success: true, Stderr: pre.String()}, nil
	}
	if s.p == nil {
		if err := s.start(ctx); err != nil {
			return nil, err
		}
	}
	s.ranCode = true
	res, restart := s.exchange(ctx, prep, h)
	res.Stderr = pre.String() + res.Stderr
	s.explainCompiledOnly(res)
	if !res.Success && len(res.Traceback) == 0 {
		res.Traceback = Traceback(res.ErrorName, res.ErrorMessage)
	}
	if res.Success {
		s.st.Commit(prep)
	}
	if restart {
		// The cell's frames belong to a session that is gone.
		res.Restarted = true
		res.Traceback = Traceback(res.ErrorName, res.ErrorMessage)
		s.p.kill("")
		<-s.p.exited
		s.p = nil
		if err := s.start(context.WithoutCancel(ctx)); err != nil {
			s.opts.Logger.Warn("sandbox: restarting the worker failed; the next cell retries", "err", err)
		}
	}
	return res, nil
}

// help answers a cell such as "award_data.Where?" (see
// cellprep.HelpQuery) with what inspecting the expression shows, as the
// cell's value; nothing runs. s.mu is held.
func (s *Session) help(ctx context.Context, expr string, detail int) (*Result, error) {
	r, err := s.request(ctx, &wire.Message{Op: wire.OpInspect, Code: expr, Cursor: utf8.RuneCountInString(expr), Detail: detail})
	if err != nil {
		if s.closed || ctx.Err() != nil {
			return nil, err
		}
		return failed(wire.ClassSandboxError, fmt.Sprintf("help for %s: %v; run the cell again", expr, err)), nil
	}
	if r.Inspection == nil || !r.Inspection.Found {
		return &Result{Success: true, Value: map[string]any{"text/plain": fmt.Sprintf(
			"No help for %s: it is not a package, a member of one, a variable of this session or a method reached from them.", expr)}}, nil
	}
	return &Result{Success: true, Value: r.Inspection.Data}, nil
}

// exchange sends a cell to the worker and relays what comes back until the
// result, enforcing the timeout and the interrupt. restart reports that
// the worker is gone or unusable.
func (s *Session) exchange(ctx context.Context, prep *cellprep.Prepared, h *Handlers) (res *Result, restart bool) {
	p, l := s.p, s.opts.Limits
	var stdout, stderr strings.Builder
	outBytes := 0
	collect := func(name, text string) {
		// The worker enforces the cap; this bounds a misbehaving one
		// (with room for the worker's notes of what it dropped).
		if outBytes+len(text) > l.MaxOutputBytes+4096 {
			return
		}
		outBytes += len(text)
		if h.Stream != nil {
			h.Stream(name, text)
			if h.StreamOnly {
				return
			}
		}
		if name == "stderr" {
			stderr.WriteString(text)
		} else {
			stdout.WriteString(text)
		}
	}
	finish := func(r *Result) *Result {
		r.Stdout, r.Stderr = stdout.String(), stderr.String()
		return r
	}
	run := &wire.Message{Op: wire.OpRun, Chunks: prep.Chunks}
	if h.Rows != (RowWindow{}) {
		run.Rows = &wire.RowWindow{Offset: h.Rows.Offset, Limit: h.Rows.Limit}
	}
	id, err := p.request(run)
	if err != nil {
		name, msg := p.death(l)
		return finish(failed(name, msg)), true
	}
	timeout := time.NewTimer(l.CellTimeout)
	defer timeout.Stop()
	var kill <-chan time.Time
	reason := ""
	done := ctx.Done()
	interrupt := func(why string) {
		if reason == "" {
			reason = why
			_ = p.c.Send(&wire.Message{Op: wire.OpInterrupt})
			kill = time.After(l.KillGrace)
		}
	}
	for {
		select {
		case m, ok := <-p.msgs:
			if !ok {
				if reason != "" {
					p.kill(reason)
				}
				name, msg := p.death(l)
				return finish(failed(name, msg)), true
			}
			switch m.Op {
			case wire.OpStream:
				collect(m.Name, m.Text)
				if h.StreamOnly {
					// Stream has encoded or copied the text, and nothing
					// else kept it.
					p.c.Recycle(m)
				}
			case wire.OpDisplay:
				if h.Display != nil && m.Display != nil {
					h.Display(displayFrom(m.Display))
				}
			case wire.OpClear:
				if h.Clear != nil {
					h.Clear(m.Wait)
				}
			case wire.OpInputReq:
				go s.answerInput(p, h, m)
			case wire.OpResult:
				if m.ID != id {
					continue // the end of a cell an earlier exchange gave up on
				}
				r, replace := failed(wire.ClassWorkerCrashed, "the worker sent an empty result"), false
				if m.Result != nil {
					r, replace = resultFrom(m.Result), m.Result.ReplaceWorker
				}
				if reason == "timeout" {
					r.Success = false
					r.ErrorName = wire.ClassTimeout
					r.ErrorMessage = fmt.Sprintf("the cell exceeded the %v time limit and was interrupted", l.CellTimeout)
					r.Traceback = Traceback(r.ErrorName, r.ErrorMessage)
				}
				return finish(r), replace
			}
		case <-done:
			done = nil
			interrupt("interrupt")
		case <-timeout.C:
			interrupt("timeout")
		case <-kill:
			kill = nil
			p.kill(reason)
		}
	}
}

// answerInput asks the Input handler for a line and sends it to the
// worker.
func (s *Session) answerInput(p *proc, h *Handlers, m *wire.Message) {
	reply := &wire.Message{Op: wire.OpInputRep}
	if h.Input == nil {
		reply.Err = "reading input is not supported here (no input handler); put the data in the cell instead"
	} else if text, err := h.Input(m.Text, m.Password); err != nil {
		reply.Err = err.Error()
	} else if len(text) > maxInputBytes {
		reply.Err = fmt.Sprintf("the input is %s; the limit is %s per reply — put large data in the cell or a file the kernel loads, not in an input prompt", bytesize.Approx(int64(len(text))), bytesize.Exact(maxInputBytes))
	} else {
		reply.Text = text
	}
	if err := p.c.Send(reply); err != nil {
		// The cell is waiting for an answer: it must get one.
		_ = p.c.Send(&wire.Message{Op: wire.OpInputRep, Err: "the input could not be passed to the cell: " + err.Error()})
	}
}

// maxInputBytes bounds one input reply; the frame that carries it to the
// worker must stay under wire.MaxFrameBytes.
const maxInputBytes = 1 << 20

// replyTimeout bounds a completion or inspect request.
const replyTimeout = 5 * time.Second

// request sends a completion or inspect request and waits for the reply.
func (s *Session) request(ctx context.Context, m *wire.Message) (*wire.Message, error) {
	if s.closed {
		return nil, ErrClosed
	}
	if s.p == nil {
		if err := s.start(ctx); err != nil {
			return nil, err
		}
	}
	p := s.p
	m.Names = s.st.Names()
	id, err := p.request(m)
	if err != nil {
		return nil, fmt.Errorf("sandbox: sending %s request: %w", m.Op, err)
	}
	t := time.NewTimer(replyTimeout)
	defer t.Stop()
	for {
		select {
		case r, ok := <-p.msgs:
			if !ok {
				// The next Run reports the death and starts a new worker.
				return nil, errors.New("sandbox: the worker exited during the request")
			}
			if isReply(r, wire.OpReply, id) {
				if r.Restart {
					// The worker's interpreter is still busy with an
					// abandoned call; the next cell starts a new one.
					p.kill("")
					<-p.exited
					s.p = nil
				}
				return r, nil
			}
		case <-t.C:
			return nil, fmt.Errorf("sandbox: no %s reply within %v", m.Op, replyTimeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Complete returns completions for code at cursor (a rune offset): names of
// the session, members of allowed packages and of session values, and
// column names inside string literals passed to award_data.
func (s *Session) Complete(ctx context.Context, code string, cursor int) (Completion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.request(ctx, &wire.Message{Op: wire.OpComplete, Code: code, Cursor: cursor})
	if err != nil || r.Completion == nil {
		return Completion{Start: cursor, End: cursor}, err
	}
	c := r.Completion
	return Completion{Matches: c.Matches, Start: c.Start, End: c.End}, nil
}

// Inspect describes the name at cursor (a rune offset): signature and
// documentation for package members, type and value for session variables.
// detail is 0 or 1, as in Jupyter's inspect_request.
func (s *Session) Inspect(ctx context.Context, code string, cursor, detail int) (Inspection, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.request(ctx, &wire.Message{Op: wire.OpInspect, Code: code, Cursor: cursor, Detail: detail})
	if err != nil || r.Inspection == nil {
		return Inspection{}, err
	}
	return inspectionFrom(r.Inspection), nil
}

// Close stops the worker. It is safe to call more than once.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.p != nil {
		s.p.close(time.Second)
		s.p = nil
	}
	// The cache may evict the environment once no session holds it.
	return s.env.Close()
}

// ProbeIsolation starts a worker as NewSession would and reports which
// isolation layers applied and why the others did not. opts.DataPath may
// be empty.
func ProbeIsolation(ctx context.Context, opts Options) ([]Layer, error) {
	opts.RequireIsolation = false
	s, err := NewSession(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Layers(), nil
}

// probe runs the escape attempts in the current worker (tests and doctor).
func (s *Session) probe(t wire.ProbeTarget) ([]wire.ProbeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p == nil {
		return nil, ErrClosed
	}
	id, err := s.p.request(&wire.Message{Op: wire.OpProbe, Probe: &t})
	if err != nil {
		return nil, err
	}
	for r := range s.p.msgs {
		if isReply(r, wire.OpReply, id) {
			return r.Probes, nil
		}
	}
	return nil, errors.New("sandbox: the worker exited during the probe")
}
