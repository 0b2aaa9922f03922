package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// A cell that attacks the sandbox or gets stuck is contained: it ends with
// a clear error at its limit, nothing of it leaks, and the next cell runs.

// hostileCase is a cell that attacks the sandbox.
type hostileCase struct {
	name    string
	setup   []string // cells run first, which must succeed
	code    string
	limits  func(*Limits)
	cancel  time.Duration // cancel the cell's context after this long
	errName string        // expected ErrorName; "" means success
	errText string        // contained in the error message
	check   func(t *testing.T, r *Result)
	lost    bool // the worker restarts: variables are lost
}

// hostileCases are what TestHostileCells runs: each cell an attacker or
// a careless user might write, and what the sandbox must make of it.
func hostileCases() []hostileCase {
	// A 1 s limit, and the default grace (scaled) for the interrupt to
	// stop the cell before its worker is killed.
	short := func(l *Limits) { l.CellTimeout = time.Second; l.KillGrace = testenv.Scale(2 * time.Second) }
	return []hostileCase{
		{name: "read /etc/passwd via os", code: `import "os"` + "\n" + `b, _ := os.ReadFile("/etc/passwd"); string(b)`, errName: "CompileError", errText: `os.ReadFile`},
		{name: "read /proc/self/environ via ioutil", code: `import "io/ioutil"` + "\n" + `ioutil.ReadFile("/proc/self/environ")`, errName: "NotAllowed", errText: "cells may import only"},
		{name: "read a file next to the kernel via os", code: `os.ReadFile("kernel.json")`, errName: "CompileError", errText: "has no symbol ReadFile"},
		{name: "environment secret via os", code: `os.Getenv("SBIR_TEST_SECRET_TOKEN") + strings.Join(os.Environ(), ",") + strings.Join(os.Args, ",")`, check: func(t *testing.T, r *Result) {
			// os.Args is a program's run without arguments: its name only.
			if !r.Success || r.Value["text/plain"] != `"cell"` {
				t.Errorf("cells must see an empty environment and no argv but the name \"cell\"; got %+v", r)
			}
		}},
		{name: "environment secret", code: `import "syscall"` + "\n" + `syscall.Getenv("SBIR_TEST_SECRET_TOKEN")`, errName: "NotAllowed", errText: `import "syscall" is not allowed`},
		{name: "tcp egress", code: `import "net"` + "\n" + `net.Dial("tcp", "1.1.1.1:80")`, errName: "NotAllowed", errText: `import "net" is not allowed`},
		{name: "udp egress", code: `import "net"` + "\n" + `net.Dial("udp", "1.1.1.1:53")`, errName: "NotAllowed", errText: `import "net" is not allowed`},
		{name: "spawn a process", code: `import "os/exec"` + "\n" + `exec.Command("sh").Run()`, errName: "NotAllowed", errText: `import "os/exec" is not allowed`},
		{name: "stdlib self-reference", code: `import "github.com/traefik/yaegi/stdlib"` + "\n" + `stdlib.Symbols`, errName: "NotAllowed", errText: "cells may import only"},
		{name: "reflect escape", code: `import "reflect"` + "\n" + `reflect.ValueOf(fmt.Println)`, errName: "NotAllowed", errText: `import "reflect" is not allowed`},
		{name: "unsafe", code: `unsafe.Pointer(nil)`, errName: "NotAllowed", errText: "unsafe"},
		{name: "io.EOF = nil", setup: []string{`io.EOF = nil`}, code: `r := strings.NewReader("x"); b, err := io.ReadAll(r); fmt.Println(string(b), err)`, check: wantStdout("x <nil>\n")},
		{name: "for {}", setup: []string{`kept := 7`}, code: `for {}`, limits: short, errName: "Timeout", errText: "exceeded the 1s time limit"},
		// Spinning goroutines are stopped by the interrupt only as the
		// scheduler reaches each of them; thousands take longer than the
		// grace period, and the worker is replaced.
		{name: "goroutine bomb", code: `for { go func() { for {} }() }`, errName: "Timeout", errText: "worker was killed", lost: true},
		{name: "panic in a goroutine", code: `go func() { panic("boom") }()
time.Sleep(time.Second)`, errName: "Panic", errText: "boom (in a goroutine the cell started)"},
		// A generous limit: the 256 MiB stack takes a while to fill on a
		// loaded host.
		{name: "infinite recursion", code: `func f(n int) int { return f(n+1) + 1 }
f(0)`, limits: generous, errName: "StackOverflow", errText: "recursed too deeply", lost: true},
		{name: "interrupted top-level sleep", code: `time.Sleep(3 * time.Second)
fmt.Println("MUST NOT APPEAR")`, cancel: 300 * time.Millisecond, errName: "Interrupted"},
		// Blocked for good: reported as gc does, long before the limit.
		{name: "deadlock", code: `ch := make(chan int)
<-ch`, limits: generous, errName: "Deadlock", errText: "all goroutines are asleep - deadlock!"},
		// Blocked on a timer that would fire in an hour: not a deadlock,
		// so the interrupt ends it.
		{name: "select forever", code: `select { case <-time.After(time.Hour): }`, cancel: 300 * time.Millisecond, errName: "Interrupted"},
		{name: "blocked until the limit", code: `<-time.After(time.Hour)`, limits: short, errName: "Timeout", errText: "time limit"},
		// Two chains just under cellprep's 10,000-operator bound.
		{name: "slow compile killed", code: "x := 0" + strings.Repeat(" + 1", 9999) + "\ny := 0" + strings.Repeat(" + 1", 9999), limits: func(l *Limits) { l.CellTimeout = 300 * time.Millisecond; l.KillGrace = 200 * time.Millisecond }, errName: "Timeout", errText: "time limit", lost: true},
		{name: "huge array type", code: `var a [1 << 40]byte; len(a)`, errName: "NotAllowed", errText: "array of 1099511627776 elements"},
		{name: "recursive type", code: `type T struct{ a T }`, errName: "NotAllowed", errText: "recursive type T"},
	}
}

