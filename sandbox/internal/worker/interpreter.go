package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing/fstest"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/assist"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"

	"github.com/traefik/yaegi/interp"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// cellContext is the context of the running cell, read by the replaced
// time.Sleep and by the stdin reader so that they return when the cell is
// interrupted.
var cellContext atomic.Pointer[context.Context]

func currentCellContext() context.Context {
	if p := cellContext.Load(); p != nil {
		return *p
	}
	return context.Background()
}

// shown holds the values _sbir.Show captured from the last expression.
var shown atomic.Pointer[[]any]

// cellReturn is the panic value of _sbir.Return, which a return statement
// at a cell's top level becomes (cellprep): the cell ends there, as a
// program ends when main returns, and succeeds.
type cellReturn struct{}

// recoverable returns the value of a panic of the cell's code, which a
// top-level deferred call may recover (what recover returns, and the value
// panic was called with); not an interrupt, an exit, a top-level return or
// a compiler panic.
func recoverable(ctx context.Context, err error) (v, raw any, ok bool) {
	var p interp.Panic
	if ctx.Err() != nil || !errors.As(err, &p) || isCompilePanic(p) || p.Value == supervise.ErrInterrupted {
		return nil, nil, false
	}
	switch p.Value.(type) {
	case symbols.ExitError, cellReturn:
		return nil, nil, false
	}
	return p.Recovered(), p.Value, true
}

// isCleanExit reports whether err is os.Exit(0) (or log's exit with 0):
// the end of a program that succeeded.
func isCleanExit(err error) bool {
	var p interp.Panic
	if !errors.As(err, &p) {
		return false
	}
	e, ok := p.Value.(symbols.ExitError)
	return ok && e.Code == 0
}

// isCellReturn reports whether err is the end of a cell by a top-level
// return.
func isCellReturn(err error) bool {
	var p interp.Panic
	if !errors.As(err, &p) {
		return false
	}
	_, ok := p.Value.(cellReturn)
	return ok
}

// sleep replaces time.Sleep: it returns early, by panicking, when the cell
// is interrupted, so that a cancelled cell cannot resume later.
func sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	ctx := currentCellContext()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		panic(supervise.ErrInterrupted)
	}
}

// helperExports is the _sbir package: compiled helpers the rewrites call.
func helperExports() map[string]reflect.Value {
	return map[string]reflect.Value{
		// Show captures the values of the cell's last expression.
		"Show": reflect.ValueOf(func(v ...any) { shown.Store(&v) }),
		// Return ends the cell (a return statement at its top level).
		"Return": reflect.ValueOf(func() { panic(cellReturn{}) }),
		// Clear implements the clear builtin for maps and slices.
		"Clear": reflect.ValueOf(func(x any) {
			v := reflect.ValueOf(x)
			if v.Kind() == reflect.Map || v.Kind() == reflect.Slice {
				v.Clear()
				return
			}
			panic(fmt.Sprintf("invalid argument: clear(%T): argument must be a map or a slice", x))
		}),
		// StackCap is the capacity of gc's stack buffer (stackbuf.go).
		"StackCap": reflect.ValueOf(stackCap),
	}
}

// helperSource defines the interpreted helpers: the value catcher of the
// last expression, min/max and the stack buffer of a cell's first append
// (cellprep/stackbuf.go), generic, so they need to be interpreted. Their
// type parameters have names no cell uses: yaegi leaves a generic
// function's type parameters in the package's scope, where one named T
// broke every cell's own `type T` ("nil reflect type").
//
// Their constraint is declared here rather than taken from package cmp:
// a name the helpers used from the session's scope would be the cell's
// when a cell declares it (cmp := a - b), and min and max would then
// fail to compile.
const helperSource = `
type _sbirOrdered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}
func _sbirMin[_sbirT _sbirOrdered](x _sbirT, y ..._sbirT) _sbirT { for _, v := range y { if v < x { x = v } }; return x }
func _sbirMax[_sbirT _sbirOrdered](x _sbirT, y ..._sbirT) _sbirT { for _, v := range y { if v > x { x = v } }; return x }
func _sbirPing() int { return 1 }
func _sbirStackBuf[_sbirT any](s []_sbirT, n int) []_sbirT { if k := _sbir.StackCap(s, n); k > 0 { return make([]_sbirT, 0, k) }; return s }
`

