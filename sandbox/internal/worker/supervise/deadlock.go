package supervise

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"
	"weak"
)

// A Go program whose goroutines are all blocked on channels, locks or
// select{} ends with "fatal error: all goroutines are asleep - deadlock!"
// (status 2). The worker cannot lean on the runtime's detector (its own
// goroutines never sleep for good), so it looks for the same state among
// the goroutines that run interpreted code: the cell's main flow and the
// goroutines cells started. When the cell has used no CPU for a while,
// the detector takes a stack dump (which stops the world, so it is one
// consistent state) and reads each goroutine's wait reason and frames.
// It reports only when every interpreting goroutine is parked in a
// channel operation, select, or a sync primitive called directly by
// interpreted code, and no timer a cell made can still fire: a goroutine
// in time.Sleep, in compiled code (reading input, a library call), or
// runnable means no verdict. A parked goroutine of that kind can only be
// woken by another goroutine or a timer, and the ones that could are
// either accounted for or absent.

// DeadlockMessage is the first line of a deadlocked cell's error, the
// runtime's own words after "fatal error: ".
const DeadlockMessage = "all goroutines are asleep - deadlock!"

// ErrDeadlock is the cause of a cell context cancelled by the detector.
var ErrDeadlock = errors.New(DeadlockMessage)

// Detector timing: the first look after detectFirst without progress, then
// at growing intervals up to detectMax, so that a long wait costs next to
// nothing; detectConfirm separates the two dumps a verdict needs.
const (
	detectFirst   = 50 * time.Millisecond
	detectMax     = time.Second
	detectConfirm = 20 * time.Millisecond
	// maxStackDump bounds the dump (10,000 goroutines fit); beyond it the
	// detector gives no verdict.
	maxStackDump = 64 << 20
	// dumpPerGoroutine is what a new dump buffer allows per goroutine:
	// a cell's goroutine blocked a few interpreted calls deep takes 2-3 KiB.
	dumpPerGoroutine = 2 << 10
)

// verdict is what one stack dump says about the cell.
type verdict int

const (
	verdictNone     verdict = iota // something can still run
	verdictDeadlock                // the main flow and every goroutine are blocked
	verdictStuck                   // the statements are done; the goroutines left are blocked
)

// blockingReasons are the wait reasons of goroutines that only another
// goroutine (or a timer) can wake.
var blockingReasons = map[string]bool{
	"chan receive": true, "chan send": true, "chan receive (nil chan)": true, "chan send (nil chan)": true,
	"select": true, "select (no cases)": true,
	"sync.Mutex.Lock": true, "sync.RWMutex.Lock": true, "sync.RWMutex.RLock": true,
	"sync.WaitGroup.Wait": true, "sync.Cond.Wait": true, "semacquire": true,
}

// The interpreter's frames in a goroutine's stack, as runtime.Stack
// prints them: any of its functions, the loop that runs interpreted code,
// and the goroutines EvalWithContext and ExecuteWithContext run an
// evaluation on (the cell's main flow). TestInterpreterStackFormat checks them against the interpreter.
const (
	interpFrame = "github.com/traefik/yaegi/interp."
	runFrame    = "github.com/traefik/yaegi/interp.runCfg("
	mainFrame   = "github.com/traefik/yaegi/interp.(*Interpreter).EvalWithContext.func1("
	// execFrame is the goroutine ExecuteWithContext runs a compiled part
	// of a cell on: the main flow too (the worker compiles a cell whole
	// before running it).
	execFrame = "github.com/traefik/yaegi/interp.(*Interpreter).ExecuteWithContext.func1("
)

// Frames of this package's own functions, named from the functions
// themselves so that a rename cannot break the detector: the main flow
// waiting for the cell's goroutines (Cell.Finish), and the bottom of every
// goroutine a cell's go statement started (the closures of Goroutines.Go).
var (
	finishMarker = funcName((*Cell).Finish) + "("
	cellGoFrame  = funcName((*Goroutines).Go) + ".func"
)

