package worker_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// TestDeadlock runs cells through a real worker: ones whose goroutines all
// block for good end at once with gc's fatal error, ones whose statements
// are done while goroutines stay blocked end quietly (as main returning
// ends a program), and ones that wait for a timer, a sleep or a goroutine
// still computing are never taken for a deadlock.
func TestDeadlock(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a sandbox session")
	}
	const limit = 20 * time.Second
	ctx, s := startSession(t, 10*limit, limit)

	const deadlock = "all goroutines are asleep - deadlock!"
	for _, c := range []struct {
		name, code string
		stdout     string
		deadlock   bool
		// restarts: the main flow is parked in a sync primitive, which
		// no interrupt can end, so the worker is replaced (as after a
		// timeout today).
		restarts bool
	}{
		// Deadlocks, as gc reports them.
		{"send-no-receiver", `ch := make(chan int)
fmt.Println("about to block")
ch <- 1`, "about to block\n", true, false},
		{"program", `package main

import "fmt"

func main() {
	ch := make(chan int)
	go func() { ch <- 1 }()
	fmt.Println(<-ch)
	<-ch
}`, "1\n", true, false},
		{"goroutines-and-main-blocked", `ch, done := make(chan int), make(chan bool)
for range 3 {
	go func() { <-ch }()
}
<-done`, "", true, false},
		{"select-no-cases", `select {}`, "", true, false},
		{"nil-channel", `var c chan int
<-c`, "", true, false},
		{"waitgroup", `var wg sync.WaitGroup
wg.Add(2)
go wg.Done()
wg.Wait()`, "", true, true},
		{"timer-fired-then-deadlock", `<-time.After(100 * time.Millisecond)
fmt.Println("fired")
ch := make(chan int)
<-ch`, "fired\n", true, false},
		// The statements are done; blocked goroutines end with the cell.
		{"blocked-goroutines-after-main", `ch := make(chan int)
go func() { ch <- 1 }()
go func() { ch <- 2 }()
fmt.Println(<-ch > 0)`, "true\n", false, false},
		// Not deadlocks: something will wake the cell.
		{"sleeping-goroutine", `ch := make(chan int)
go func() { time.Sleep(700 * time.Millisecond); ch <- 1 }()
fmt.Println(<-ch)`, "1\n", false, false},
		{"time-after", `<-time.After(700 * time.Millisecond)
fmt.Println("after")`, "after\n", false, false},
		{"timer-reset", `t := time.NewTimer(20 * time.Millisecond)
t.Reset(700 * time.Millisecond)
<-t.C
fmt.Println("timer")`, "timer\n", false, false},
		{"ticker", `tk := time.NewTicker(250 * time.Millisecond)
for range 3 {
	<-tk.C
}
tk.Stop()
fmt.Println("ticks")`, "ticks\n", false, false},
		{"context-timeout", `ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
defer cancel()
<-ctx.Done()
fmt.Println(ctx.Err())`, "context deadline exceeded\n", false, false},
		{"computing-goroutine", `ch := make(chan int)
go func() {
	s := 0
	for i := range 3_000_000 {
		s += i % 7
	}
	ch <- s
}()
fmt.Println(<-ch > 0)`, "true\n", false, false},
		{"waitgroup-sleepers", `var wg sync.WaitGroup
for range 3 {
	wg.Add(1)
	go func() { defer wg.Done(); time.Sleep(500 * time.Millisecond) }()
}
wg.Wait()
fmt.Println("done")`, "done\n", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := s.Run(ctx, c.code, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Stdout != c.stdout {
				t.Errorf("stdout %q, want %q", res.Stdout, c.stdout)
			}
			if c.deadlock {
				if res.Success || res.ErrorName != sandbox.ClassDeadlock || !strings.HasPrefix(res.ErrorMessage, deadlock+"\n") {
					t.Fatalf("got success=%v %s: %s; want %s: %s", res.Success, res.ErrorName, res.ErrorMessage, sandbox.ClassDeadlock, deadlock)
				}
			} else if !res.Success {
				t.Fatalf("failed: %s: %s (stderr %q)", res.ErrorName, res.ErrorMessage, res.Stderr)
			}
			if res.Stderr != "" {
				t.Errorf("stderr %q, want none", res.Stderr)
			}
			if res.Restarted != c.restarts {
				t.Errorf("worker restarted = %v, want %v", res.Restarted, c.restarts)
			}
		})
	}
}