// TestHostileCells runs the hostile-cell suite. For each: the cell
// is contained with a clear error, nothing leaks, and the next cell runs.
func TestHostileCells(t *testing.T) {
	cases := hostileCases()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSession(t, tc.limits)
			for _, c := range tc.setup {
				if r := run(t, s, c); !r.Success {
					t.Fatalf("setup %q: %s: %s", c, r.ErrorName, r.ErrorMessage)
				}
			}
			ctx := context.Background()
			if tc.cancel > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.cancel)
				defer cancel()
			}
			r, err := s.Run(ctx, tc.code, nil)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if tc.errName == "" && !r.Success {
				t.Fatalf("failed: %s: %s", r.ErrorName, r.ErrorMessage)
			}
			if tc.errName != "" {
				if r.Success || r.ErrorName != tc.errName || !strings.Contains(r.ErrorMessage, tc.errText) {
					t.Fatalf("got success=%v %s: %s\nwant %s containing %q", r.Success, r.ErrorName, r.ErrorMessage, tc.errName, tc.errText)
				}
				if len(r.Traceback) == 0 {
					t.Errorf("no traceback")
				}
			}
			if tc.lost != r.Restarted {
				t.Errorf("Restarted = %v, want %v (%s)", r.Restarted, tc.lost, r.ErrorMessage)
			}
			if tc.lost && !strings.Contains(r.Err().Error(), "variables of this session were lost") {
				t.Errorf("error does not say variables were lost: %v", r.Err())
			}
			for _, leak := range []string{"root:x:0:0", "hunter2", "MUST NOT APPEAR", "hmac-secret"} {
				if strings.Contains(r.Stdout+r.Stderr+r.ErrorMessage+value(r), leak) {
					t.Errorf("leaked %q", leak)
				}
			}
			if tc.check != nil {
				tc.check(t, r)
			}
			// The next cell answers, and sees the session's variables
			// unless the worker was replaced.
			next := run(t, s, "1 + 1")
			if !next.Success || value(next) != "2" {
				t.Fatalf("next cell: success=%v %s: %s value %q", next.Success, next.ErrorName, next.ErrorMessage, value(next))
			}
			if len(tc.setup) > 0 && strings.HasPrefix(tc.setup[0], "kept") {
				if r := run(t, s, "kept"); value(r) != "7" {
					t.Errorf("variables lost after %s: %s %s", tc.name, r.ErrorName, r.ErrorMessage)
				}
			}
			// A late write of the interrupted cell must never show up: had
			// its 3 s sleep survived the interrupt, it would end while
			// this cell sleeps (in the same worker), and print into it.
			if tc.cancel > 0 {
				if r := run(t, s, "time.Sleep(3 * time.Second)\nfmt.Println(\"after\")"); strings.Contains(r.Stdout, "MUST NOT APPEAR") || r.Stdout != "after\n" {
					t.Errorf("late output of the interrupted cell: %q", r.Stdout)
				}
			}
		})
	}
}

func wantStdout(want string) func(*testing.T, *Result) {
	return func(t *testing.T, r *Result) {
		if r.Stdout != want {
			t.Errorf("stdout %q, want %q", r.Stdout, want)
		}
	}
}