// funcName is the name runtime.Stack prints for the function f.
func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// directPrefixes are the packages whose frames may stand between a parked
// goroutine and the interpreted code that called: the channel and sync
// primitives themselves, and reflect, through which yaegi calls them.
var directPrefixes = []string{"runtime.", "internal/sync.", "sync.", "reflect."}

// judge reads a dump of all goroutines (runtime.Stack) and says whether
// the cell is deadlocked (its main flow blocked), stuck (its statements
// finished, its goroutines blocked) or neither.
func judge(dump []byte) verdict {
	main, finishing, others := false, false, 0
	for _, g := range bytes.Split(dump, []byte("\n\n")) {
		reason, funcs, ok := parseGoroutine(string(g))
		if !ok || !containsPrefix(funcs, runFrame) {
			continue // not running interpreted code
		}
		isMain := containsPrefix(funcs, mainFrame) || containsPrefix(funcs, execFrame)
		switch {
		case isMain && reason == "select" && strings.Contains(firstNonRuntime(funcs), finishMarker):
			main, finishing = true, true
			continue
		case !blockingReasons[reason] || !calledDirectly(funcs):
			return verdictNone
		case isMain:
			main = true
		default:
			others++
		}
	}
	switch {
	case !main:
		return verdictNone // between evaluations
	case finishing && others == 0:
		return verdictNone // the wait is over anyway
	case finishing:
		return verdictStuck
	}
	return verdictDeadlock
}

// parseGoroutine splits one goroutine of a dump into its wait reason and
// its function lines, innermost first.
func parseGoroutine(g string) (reason string, funcs []string, ok bool) {
	header, rest, _ := strings.Cut(strings.TrimLeft(g, "\n"), "\n")
	if !strings.HasPrefix(header, "goroutine ") {
		return "", nil, false
	}
	i, j := strings.IndexByte(header, '['), strings.LastIndexByte(header, ']')
	if i < 0 || j < i {
		return "", nil, false
	}
	reason = header[i+1 : j]
	if k := strings.Index(reason, ", "); k >= 0 {
		reason = reason[:k] // ", 5 minutes", ", locked to thread"
	}
	for _, line := range strings.Split(rest, "\n") {
		if line != "" && line[0] != '\t' && !strings.HasPrefix(line, "created by ") {
			funcs = append(funcs, line)
		}
	}
	return reason, funcs, len(funcs) > 0
}

// calledDirectly reports whether the frames above the innermost
// interpreted one are all channel, sync or reflect frames: the goroutine
// waits on a primitive the cell's code called, not inside a library.
func calledDirectly(funcs []string) bool {
	for _, f := range funcs {
		if strings.HasPrefix(f, interpFrame) {
			return true
		}
		if !hasAnyPrefix(f, directPrefixes) {
			return false
		}
	}
	return false
}

// firstNonRuntime is the innermost frame outside package runtime (a dump
// shows runtime frames only under GOTRACEBACK=system).
func firstNonRuntime(funcs []string) string {
	for _, f := range funcs {
		if !strings.HasPrefix(f, "runtime.") {
			return f
		}
	}
	return ""
}