// session is the worker's interpreter with its cell plumbing.
type session struct {
	in  *interp.Interpreter
	out *cellOutput
	// needForget is set when a cell may have registered a main function
	// (see forgetMain).
	needForget bool
	// gate runs value formatting inside an evaluation (see render.go);
	// abandoned is set when a formatting call outlived its deadline.
	gate      *callGate
	abandoned atomic.Bool
	// gor supervises the goroutines and top-level defers of cells;
	// finishCell is what _sbir.Finish runs for the cell ending.
	gor        *supervise.Goroutines
	finishCell func()
	// timers records the timers cells make, for the deadlock detector.
	timers *supervise.TimerWatch
	// showMethods is set once a cell may have declared a method through
	// which a value shows itself (see declaresShowMethod).
	showMethods bool
	// ping is the health check's program (healthy), compiled before any
	// cell.
	ping *interp.Program
	// killGrace is how long the supervisor gives an interrupted cell to
	// stop (wire.Config.KillGrace), within which the wait for its
	// goroutines must end.
	killGrace time.Duration
}

// declaresShowMethod reports whether code may declare a method of the
// interfaces through which values show themselves
// (symbols.ValueInterfaces). It is a textual check, erring towards yes: a
// false yes only sends values through the catcher, which shows them the
// same.
func declaresShowMethod(code string) bool {
	for _, t := range symbols.ValueInterfaces() {
		for i := range t.NumMethod() {
			if strings.Contains(code, ") "+t.Method(i).Name+"(") {
				return true
			}
		}
	}
	return false
}

// interpOptions returns the interpreter options of a worker whose package
// environment is pkgDir ("" for none).
func interpOptions(stdout, stderr io.Writer, stdin io.Reader, pkgDir string) interp.Options {
	o := interp.Options{
		Stdout: stdout,
		Stderr: stderr,
		Stdin:  stdin,
		// Never read Go source from the host: import "./x" and GOPATH
		// packages would otherwise load files.
		SourcecodeFilesystem: fstest.MapFS{},
		GoPath:               "/nonexistent",
		Env:                  []string{},
		// os.Args of a program run with no arguments: its name alone, so
		// that len(os.Args) and os.Args[1:] are what go run gives.
		Args:         []string{"cell"},
		Unrestricted: false,
		// A session evaluates for hours: keep nothing per evaluation
		// that only yaegi's debugger reads (issue 14, worker memory).
		DiscardDebugInfo: true,
		// Values of hidden packages that compiled code passes to cell
		// functions through interfaces (reachable.go).
		CheckCallbackArg: new(callbackGuard).check,
		// A type switch or assertion that cannot tell a defined
		// non-struct type from its underlying type is a compile error,
		// not a wrong answer (yaegi patch 60).
		RefuseIndistinctTypes: true,
	}
	if pkgDir != "" {
		// Third-party packages come from the session's environment only
		// (GOPATH layout: src/<import path>), the one directory Landlock
		// lets the worker read.
		o.SourcecodeFilesystem = os.DirFS(pkgDir)
		o.GoPath = "."
	}
	return o
}

