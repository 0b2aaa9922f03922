package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// A cell's goroutines, deferred calls and the contexts it makes belong to
// it: none outlives it, runs cell code where the cell cannot stop it, or
// prints into a later cell.

// TestGoroutinesNeverOutliveTheirCell replays what a red team of the
// goroutine supervision found: goroutines hidden in copied text, and a
// goroutine stuck in compiled code calling back into the cell. None may
// print into a later cell; a worker that cannot stop one is replaced, and
// the cell says so.
func TestGoroutinesNeverOutliveTheirCell(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(3 * time.Second) })
	run(t, s, `func spin() { for i := 0; ; i++ { if i%20000000 == 0 { fmt.Println("still alive", i) } } }`)

	// A go statement inside min's arguments is rewritten and supervised.
	r := run(t, s, "x := min(1, func() int { go spin(); return 2 }())")
	// Stopped at the time limit, or (on a loaded machine, past the kill
	// grace) with its worker.
	if r.Success || r.ErrorName != ClassTimeout || !strings.Contains(r.Stderr, "were stopped") && !r.Restarted {
		t.Fatalf("a go statement inside min: %+v", r)
	}
	// The bound of a range over an integer may not hide one: the
	// interpreter ranges over integers itself, and a go statement there is
	// rewritten and supervised like any other.
	r = run(t, s, "for i := range len(func() []int { go spin(); return []int{1} }()) { _ = i }")
	if r.Success || r.ErrorName != ClassTimeout || !strings.Contains(r.Stderr, "were stopped") && !r.Restarted {
		t.Fatalf("a go statement in a range bound: %+v", r)
	}
	// A goroutine inside compiled code calling back into the cell cannot
	// be stopped: the worker is replaced. The callback converts its rune,
	// which keeps it out of the interpreter's int tier (yaegi patch S19):
	// there, a call after the interrupt returns in nanoseconds, and
	// IndexFunc could finish the string within the kill grace.
	r = run(t, s, `var n int
func f(r rune) bool { n += len(string(r)); return false }
big := strings.Repeat("a", 1<<27)
go strings.IndexFunc(big, f)`)
	if !r.Restarted || !strings.Contains(r.Stderr, "did not stop") {
		t.Fatalf("a goroutine stuck in compiled code: %+v", r)
	}
	r = run(t, s, `time.Sleep(300 * time.Millisecond); 1 + 1`)
	if !r.Success || value(r) != "2" || strings.Contains(r.Stdout, "alive") {
		t.Fatalf("the next cell: %+v", r)
	}
}

// TestWaitGroupGoIsSupervised replays a red-team finding: the compiled
// sync.WaitGroup.Go started a goroutine the cell's end did not stop; it
// printed into the next cell and then crashed the worker.
func TestWaitGroupGoIsSupervised(t *testing.T) {
	// The next cell's 1.5 s sleep must fit in the limit.
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(3 * time.Second) })
	r := run(t, s, "var wg sync.WaitGroup\nwg.Go(func() { for i := 0; ; i++ { time.Sleep(300 * time.Millisecond); fmt.Println(\"late\", i) } })")
	// A snippet waits for its goroutines until the cell's limit.
	if r.Success || r.ErrorName != ClassTimeout {
		t.Fatalf("a WaitGroup.Go goroutine that never ends: %+v", r)
	}
	r = run(t, s, "time.Sleep(1500 * time.Millisecond); 1 + 1")
	if !r.Success || value(r) != "2" || strings.Contains(r.Stdout, "late") || r.Restarted {
		t.Fatalf("the next cell: %+v", r)
	}
	// And WaitGroup.Go still does what it is for.
	r = run(t, s, "var wg2 sync.WaitGroup\nn := 0\nvar mu sync.Mutex\nfor i := range 10 { wg2.Go(func() { mu.Lock(); n += i; mu.Unlock() }) }\nwg2.Wait()\nn")
	if !r.Success || value(r) != "45" {
		t.Fatalf("WaitGroup.Go: %+v", r)
	}
}