func containsPrefix(funcs []string, p string) bool {
	for _, f := range funcs {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// TimerWatch records the timers cells make, so that goroutines waiting for
// one are never reported. A fixed deadline (time.After, a context's) is
// kept as the latest one; a Timer or Ticker can be reset, so it counts as
// pending for as long as it is reachable; time.Tick's ticker never stops.
type TimerWatch struct {
	mu      sync.Mutex
	until   time.Time
	timers  []weak.Pointer[time.Timer]
	tickers []weak.Pointer[time.Ticker]
	forever bool
}

func (w *TimerWatch) deadline(t time.Time) {
	w.mu.Lock()
	if t.After(w.until) {
		w.until = t
	}
	w.mu.Unlock()
}

// pending reports whether a timer a cell made may still fire. It collects
// garbage first when Timers or Tickers are tracked, so that unreachable
// ones stop counting. For a stuck verdict (the cell's statements are
// done, as main returning ends a program) a reachable Timer or Ticker that
// is stopped, or has fired, does not count: only a running goroutine could
// reset it, and none is running (timerstate.go). For a deadlock verdict
// every reachable one counts, as for gc's own detector, which keeps a
// stopped timer that a goroutine waits on and so never reports that
// program: it runs to the cell's time limit as gc's runs forever.
func (w *TimerWatch) pending(stuck bool) bool {
	w.mu.Lock()
	tracked := len(w.timers) + len(w.tickers)
	if w.forever || time.Now().Before(w.until) {
		w.mu.Unlock()
		return true
	}
	w.mu.Unlock()
	if tracked == 0 {
		return false
	}
	runtime.GC()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timers = liveOnly(w.timers)
	w.tickers = liveOnly(w.tickers)
	if !stuck {
		return len(w.timers)+len(w.tickers) > 0
	}
	for _, p := range w.timers {
		if tm := p.Value(); tm != nil && timerMayFire(unsafe.Pointer(tm)) {
			return true
		}
	}
	for _, p := range w.tickers {
		if tk := p.Value(); tk != nil && timerMayFire(unsafe.Pointer(tk)) {
			return true
		}
	}
	return false
}

func liveOnly[T any](ps []weak.Pointer[T]) []weak.Pointer[T] {
	out := ps[:0]
	for _, p := range ps {
		if p.Value() != nil {
			out = append(out, p)
		}
	}
	clear(ps[len(out):])
	return out
}

// Wrap wraps the timer constructors of the time and context tables of an
// interpreter's symbol table with ones that record what they make. Each
// wrapper calls what the table held: the context constructors there check
// their parent (a Context declared in a cell is refused, see the symbols
// package), and replacing them with the context package's own (as this
// did) let such a parent through to a goroutine no cell controls (issue
// 30, hole 2).
func (w *TimerWatch) Wrap(ex map[string]map[string]reflect.Value) {
	if t := ex["time/time"]; t != nil {
		around(t, "After", func(after func(time.Duration) <-chan time.Time) func(time.Duration) <-chan time.Time {
			return func(d time.Duration) <-chan time.Time {
				w.deadline(time.Now().Add(d))
				return after(d)
			}
		})
		around(t, "NewTimer", func(newTimer func(time.Duration) *time.Timer) func(time.Duration) *time.Timer {
			return func(d time.Duration) *time.Timer {
				tm := newTimer(d)
				w.mu.Lock()
				w.timers = append(liveOnly(w.timers), weak.Make(tm))
				w.mu.Unlock()
				return tm
			}
		})
		around(t, "NewTicker", func(newTicker func(time.Duration) *time.Ticker) func(time.Duration) *time.Ticker {
			return func(d time.Duration) *time.Ticker {
				tk := newTicker(d)
				w.mu.Lock()
				w.tickers = append(liveOnly(w.tickers), weak.Make(tk))
				w.mu.Unlock()
				return tk
			}
		})
		around(t, "Tick", func(tick func(time.Duration) <-chan time.Time) func(time.Duration) <-chan time.Time {
			return func(d time.Duration) <-chan time.Time {
				if d > 0 {
					w.mu.Lock()
					w.forever = true
					w.mu.Unlock()
				}
				return tick(d)
			}
		})
	}
	if c := ex["context/context"]; c != nil {
		type cancel = context.CancelFunc
		around(c, "WithTimeout", func(with func(context.Context, time.Duration) (context.Context, cancel)) func(context.Context, time.Duration) (context.Context, cancel) {
			return func(p context.Context, d time.Duration) (context.Context, cancel) {
				ctx, stop := with(p, d) // checks p first
				w.deadline(time.Now().Add(d))
				return ctx, stop
			}
		})
		around(c, "WithTimeoutCause", func(with func(context.Context, time.Duration, error) (context.Context, cancel)) func(context.Context, time.Duration, error) (context.Context, cancel) {
			return func(p context.Context, d time.Duration, cause error) (context.Context, cancel) {
				ctx, stop := with(p, d, cause)
				w.deadline(time.Now().Add(d))
				return ctx, stop
			}
		})
		around(c, "WithDeadline", func(with func(context.Context, time.Time) (context.Context, cancel)) func(context.Context, time.Time) (context.Context, cancel) {
			return func(p context.Context, t time.Time) (context.Context, cancel) {
				ctx, stop := with(p, t)
				w.deadline(t)
				return ctx, stop
			}
		})
		around(c, "WithDeadlineCause", func(with func(context.Context, time.Time, error) (context.Context, cancel)) func(context.Context, time.Time, error) (context.Context, cancel) {
			return func(p context.Context, t time.Time, cause error) (context.Context, cancel) {
				ctx, stop := with(p, t, cause)
				w.deadline(t)
				return ctx, stop
			}
		})
	}
}

// around replaces table[name], a function of type F, with wrap of it. A
// table without the name is left alone; one holding another type is a
// mistake of this package's, which fails the worker's start loudly rather
// than losing the wrapped function's checks or the timer's record.
func around[F any](table map[string]reflect.Value, name string, wrap func(F) F) {
	v, ok := table[name]
	if !ok {
		return
	}
	f, ok := v.Interface().(F)
	if !ok {
		panic(fmt.Sprintf("supervise: the symbol table's %s is %s, not %T", name, v.Type(), f))
	}
	table[name] = reflect.ValueOf(wrap(f))
}

// WatchDeadlock watches the running cell until ctx ends. On a deadlock it
// cancels the cell with ErrDeadlock; when the cell's statements are done
// and its goroutines can never run again, it closes stuck (Cell.Stuck),
// which ends the wait for them (as main returning ends a Go program).
// started counts the goroutines cells have started (Goroutines.Started).
func WatchDeadlock(ctx context.Context, cancel context.CancelCauseFunc, stuck chan<- struct{}, timers *TimerWatch, started func() uint64) {
	interval := detectFirst
	var buf []byte
	cpu := newCPUMeter()
	for {
		before, startedBefore := cpu.read(), started()
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		// A cell using CPU or starting goroutines is making progress:
		// look again later. CPU alone does not tell: on a loaded host a
		// cell that starts thousands of goroutines gets little of it,
		// and each look (a dump of every goroutine, which stops the
		// world) then took most of what it got, so that a goroutine bomb
		// ran past its time limit instead of failing at the cap. The
		// garbage collector's CPU is not the cell's (cpuMeter).
		if progressed(cpu.read().since(before), interval, startedBefore, started()) {
			interval = detectFirst
			continue
		}
		if interval < detectMax {
			interval *= 2
		}
		v := judgeNow(&buf)
		if v == verdictNone || timers.pending(v == verdictStuck) {
			continue
		}
		time.Sleep(detectConfirm)
		if judgeNow(&buf) != v || timers.pending(v == verdictStuck) || ctx.Err() != nil {
			continue
		}
		if v == verdictDeadlock {
			cancel(ErrDeadlock)
			return
		}
		close(stuck)
		return
	}
}

// progressed reports whether a cell that used cpu during interval, and
// started goroutines from n0 to n1 by then, made progress, so that no
// stack dump is needed to know it is not deadlocked.
func progressed(cpu, interval time.Duration, n0, n1 uint64) bool {
	return cpu > interval/4 || n1 != n0
}

// judgeNow dumps all goroutines and judges.
func judgeNow(buf *[]byte) verdict {
	dump, ok := dumpAll(buf)
	if !ok {
		return verdictNone
	}
	return judge(dump)
}

// dumpAll writes a dump of all goroutines (runtime.Stack) into *buf,
// grown as needed up to maxStackDump; ok is false when it does not fit.
// A new buffer is sized for the goroutines alive: each dump that does not
// fit stops the world again, and with thousands of goroutines a dozen
// such passes from a small buffer held up the goroutines unwinding after
// an interrupt past the supervisor's grace.
func dumpAll(buf *[]byte) (dump []byte, ok bool) {
	if len(*buf) == 0 {
		n := 64 << 10
		for n < runtime.NumGoroutine()*dumpPerGoroutine && n < maxStackDump {
			n *= 2
		}
		*buf = make([]byte, n)
	}
	for {
		n := runtime.Stack(*buf, true)
		if n < len(*buf) {
			return (*buf)[:n], true
		}
		if len(*buf) >= maxStackDump {
			return nil, false
		}
		*buf = make([]byte, 2*len(*buf))
	}
}
