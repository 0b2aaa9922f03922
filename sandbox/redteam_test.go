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
	// The bound of a range over an integer may not hide one.
	r = run(t, s, "for i := range len(func() []int { go spin(); return []int{1} }()) { _ = i }")
	if r.Success || r.ErrorName != ClassNotAllowed {
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