// TestTopLevelDeferredPanicsAndExits replays a red-team finding: a panic
// in a cell's top-level deferred call was lost (the cell succeeded), and a
// deferred os.Exit ended the cell as a success.
func TestTopLevelDeferredPanicsAndExits(t *testing.T) {
	s := newTestSession(t, nil)
	// As in gc, the second deferred call's panic replaces the first's:
	// go run prints "panic: 1" and then "\tpanic: 0".
	r := run(t, s, "for i := range 2 {\n\tdefer func() { panic(i) }()\n}\nfmt.Println(\"body\")")
	if r.Success || r.ErrorName != ClassPanic || !strings.Contains(r.ErrorMessage, "0 (in a deferred call") || r.Stdout != "body\n" ||
		!slices.Contains(r.Traceback, "panic: 1") || !slices.Contains(r.Traceback, "\tpanic: 0") {
		t.Fatalf("a panicking deferred call: %+v", r)
	}
	r = run(t, s, "defer os.Exit(3)\nfmt.Println(\"x\")")
	if r.Success || r.ErrorName != ClassExit || !strings.Contains(r.ErrorMessage, "exit status 3") {
		t.Fatalf("a deferred os.Exit: %+v", r)
	}
	if r = run(t, s, "1 + 1"); !r.Success || value(r) != "2" {
		t.Fatalf("the next cell: %+v", r)
	}
}

// TestCleanExitSucceeds checks that os.Exit(0) ends a cell as go run ends a
// program that calls it: successfully, with the output before it, without
// its deferred calls, the statements after it or its goroutines; the
// session goes on.
func TestCleanExitSucceeds(t *testing.T) {
	s := newTestSession(t, nil)
	for _, code := range []string{
		"fmt.Println(\"a\")\ndefer fmt.Println(\"deferred\")\nos.Exit(0)\nfmt.Println(\"after\")",
		"package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"a\")\n\tdefer fmt.Println(\"deferred\")\n\tos.Exit(0)\n}",
		"go func() { fmt.Println(\"a\"); os.Exit(0) }()\nselect {}",
	} {
		r := run(t, s, code)
		if !r.Success || r.ErrorName != "" || r.Stdout != "a\n" || r.Restarted {
			t.Errorf("%q: %+v; want success with stdout \"a\\n\"", code, r)
		}
	}
	if r := run(t, s, "1 + 1"); !r.Success || value(r) != "2" {
		t.Fatalf("the next cell: %+v", r)
	}
}

// TestInterruptedCellNeverRunsAgain replays issue 30's hole 5: yaegi
// registers a top-level call of a function literal as the package's main,
// which every later evaluation runs again; after a cell's end the worker
// declares an empty main (forgetMain), but after an interrupted cell its
// health check (an evaluation) came first, and re-ran the cell's closure
// outside any cell: the goroutine it started printed into later cells (or
// spun, 1.7 cores with no cell running).
func TestInterruptedCellNeverRunsAgain(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(2 * time.Second) })
	r := run(t, s, `func() {
	go func() {
		for i := 0; ; i++ {
			time.Sleep(100 * time.Millisecond)
			fmt.Println("ghost", i)
		}
	}()
}()`)
	if r.Success || r.ErrorName != ClassTimeout || r.Restarted {
		t.Fatalf("a cell whose goroutine never ends: %+v; want a Timeout that keeps the session", r)
	}
	r = run(t, s, "time.Sleep(time.Second)\n1 + 1")
	if !r.Success || value(r) != "2" || strings.Contains(r.Stdout, "ghost") || r.Restarted {
		t.Fatalf("the next cell: %+v; the interrupted cell ran again", r)
	}
	if busy := workerBusy(t, s, 500*time.Millisecond); busy > 0.3 {
		t.Errorf("the idle worker used %.0f%% of a core after the cells ended", busy*100)
	}
}

