package sandbox

import (
	"strings"
	"testing"
	"time"
)

// TestGoroutinesNeverOutliveTheirCell replays what a red team of the
// goroutine supervision found: goroutines hidden in copied text, and a
// goroutine stuck in compiled code calling back into the cell. None may
// print into a later cell; a worker that cannot stop one is replaced, and
// the cell says so.
func TestGoroutinesNeverOutliveTheirCell(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = 3 * time.Second })
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
	// be stopped: the worker is replaced.
	r = run(t, s, `var n int
func f(r rune) bool { n++; return false }
big := strings.Repeat("a", 1<<27)
go strings.IndexFunc(big, f)`)
	if !r.Restarted || !strings.Contains(r.Stderr, "did not stop") {
		t.Fatalf("a goroutine stuck in compiled code: %+v", r)
	}
	time.Sleep(500 * time.Millisecond)
	r = run(t, s, `time.Sleep(300 * time.Millisecond); 1 + 1`)
	if !r.Success || value(r) != "2" || strings.Contains(r.Stdout, "alive") {
		t.Fatalf("the next cell: %+v", r)
	}
}

// TestLoopCopyKeepsChangesThroughFields replays a red-team finding: the
// per-iteration copy of a three-clause loop's variable hid changes the body
// makes through a field, an element or a pointer method from the loop's
// condition, so a loop that ends under go run spun until the time limit.
func TestLoopCopyKeepsChangesThroughFields(t *testing.T) {
	s := newTestSession(t, nil)
	run(t, s, "type C struct{ n int }\nfunc (c *C) Inc() { c.n++ }")
	for _, c := range []struct{ code, want string }{
		{"for c := (C{}); c.n < 3; { f := func() { fmt.Print(c.n) }; f(); c.n++ }", "012"},
		{"for c := (C{}); c.n < 3; c.Inc() { f := func() { fmt.Print(c.n) }; f(); c.Inc() }", "02"},
		{"for a := ([1]int{}); a[0] < 3; { f := func() { fmt.Print(a[0]) }; f(); a[0]++ }", "012"},
		{"var fs []func()\nfor _, v := range []C{{1}, {2}} { fs = append(fs, func() { fmt.Print(v.n) }); v.n = 9 }\nfor _, f := range fs { f() }", "99"},
	} {
		r := run(t, s, c.code)
		if !r.Success || r.Stdout != c.want {
			t.Errorf("%s: got %.80q (%s %s), want %q as go run prints", c.code, r.Stdout, r.ErrorName, r.ErrorMessage, c.want)
		}
	}
}

// TestCellsCannotReplaceTheHelpers replays a red-team finding: a cell's
// top-level `_sbir` took the place of the helper package, so that the go
// and defer statements of later cells called the cell's own functions.
func TestCellsCannotReplaceTheHelpers(t *testing.T) {
	s := newTestSession(t, nil)
	r := run(t, s, "type S struct{ Go func(func()) }\n_sbir := S{Go: func(f func()) { fmt.Println(\"mine\") }}")
	if r.Success || r.ErrorName != ClassNotAllowed {
		t.Fatalf("declaring _sbir: %+v", r)
	}
	r = run(t, s, "ch := make(chan int)\ngo func() { ch <- 1 }()\n<-ch")
	if !r.Success || value(r) != "1" || strings.Contains(r.Stdout, "mine") {
		t.Fatalf("a go statement after: %+v", r)
	}
}

// TestWaitGroupGoIsSupervised replays a red-team finding: the compiled
// sync.WaitGroup.Go started a goroutine the cell's end did not stop; it
// printed into the next cell and then crashed the worker.
func TestWaitGroupGoIsSupervised(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = 2 * time.Second })
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
	r := run(t, s, "for i := range 2 {\n\tdefer func() { panic(i) }()\n}\nfmt.Println(\"body\")")
	if r.Success || r.ErrorName != ClassPanic || !strings.Contains(r.ErrorMessage, "1 (in a deferred call") || r.Stdout != "body\n" {
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