// newInterpreter builds an interpreter over the allow-listed table and
// imports every allowed package, so that cells need no imports. pkgDir is
// the session's package environment, or "".
func newInterpreter(out *cellOutput, stdin io.Reader, pkgDir string) (*session, error) {
	// yaegi writes its panic traces to its own stderr, distinct from the
	// cell's os.Stderr, so that only its lines are read as frames.
	gor := &supervise.Goroutines{}
	opts := interpOptions(out.writer("stdout"), out.traceWriter(), stdin, pkgDir)
	// Every go statement the interpreter runs belongs to the running cell:
	// the cell's own are rewritten into calls of the helpers' Go (cellprep),
	// and those in the source of packages a cell imports (//sbir:require)
	// start here (yaegi patch 23). Unsupervised, they outlived their cell,
	// printed into later ones, passed the goroutine limit, and a panic in
	// one (an interrupted time.Sleep) ended the worker (issue 30, hole 4).
	opts.Go = func(f func()) { gor.Go(f, out.takeFrames) }
	in := interp.New(opts)
	gor.SetPanicSlot(in) // a recover in a declared function a cell defers (yaegi patch 87)
	helpers := helperExports()
	ex := symbols.Exports(symbols.Options{Sleep: sleep, Stdin: stdin, Stdout: out.writer("stdout"), Stderr: out.writer("stderr"),
		Go: func(f func()) { gor.Go(f, out.takeFrames) }, // sync.WaitGroup.Go, supervised
		// The last value reaches the catcher wrapped with its display
		// methods (a cell type's MIMEBundle or String), as display.Show's
		// argument does.
		Shows: []reflect.Value{helpers["Show"]}})
	hideRefusedAPI(ex) // no reflect values reachable (reachable.go)
	timers := &supervise.TimerWatch{}
	timers.Wrap(ex)
	ex[cellprep.HelperPkg+"/"+cellprep.HelperPkg] = helpers
	var sess *session
	for name, v := range gor.Exports(out.takeFrames) {
		ex[cellprep.HelperPkg+"/"+cellprep.HelperPkg][name] = v
	}
	ex[cellprep.HelperPkg+"/"+cellprep.HelperPkg]["Finish"] = reflect.ValueOf(func() { sess.finishCell() })
	gate := &callGate{}
	ex[cellprep.HelperPkg+"/"+cellprep.HelperPkg]["Call"] = reflect.ValueOf(gate.call)
	if err := in.Use(ex); err != nil {
		return nil, fmt.Errorf("loading the symbol table: %w", err)
	}
	if err := symbols.Install(in); err != nil {
		return nil, err
	}
	// Pre-imported packages give way to what a cell declares: a cell's
	// own variable list, or its import of math/rand/v2 as rand, replaces
	// them as Go scoping would in a file that never imported them.
	if err := in.ImportImplicitly(allowlist.Preimported()...); err != nil {
		return nil, fmt.Errorf("importing the allowed packages: %w", err)
	}
	if _, err := in.Eval(fmt.Sprintf("import %q", cellprep.HelperPkg)); err != nil {
		return nil, fmt.Errorf("importing the helpers: %w", err)
	}
	if _, err := in.Eval(helperSource); err != nil {
		return nil, fmt.Errorf("defining the helpers: %w", err)
	}
	prog, err := in.Compile(cellprep.HelperPkg + ".Call()")
	if err != nil {
		return nil, fmt.Errorf("compiling the formatting gate: %w", err)
	}
	gate.prog = prog
	// Compiled now, before any cell: a program compiled while a cell's
	// top-level closure is registered as main (forgetMain) runs it too.
	ping, err := in.Compile("_sbirPing()")
	if err != nil {
		return nil, fmt.Errorf("compiling the health check: %w", err)
	}
	sess = &session{in: in, out: out, gate: gate, gor: gor, finishCell: func() {}, timers: timers, ping: ping}
	return sess, nil
}

// run evaluates the chunks of one cell and fills res. It returns when the
// cell and the goroutines it started have ended, or ctx is cancelled.
func (s *session) run(ctx context.Context, chunks []wire.Chunk, res *wire.Result) {
	ctx, cancelCause := context.WithCancelCause(ctx)
	cancel := func() { cancelCause(context.Canceled) }
	defer cancel()
	cg := s.gor.Begin(ctx, cancel)
	cellContext.Store(&ctx)
	go supervise.WatchDeadlock(ctx, cancelCause, cg.Stuck(), s.timers, s.gor.Started)
	program := false
	ok := true
	compiled, failedAt, err := s.compileCell(ctx, chunks)
	if err != nil {
		s.fail(ctx, err, chunks[failedAt], res)
		ok = false
	}
	for i, cc := range compiled {
		program = program || cc.ch.Main
		v, err := s.runChunk(ctx, cc)
		if err != nil {
			if i+1 < len(compiled) {
				// The rest of the cell does not run: what it declares
				// is not declared.
				s.in.Rollback(compiled[i+1].before)
			}
			if isCleanExit(err) {
				// os.Exit(0): the program ended there, and nothing
				// failed; its deferred calls do not run and its
				// goroutines end with it, as in a program that exits.
				cg.DropDefers()
				program = true
			} else if !isCellReturn(err) {
				s.fail(ctx, err, cc.ch, res)
				ok = false
				if v, raw, isPanic := recoverable(ctx, err); isPanic {
					cg.StartPanicking(v, raw)
				}
			}
			break
		}
		if cc.ch.Expr {
			res.Value = v
		}
	}
	if res.ErrorName == wire.ClassExit {
		// A program that exits runs none of its deferred calls.
		cg.DropDefers()
	}
	// A failed cell, like a program that panicked, stops its goroutines
	// at once; otherwise a cell waits for them.
	stuck := s.endCell(ctx, cg, program || !ok)
	if !ok && cg.Recovered() {
		// A top-level deferred call recovered the panic: the cell ends
		// as a program whose main recovered returns.
		ok = true
		res.ErrorName, res.ErrorMessage, res.Traceback = "", "", nil
	}
	if stuck > 0 {
		// Compiled code (a standard function calling back into the cell)
		// cannot be stopped: the worker is replaced rather than left
		// running it.
		s.out.write("stderr", []byte(fmt.Sprintf("... [%d goroutine(s) of this cell were inside compiled code and did not stop; the worker is replaced and all variables of this session are lost]\n", stuck)))
		res.ReplaceWorker = true
	}
	if _, _, p := cg.State(); p != nil {
		res.Success = false
		res.Value = nil
		if e, ok := p.Value.(symbols.ExitError); ok {
			// os.Exit in a goroutine ends the whole program too.
			exitResult(e, res)
			return
		}
		res.ErrorName = wire.ClassPanic
		res.ErrorMessage = p.Message()
		res.Traceback = append(wire.Traceback(res.ErrorName, res.ErrorMessage), panicChain(p)...)
		res.Traceback = append(res.Traceback, p.Frames...)
		return
	}
	res.Success = ok
}

