package supervise

import (
	"context"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
)

// slow scales a test's wait by SBIR_TEST_SLOW (default 1) for loaded
// machines.
func slow(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv("SBIR_TEST_SLOW"), 64); err == nil && f > 0 {
		return time.Duration(float64(d) * f)
	}
	return d
}

// TestInterpreterStackFormat runs interpreted code that blocks, the way a
// cell does, takes real stack dumps and checks that the detector reads
// them: the interpreter's function names it keys on (mainFrame, execFrame,
// runFrame, interpFrame) and this package's own (finishMarker, cellGoFrame) are in
// them, and judge reaches the verdict a Go program would. An interpreter
// upgrade that renames those functions fails here, not in users' cells.
func TestInterpreterStackFormat(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  string   // evaluated first, to completion
		block  string   // evaluated and left blocked
		frames []string // must appear in the dump
		want   verdict
		// compiled: block is compiled first and run by ExecuteWithContext,
		// as the worker runs a cell's parts.
		compiled bool
	}{
		{
			name:   "main flow blocked",
			block:  "ch := make(chan int)\n<-ch",
			frames: []string{mainFrame, runFrame},
			want:   verdictDeadlock,
		},
		{
			name:     "main flow blocked, compiled first",
			block:    "ch := make(chan int)\n<-ch",
			frames:   []string{execFrame, runFrame},
			want:     verdictDeadlock,
			compiled: true,
		},
		{
			name:   "main flow and a goroutine blocked",
			block:  "a, b := make(chan int), make(chan int)\n_sbir.Go(func() { <-a })\n<-b",
			frames: []string{mainFrame, runFrame, cellGoFrame},
			want:   verdictDeadlock,
		},
		{
			name:   "statements done, a goroutine blocked",
			setup:  "a := make(chan int)\n_sbir.Go(func() { a <- 1 })",
			block:  "_sbir.Finish()",
			frames: []string{mainFrame, finishMarker, cellGoFrame},
			want:   verdictStuck,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			g := &Goroutines{}
			cell := g.Begin(ctx, cancel)
			helpers := g.Exports(func() []string { return nil })
			helpers["Finish"] = reflect.ValueOf(func() { cell.Finish(ctx, false, cancel) })
			in := interp.New(interp.Options{})
			if err := in.Use(interp.Exports{"_sbir/_sbir": helpers}); err != nil {
				t.Fatal(err)
			}
			if _, err := in.Eval(`import "_sbir"`); err != nil {
				t.Fatal(err)
			}
			if tc.setup != "" {
				if _, err := in.EvalWithContext(ctx, tc.setup); err != nil {
					t.Fatalf("setup: %v", err)
				}
			}
			done := make(chan error, 1)
			go func() {
				if tc.compiled {
					p, err := in.CompileWithContext(ctx, tc.block)
					if err == nil {
						_, err = in.ExecuteWithContext(ctx, p)
					}
					done <- err
					return
				}
				_, err := in.EvalWithContext(ctx, tc.block)
				done <- err
			}()
			var buf []byte
			var dump []byte
			deadline := time.Now().Add(slow(10 * time.Second))
			for {
				d, ok := dumpAll(&buf)
				if !ok {
					t.Fatal("the stack dump does not fit")
				}
				dump = d
				// A goroutine not yet scheduled shows no interpreter
				// frame: wait for every expected frame too.
				if judge(dump) == tc.want && containsAll(string(dump), tc.frames) {
					break
				}
				select {
				case err := <-done:
					t.Fatalf("the evaluation ended (%v) instead of blocking", err)
				default:
				}
				if time.Now().After(deadline) {
					t.Fatalf("judge returned %d, want %d, or a frame of %q is missing: the stack format the detector reads may have changed:\n%s", judge(dump), tc.want, tc.frames, interpreted(dump))
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// interpreted returns the goroutines of dump that run interpreted code,
// for failure messages.
func interpreted(dump []byte) string {
	var out []string
	for _, g := range strings.Split(string(dump), "\n\n") {
		if strings.Contains(g, "yaegi/interp") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}