// TestContextParentsDeclaredInCells: context.WithCancel (and every
// constructor that takes a parent) watches a parent it does not know on a
// goroutine of its own and calls the parent's Err and Value methods there.
// With a Context declared in the cell, that compiled goroutine ran cell
// code the cell's end never stopped: an Err that loops kept a core busy
// while the kernel was idle, for the worker's whole hour of CPU.
func TestContextParentsDeclaredInCells(t *testing.T) {
	s := newTestSession(t, nil)
	run(t, s, `type C struct{ ch chan struct{} }
func (c C) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c C) Done() <-chan struct{} { return c.ch }
func (c C) Err() error { for {} }
func (c C) Value(k any) any { return nil }`)
	for _, code := range []string{
		"c := C{make(chan struct{})}\nctx, cancel := context.WithCancel(c)\nclose(c.ch)",
		"c := C{make(chan struct{})}\nctx, cancel := context.WithTimeout(context.WithValue(c, 1, 2), time.Hour)\nclose(c.ch)",
		// Issue 30, hole 2: the constructors that make a timer took the
		// parent unchecked (the deadlock detector's timer watch had
		// replaced the checked ones): 8.3 s of CPU in the 10 s after an
		// MCP call returned, and the ghost printed into later cells.
		"c := C{make(chan struct{})}\nctx, cancel := context.WithTimeout(c, time.Hour)\nclose(c.ch)",
		"c := C{make(chan struct{})}\nctx, cancel := context.WithTimeoutCause(c, time.Hour, errors.New(\"x\"))\nclose(c.ch)",
		"c := C{make(chan struct{})}\nctx, cancel := context.WithDeadline(c, time.Now().Add(time.Hour))\nclose(c.ch)",
		"c := C{make(chan struct{})}\nctx, cancel := context.WithDeadlineCause(c, time.Now().Add(time.Hour), errors.New(\"x\"))\nclose(c.ch)",
		"c := C{make(chan struct{})}\nctx, cancel := context.WithCancelCause(c)\nclose(c.ch)",
		"c := C{make(chan struct{})}\nctx := context.WithoutCancel(c)\nclose(c.ch)",
	} {
		r := run(t, s, code)
		if r.Success || r.ErrorName != ClassPanic || !strings.Contains(r.ErrorMessage, "declared in the cell") {
			t.Errorf("%s\n%v %s: %s; want the parent refused", code, r.Success, r.ErrorName, r.ErrorMessage)
		}
		// Nothing of the cell may run once it has ended.
		if busy := workerBusy(t, s, 500*time.Millisecond); busy > 0.3 {
			t.Errorf("%s\nthe idle worker used %.0f%% of a core after the cell ended", code, busy*100)
		}
	}
	// Contexts of the context package still make children.
	r := run(t, s, "ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), \"k\", 1), time.Hour)\ncancel()\nctx.Err()")
	if !r.Success || value(r) != "context canceled" {
		t.Fatalf("%+v", r)
	}
}

// workerBusy returns the share of one core the session's worker used
// over d.
func workerBusy(t *testing.T, s *Session, d time.Duration) float64 {
	t.Helper()
	ticks := func() int {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.p.cmd.Process.Pid))
		if err != nil {
			t.Skipf("reading the worker's CPU time: %v", err)
		}
		// The fields after the command name: utime and stime are 12th and 13th.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		return u + s
	}
	before := ticks()
	time.Sleep(d)
	return float64(ticks()-before) / 100 / d.Seconds() // USER_HZ is 100 on Linux
}