// endCell runs the cell's top-level defers and waits for its goroutines
// (see supervise.Cell.Finish) inside an evaluation: when the wait ends by the
// cell's interrupt or timeout, or at once for a program whose main
// returned, the interpreter stops every goroutine still running, so none
// can print into a later cell or keep burning CPU.
func (s *session) endCell(ctx context.Context, cg *supervise.Cell, program bool) (stuck int) {
	if running, _, _ := cg.State(); running == 0 && cg.Defers() == 0 {
		return 0
	}
	if ctx.Err() != nil {
		// The main flow was interrupted: the interpreter has stopped the
		// goroutines' interpreted code; give them a moment to unwind.
		return cg.WaitStopped(s.killGrace)
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	release := make(chan struct{})
	s.finishCell = func() {
		cg.Finish(fctx, program, stop)
		if fctx.Err() != nil {
			// Hold the evaluation until EvalWithContext has seen the
			// cancellation, which is what stops the goroutines.
			<-release
		}
	}
	_, _ = s.in.EvalWithContext(fctx, cellprep.HelperPkg+".Finish()")
	close(release)
	s.finishCell = func() {}
	_, _, p := cg.State()
	stuck = cg.WaitStopped(s.killGrace)
	n, stuckEnded := cg.Stopped()
	if n > 0 && p == nil && !program && !stuckEnded {
		s.out.write("stderr", []byte(fmt.Sprintf("... [%d goroutine(s) of this cell were still running when it was interrupted; they were stopped]\n", n)))
	}
	return stuck
}

// forgetMain works around a yaegi REPL bug: a top-level call of a
// function literal (`func() { ... }()`) registers the literal as the
// package's main function, which every later evaluation then runs again,
// and every program compiled meanwhile. Declaring an empty main replaces
// it (compiling the declaration comes before running main). It must come
// before any other evaluation after the cell, an interrupted one's
// included (healthy).
func (s *session) forgetMain() error {
	if !s.needForget {
		return nil
	}
	ctx := context.Background()
	cellContext.Store(&ctx)
	if _, err := s.in.EvalWithContext(ctx, "func main() {}"); err != nil {
		return err
	}
	s.needForget = false
	return nil
}

// cellFunc is the function each cell's last expression is evaluated in.
const cellFunc = "_sbirCell"

// valueError is the error a cell's value carries, such as an award_data
// Frame built from a misspelt column: shown as the value, it would pass
// for success, so the cell fails with it instead.
type valueError struct{ err error }

func (e valueError) Error() string { return e.err.Error() }

// carriedError returns a valueError when vals is one value whose Err
// method reports an error.
func carriedError(vals []any) error {
	if len(vals) != 1 {
		return nil
	}
	if e, ok := vals[0].(interface{ Err() error }); ok {
		if err := e.Err(); err != nil {
			return valueError{err}
		}
	}
	return nil
}

// isRuntimeError reports whether err comes from running (not compiling)
// the code.
func isRuntimeError(err error) bool {
	var p interp.Panic
	return errors.As(err, &p) && !isCompilePanic(p)
}

// isCompilePanic reports whether a recovered panic happened inside
// yaegi's compiler rather than in the cell's code.
func isCompilePanic(p interp.Panic) bool {
	return strings.Contains(string(p.Stack), "yaegi/interp.(*Interpreter).cfg") ||
		strings.Contains(string(p.Stack), "yaegi/interp.(*Interpreter).gta") ||
		strings.Contains(string(p.Stack), "yaegi/interp.genRun")
}

// compileStageRE matches the position and the stage yaegi (patch 72) gives
// a panic of its compiler, after cellPositions: "line 3, column 5: CFG
// post-order panic: ", or the position of an error it panicked with.
var compileStageRE = regexp.MustCompile(`^(line \d+, column \d+: )(?:(?:CFG (?:pre|post)-order panic|global type analysis panic): )?`)

// compilePanicMessage is the message of a CompileError for a panic inside
// the interpreter's compiler: where, what, and that it is the
// interpreter's limit, not an error in the code, with the line (when the
// interpreter gave one) in the cell's numbering and never a Go stack.
func compilePanicMessage(v any) string {
	msg := oneLine(cellPositions(fmt.Sprint(v)))
	where, what := "", msg
	if m := compileStageRE.FindStringSubmatch(msg); m != nil {
		where, what = m[1], msg[len(m[0]):]
	}
	construct := "the construct"
	if where != "" {
		construct = "the construct on that line"
	}
	return where + "the interpreter cannot compile this (" + what + "): a limit of the interpreter, not an error in the code; rewrite " + construct + " another way"
}

var posRE = regexp.MustCompile(`(?:_\.go:)?(\d+):(\d+): `)

// cellPositions rewrites yaegi's "_.go:L:C: " positions to the cell's lines
// (the chunk's code carries one wrapper line).
func cellPositions(msg string) string {
	return posRE.ReplaceAllStringFunc(msg, func(m string) string {
		sub := posRE.FindStringSubmatch(m)
		line, _ := strconv.Atoi(sub[1])
		if line > 1 {
			line--
		}
		return fmt.Sprintf("line %d, column %s: ", line, sub[2])
	})
}

// fail fills res from an evaluation error.
func (s *session) fail(ctx context.Context, err error, ch wire.Chunk, res *wire.Result) {
	res.Success = false
	if context.Cause(ctx) == supervise.ErrDeadlock {
		res.ErrorName = wire.ClassDeadlock
		res.ErrorMessage = supervise.DeadlockMessage + "\n(the cell's code and every goroutine it started are blocked on channel operations, select or locks, and no timer is pending; as gc does, the cell ends here)"
		res.Traceback = wire.Traceback(res.ErrorName, res.ErrorMessage)
		return
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		res.ErrorName = wire.ClassInterrupted
		res.ErrorMessage = "the cell was interrupted"
		return
	}
	var p interp.Panic
	if errors.As(err, &p) {
		if e, ok := p.Value.(symbols.ExitError); ok {
			exitResult(e, res)
			return
		}
		switch {
		case p.Value == supervise.ErrInterrupted:
			res.ErrorName = wire.ClassInterrupted
			res.ErrorMessage = "the cell was interrupted"
		case isCompilePanic(p):
			res.ErrorName = wire.ClassCompileError
			res.ErrorMessage = compilePanicMessage(p.Value)
		default:
			res.ErrorName, res.ErrorMessage = panicName(p.Value), cellPositions(p.Message())
		}
		frames := s.out.takeFrames()
		if perr, ok := p.Value.(error); ok {
			if at := assist.ArgumentFrame(ch.Code, perr); at != "" {
				frames = []string{at} // the argument, not the calls around it
			}
		}
		res.Traceback = wire.Traceback(res.ErrorName, res.ErrorMessage)
		if len(p.Previous) > 0 {
			// yaegi patch 69: the panics under way, as gc prints them.
			res.Traceback = append(res.Traceback, p.GoTrace()...)
		}
		res.Traceback = append(res.Traceback, frames...)
		return
	}
	var ve valueError
	if errors.As(err, &ve) {
		res.ErrorName, res.ErrorMessage = panicName(ve.err), ve.err.Error()
		res.Traceback = wire.Traceback(res.ErrorName, res.ErrorMessage)
		if at := assist.ArgumentFrame(ch.Code, ve.err); at != "" {
			res.Traceback = append(res.Traceback, at)
		}
		return
	}
	msg := assist.RelocateUndefined(ch.Code, assist.SuggestMembers(cellPositions(err.Error())))
	name := wire.ClassCompileError
	if strings.Contains(msg, "panic: ") || strings.HasPrefix(msg, "runtime error") {
		name = wire.ClassPanic
	}
	if strings.HasSuffix(msg, "nil type") && strings.Contains(ch.Code, "range") {
		msg += ": ranging over an integer works only when the interpreter can tell it is one (a literal, len(x), or a variable declared as an int); otherwise write `for i := 0; i < n; i++`"
	}
	res.ErrorName = name
	res.ErrorMessage = msg
	res.Traceback = wire.Traceback(name, msg)
}

// exitResult reports a cell that ended by os.Exit or log.Fatal: like a
// program, it stopped there (its output so far is kept and its deferred
// calls were skipped), but the session lives on.
func exitResult(e symbols.ExitError, res *wire.Result) {
	res.Value = nil
	if e.Code == 0 {
		// os.Exit(0) is a program's successful end, as go run reports it.
		res.Success = true
		res.ErrorName, res.ErrorMessage, res.Traceback = "", "", nil
		return
	}
	res.Success = false
	res.ErrorName = wire.ClassExit
	res.ErrorMessage = fmt.Sprintf("exit status %d (the program called os.Exit or log.Fatal: it stopped there without running its deferred calls; the session and its variables are kept)", e.Code)
	res.Traceback = wire.Traceback(res.ErrorName, res.ErrorMessage)
}

// panicChain returns the lines gc prints for a panic of a cell's
// deferred call that started while the cell's panic was under way
// ("panic: original [recovered]", then "\tpanic: " and the new one), or
// none.
func panicChain(p *supervise.Panic) []string {
	if len(p.Previous) == 0 {
		return nil
	}
	links := make([]interp.PanicLink, len(p.Previous))
	for i, l := range p.Previous {
		links[i] = interp.PanicLink{Value: l.Value, Recovered: l.Recovered}
	}
	last := &links[len(links)-1]
	last.Repanicked = last.Recovered && samePanic(interp.Panic{Value: p.Value}.Recovered(), last.Value)
	return interp.Panic{Value: p.Value, Previous: links}.GoTrace()
}

// samePanic reports whether two panic values are the same (false when
// they cannot be compared).
func samePanic(a, b any) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// panicName classifies a panic value: runtime errors, award_data's
// errors, the interpreter's refusal of a construct it cannot run as gc
// does (yaegi patch 76), or a plain panic.
func panicName(v any) string {
	if n, ok := v.(interface{ ErrorName() string }); ok {
		return n.ErrorName()
	}
	if _, ok := v.(*interp.Unsupported); ok {
		return wire.ClassNotAllowed
	}
	if _, ok := v.(runtime.Error); ok {
		return wire.ClassRuntimeError
	}
	if err, ok := v.(error); ok {
		t := reflect.TypeOf(err)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case strings.HasSuffix(t.PkgPath(), "/award_data"):
			return "award_data." + t.Name()
		case strings.HasSuffix(t.PkgPath(), "/display"):
			return "display." + t.Name()
		}
	}
	return wire.ClassPanic
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// evalBusy reports whether an evaluation abandoned by EvalWithContext
// (which returns at once when its context ends) is still running: a long
// compilation or a compiled call that does not watch the context.
func evalBusy() bool {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	return strings.Contains(string(buf[:n]), "yaegi/interp.(*Interpreter).EvalWithContext.func1") ||
		strings.Contains(string(buf[:n]), "yaegi/interp.(*Interpreter).ExecuteWithContext.func1") ||
		strings.Contains(string(buf[:n]), "yaegi/interp.(*Interpreter).CompileWithContext.func1")
}

// healthy reports whether the interpreter can run more code after an
// interrupt: the abandoned evaluation has ended, the interrupted cell's
// top-level closure is forgotten (forgetMain), and a trivial program
// works. Evaluating while the old one still runs would corrupt the
// interpreter. The check runs a program compiled before any cell: as an
// evaluation it ran the interrupted cell's closure again (yaegi's main,
// see forgetMain), whose goroutines then belonged to no cell and printed
// into later ones (issue 30, hole 5).
//
// Its waits are the supervisor's grace for an interrupted cell (not a
// fixed second): on a loaded host the abandoned evaluation and the check
// wait for a processor behind the cell's unwinding goroutines, and a
// second was too little (the worker was condemned, the session's
// variables lost, for a cell that had stopped).
func (s *session) healthy() bool {
	grace := s.killGrace
	if grace <= 0 {
		grace = supervise.DefaultStopGrace
	}
	deadline := time.Now().Add(grace)
	for evalBusy() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	if s.forgetMain() != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	cellContext.Store(&ctx)
	v, err := s.in.ExecuteWithContext(ctx, s.ping)
	return err == nil && v.IsValid() && v.CanInterface() && v.Interface() == 1
}
