package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// The tests in this file replay what a second red team of the cell
// sandbox found: each input is what an anonymous user can send.

// displayBudget is the worker's per-cell display budget (16 MiB): every
// byte a cell makes the kernel send as display messages is charged to it.
const displayBudget = 16 << 20

// TestDisplayIDsCountAgainstTheBudget: a display id travels in every
// display and update message (transient.display_id) but was not charged,
// so forty handles with 12 MB ids sent 480 MB to the kernel and on to every
// client of the session, past the 16 MiB display budget.
func TestDisplayIDsCountAgainstTheBudget(t *testing.T) {
	s := newTestSession(t, generous)
	shown, size := 0, 0
	h := &Handlers{Display: func(d Display) {
		shown++
		size += len(d.DisplayID)
		for k, v := range d.Data {
			s, _ := v.(string)
			size += len(k) + len(s)
		}
	}}
	r, err := s.Run(context.Background(), `id := strings.Repeat("i", 1<<20)
for i := 0; i < 40; i++ { display.NewHandle(id + fmt.Sprint(i)).Markdown("x") }`, h)
	if err != nil || !r.Success {
		t.Fatalf("%v %+v", err, r)
	}
	if size > displayBudget {
		t.Errorf("%d displays carried %d bytes, over the %d-byte display budget", shown, size, displayBudget)
	}
	if !r.Truncated || !strings.Contains(r.Stderr, "displays dropped") {
		t.Errorf("no note of dropped displays: truncated %v, stderr %q", r.Truncated, r.Stderr)
	}
}

// TestClearOutputIsBounded: every display.Clear became a clear_output
// message on the kernel's iopub socket, uncharged: a loop of a million
// clears made the kernel sign and publish a million messages in under
// three seconds (about 11 million in a 30 s cell), burning the kernel's CPU
// and every client's bandwidth instead of the cell's own budget.
func TestClearOutputIsBounded(t *testing.T) {
	s := newTestSession(t, generous)
	clears := 0
	r, err := s.Run(context.Background(), `for i := 0; i < 100000; i++ { display.Clear(i%2 == 0) }
fmt.Println("done")`, &Handlers{Clear: func(bool) { clears++ }})
	if err != nil || !r.Success || r.Stdout != "done\n" {
		t.Fatalf("%v %+v", err, r)
	}
	// Charged as a display without data (512 bytes): at most 32,768.
	if clears > displayBudget/512 {
		t.Errorf("%d clear_output messages passed the display budget (at most %d)", clears, displayBudget/512)
	}
	if !r.Truncated || !strings.Contains(r.Stderr, "dropped") {
		t.Errorf("no note of dropped clears: truncated %v, stderr %q", r.Truncated, r.Stderr)
	}
	// A progress display that clears a few thousand times still works.
	clears = 0
	r, err = s.Run(context.Background(), `for i := 0; i < 2000; i++ { display.Clear(true); fmt.Println(i) }`, &Handlers{Clear: func(bool) { clears++ }})
	if err != nil || !r.Success || clears != 2000 || r.Truncated {
		t.Fatalf("2,000 clears: %d passed, %v %+v", clears, err, r)
	}
}