// TestInterruptedGoroutineBombKeepsTheSession: an interrupt stops a
// cell's goroutines, which then unwind; thousands of them wait for a
// processor to do so, and on a loaded host that takes a while. The worker
// took such goroutines, runnable but not yet run, for goroutines stuck
// inside compiled code: it condemned itself with that false message and
// the session's variables were lost (8 of 10 goroutine bombs interrupted
// under load), or it looked at them with stack dumps so costly that it
// did not answer within the kill grace and was killed. Goroutines blocked
// for good in a lock never end, and are harmless: the worker is kept.
func TestInterruptedGoroutineBombKeepsTheSession(t *testing.T) {
	for _, tc := range []struct{ name, code string }{
		{"blocked on a channel", "ch := make(chan int)\nfor range 5000 {\n\tgo func() { <-ch }()\n}\nfmt.Println(\"started\")\ntime.Sleep(time.Hour)"},
		{"blocked in select", "ch := make(chan int)\nfor range 5000 {\n\tgo func() { select { case <-ch: } }()\n}\nfmt.Println(\"started\")\ntime.Sleep(time.Hour)"},
		{"blocked in a lock", "var mu sync.Mutex\nmu.Lock()\nfor range 2000 {\n\tgo func() { mu.Lock() }()\n}\nfmt.Println(\"started\")\ntime.Sleep(time.Hour)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// What is tested is the verdict (stopped goroutines are not
			// taken for stuck ones), not how fast thousands of them stop:
			// on a loaded machine that took more than the 2 s default
			// kill grace, and the supervisor killed the worker first.
			s := newTestSession(t, func(l *Limits) {
				l.CellTimeout = testenv.Scale(time.Minute)
				l.KillGrace = testenv.Scale(15 * time.Second)
			})
			run(t, s, "kept := 7")
			r := interruptWhenPrinted(t, s, tc.code, "started")
			if r.Success || r.ErrorName != ClassInterrupted || r.Restarted || strings.Contains(r.Stderr, "compiled code") {
				t.Fatalf("%+v; want Interrupted, the worker kept", r)
			}
			if r := run(t, s, "kept"); value(r) != "7" {
				t.Fatalf("the session's variables were lost: %+v", r)
			}
		})
	}
}

// TestInterruptedGoroutineInCompiledCodeCondemnsTheWorker: a goroutine
// inside a compiled call cannot be stopped, and runs on after its cell
// (spending the worker's CPU, calling back into the cell): the worker is
// replaced, and the cell says why. Each goroutine says when it is about to
// make its call, and the cell is interrupted then.
func TestInterruptedGoroutineInCompiledCodeCondemnsTheWorker(t *testing.T) {
	for _, tc := range []struct{ name, code string }{
		// A scan of 256 MiB calls back once per byte whatever the callback
		// answers: interrupted, the callback returns at once, and the scan
		// goes on for seconds. (A sort calling back stops much sooner: an
		// interrupted less answers false, and pdqsort takes that for equal
		// elements, which it partitions in a few passes.)
		{"a scan calling back into the cell", `huge := strings.Repeat("x", 1<<28)
go func() {
	fmt.Println("scanning")
	strings.IndexFunc(huge, func(r rune) bool { return r == 'y' })
}()
time.Sleep(time.Hour)`},
		{"a regexp on a huge input", `huge := strings.Repeat("x", 1<<28)
re := regexp.MustCompile("(x+x+)+y")
go func() {
	fmt.Println("matching")
	re.MatchString(huge)
}()
time.Sleep(time.Hour)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(time.Minute) })
			run(t, s, "kept := 7")
			marker := "scanning"
			if strings.Contains(tc.code, "matching") {
				marker = "matching"
			}
			r := interruptWhenPrinted(t, s, tc.code, marker)
			if r.Success || !r.Restarted || !strings.Contains(r.Stderr, "inside compiled code and did not stop") {
				t.Fatalf("%+v; want the worker replaced, and the cell saying why", r)
			}
			if r := run(t, s, "1 + 1"); value(r) != "2" {
				t.Fatalf("the next cell: %+v", r)
			}
		})
	}
}

// interruptWhenPrinted runs code in s and interrupts it once its output
// contains marker.
func interruptWhenPrinted(t *testing.T, s *Session, code, marker string) *Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var out strings.Builder
	r, err := s.Run(ctx, code, &Handlers{Stream: func(name, text string) {
		mu.Lock()
		defer mu.Unlock()
		out.WriteString(text)
		if strings.Contains(out.String(), marker) {
			cancel()
		}
	}})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if ctx.Err() == nil {
		t.Fatalf("the cell ended before it printed %q: %+v", marker, r)
	}
	return r
}