// TestTemplateMethodsCannotReadFiles: the symbol table removes
// template.ParseFiles and ParseGlob because they read host files, but the
// methods of the same names on *template.Template stay callable, from cell
// code and from a template's own text (text/template calls methods of its
// data by reflection); the table cannot remove a compiled type's methods.
// Only Landlock stood between them and the host's files: on hosts without
// it, and here for the files Landlock leaves readable to a cgo build's
// loader (/etc/ld.so.cache, /lib, ...), a cell read and printed a host file.
// A worker without a package environment must open no file at all.
func TestTemplateMethodsCannotReadFiles(t *testing.T) {
	const file = "/etc/ld.so.cache" // readable to a cgo build's worker under Landlock
	if _, err := os.Stat(file); err != nil {
		t.Skipf("%s: %v", file, err)
	}
	s := newTestSession(t, nil)
	for _, code := range []string{
		`t, err := template.New("x").ParseFiles("` + file + `")
var b strings.Builder
if err == nil { t.ExecuteTemplate(&b, "ld.so.cache", nil); fmt.Printf("READ %d bytes", b.Len()) }`,
		`import ht "html/template"
if _, err := ht.New("x").ParseFiles("` + file + `"); err == nil { fmt.Print("READ") }`,
		`f := template.New("x").ParseGlob
if _, err := f("` + file + `"); err == nil { fmt.Print("READ") }`,
		// The method called by the template engine, by reflection.
		`t := template.Must(template.New("x").Parse("{{with .ParseFiles \"` + file + `\"}}{{len .Templates}}{{end}}"))
if err := t.Execute(io.Discard, template.New("y")); err == nil { fmt.Print("READ") }`,
	} {
		r := run(t, s, code)
		if strings.Contains(r.Stdout, "READ") {
			t.Errorf("%s\nprinted %.200q: a template method read a host file", code, r.Stdout)
		}
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

// TestPanicInDeepRecursion: a panic 12,000 calls deep (a recursive walk
// that fails at its bottom; the stack limit allows far more) took yaegi
// quadratic time to unwind: every interpreted frame recovers the panic and
// panics again, and each new panic makes the Go runtime walk the whole
// stack. At 16,000 calls it took 35 s in compiled code that no interrupt
// reaches, so the cell hit its time limit, the worker was killed and the
// session's variables were lost, for an ordinary panic.
//
// A speed property, so the margins are wide both ways: 20,000 calls unwind
// in 5.5 s at a load of 35 on 2 cores (linear: 2.2 s for 12,000, 11 s for
// 40,000), and took about 55 s on a quiet machine when quadratic; the limit
// is 20 s, scaled by SBIR_TEST_SLOW.
func TestPanicInDeepRecursion(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(20 * time.Second) })
	run(t, s, "kept := 7")
	r := run(t, s, "func f(n int) int { if n == 0 { panic(\"deep\") }; return f(n-1) + 1 }\nf(20000)")
	if r.Success || r.ErrorName != ClassPanic || !strings.Contains(r.ErrorMessage, "deep") || r.Restarted {
		t.Errorf("got %s: %s (restarted %v); want the cell's Panic: deep", r.ErrorName, r.ErrorMessage, r.Restarted)
	}
	if r := run(t, s, "kept"); value(r) != "7" {
		t.Errorf("the session's variables were lost: %s %s", r.ErrorName, r.ErrorMessage)
	}
}

// TestJoinTooLargeForTheHeap: Join bounds the rows it makes (4 Mi) but
// not their size. Joining the sample's 2,000 awards with themselves on
// Phase makes about two million rows of 83 columns, the Abstracts copied
// into each: the worker passed its 1 GiB heap limit and was killed, and
// the session's variables were lost, for one call whose size Join could
// tell before copying anything.
func TestJoinTooLargeForTheHeap(t *testing.T) {
	s := newTestSession(t, generous)
	run(t, s, "kept := 7")
	r := run(t, s, `a := award_data.All()
a.Join(a, "inner", "Phase").Err()`)
	if !r.Success || !strings.Contains(value(r), "Join") || !strings.Contains(value(r), "memory") || r.Restarted {
		t.Errorf("got %v %s: %s, value %q (restarted %v); want Join's error about memory", r.Success, r.ErrorName, r.ErrorMessage, value(r), r.Restarted)
	}
	if r := run(t, s, "kept"); value(r) != "7" {
		t.Errorf("the session's variables were lost: %s %s", r.ErrorName, r.ErrorMessage)
	}
	// A join that fits is made.
	r = run(t, s, `firms := award_data.GroupBy("Company").Agg("count() as Awards")
award_data.All().Join(firms, "left", "Company").Len()`)
	if !r.Success || value(r) != "2000" {
		t.Errorf("a join that fits: %+v", r)
	}
}
