package sandbox

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// TestHostileOS checks the OS layers from inside a real worker: each
// escape an interpreter bug could give a cell must fail. A probe that
// succeeds is a failure when a layer that should stop it is active, and
// skips (naming the layer) when the host lacks every such layer.
func TestHostileOS(t *testing.T) {
	const secret = "SBIR_TEST_SECRET_TOKEN"
	t.Setenv(secret, "hunter2")
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	next := filepath.Join(t.TempDir(), "connection.json")
	if err := os.WriteFile(next, []byte(`{"key": "hmac-secret"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, nil)
	results, err := s.probe(wire.ProbeTarget{TCP: tcp.Addr().String(), UDP: udp.LocalAddr().String(), PID: os.Getpid(), Secret: secret, File: next})
	if err != nil {
		t.Fatal(err)
	}
	// Which layers stop each probe (seccomp refuses opening files in a
	// worker without a package environment, as this one is).
	stoppers := map[string][]string{
		"read /etc/passwd":               {"landlock", "seccomp"},
		"read /proc/self/environ":        {"landlock", "seccomp"},
		"read a file next to the kernel": {"landlock", "seccomp"},
		"list /proc":                     {"landlock", "seccomp"},
		"write /tmp":                     {"landlock", "rlimits", "seccomp"},
		"environment secret":             {"worker-process"},
		"tcp connect":                    {"namespaces", "seccomp", "landlock"},
		"udp send":                       {"namespaces", "seccomp"},
		"exec /bin/true":                 {"seccomp", "landlock"},
		"fork":                           {"seccomp"},
	}
	for _, r := range results {
		r := r
		t.Run(r.Name, func(t *testing.T) {
			if r.Blocked {
				return
			}
			layers := stoppers[r.Name]
			if strings.HasPrefix(r.Name, "signal the supervisor") {
				layers = []string{"namespaces", "landlock"}
			}
			var inactive []string
			for _, l := range layers {
				active, detail := layerActive(s, l)
				if active {
					t.Fatalf("%s succeeded (%s) although layer %s is active", r.Name, r.Detail, l)
				}
				inactive = append(inactive, l+": "+detail)
			}
			t.Skipf("%s is possible on this host: it needs a layer that is not active (%s)", r.Name, strings.Join(inactive, "; "))
		})
	}
	if len(results) < 10 {
		t.Errorf("only %d probes ran", len(results))
	}
}

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
	short := func(l *Limits) { l.CellTimeout = time.Second; l.KillGrace = 500 * time.Millisecond }
	slow := func(l *Limits) { l.CellTimeout = 30 * time.Second }
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
		{name: "template ParseFiles", code: `import "text/template"` + "\n" + `template.ParseFiles("/etc/passwd")`, errName: "CompileError", errText: "has no symbol ParseFiles"},
		{name: "io.EOF = nil", setup: []string{`io.EOF = nil`}, code: `r := strings.NewReader("x"); b, err := io.ReadAll(r); fmt.Println(string(b), err)`, check: wantStdout("x <nil>\n")},
		{name: "memory bomb (one allocation)", code: `b := make([]byte, 1<<40); len(b)`, limits: func(l *Limits) { l.HeapBytes = 256 << 20 }, errName: "MemoryError", errText: "256 MiB heap limit", lost: true},
		{name: "memory bomb (chunks)", code: `var keep [][]byte
for {
	keep = append(keep, make([]byte, 16<<20))
}`, limits: func(l *Limits) { l.HeapBytes = 256 << 20 }, errName: "MemoryError", errText: "cell exceeded the 256 MiB heap limit", lost: true},
		// Goroutine stacks are heap memory the watchdog counts: 150
		// blocked goroutines 300 interpreted calls deep held ~240 MB
		// resident under a 64 MiB budget when only objects counted.
		{name: "memory bomb (goroutine stacks)", code: `block := make(chan bool)
var wg sync.WaitGroup
var deep func(n int) int
deep = func(n int) int {
	if n == 0 {
		wg.Done()
		<-block
		return 0
	}
	return deep(n-1) + 1
}
for i := 0; i < 150; i++ {
	wg.Add(1)
	go deep(300)
}
wg.Wait()
"all blocked"`, limits: func(l *Limits) { l.HeapBytes = 64 << 20 }, errName: "MemoryError", errText: "cell exceeded the 64 MiB heap limit", lost: true},
		{name: "for {}", setup: []string{`kept := 7`}, code: `for {}`, limits: short, errName: "Timeout", errText: "exceeded the 1s time limit"},
		// Spinning goroutines are stopped by the interrupt only as the
		// scheduler reaches each of them; thousands take longer than the
		// grace period, and the worker is replaced.
		{name: "goroutine bomb", code: `for { go func() { for {} }() }`, errName: "Timeout", errText: "worker was killed", lost: true},
		{name: "panic in a goroutine", code: `go func() { panic("boom") }()
time.Sleep(time.Second)`, errName: "Panic", errText: "boom (in a goroutine the cell started)"},
		// Generous limits: on a loaded host the 256 MiB stack and the
		// million writes take longer than the default 5 s.
		{name: "infinite recursion", code: `func f(n int) int { return f(n+1) + 1 }
f(0)`, limits: slow, errName: "StackOverflow", errText: "recursed too deeply", lost: true},
		{name: "10 MB of output", code: `for i := 0; i < 1000000; i++ { fmt.Println("0123456789") }`, limits: slow, check: func(t *testing.T, r *Result) {
			const note = "... [output truncated at 1 MiB; dropped 9,951,424 bytes from 904,675 writes]\n"
			if !r.Truncated || !strings.HasSuffix(r.Stdout, note) {
				t.Errorf("not truncated: %d bytes, ends %q", len(r.Stdout), r.Stdout[max(0, len(r.Stdout)-100):])
			}
			if len(r.Stdout) != 1<<20+len(note) {
				t.Errorf("%d bytes of stdout, over the cap", len(r.Stdout))
			}
		}},
		{name: "200 KB of code", code: "x := 1\n" + strings.Repeat("// padding padding padding padding\n", 6000), errName: "CodeTooLarge", errText: "the limit is 100 KiB"},
		{name: "interrupted top-level sleep", code: `time.Sleep(3 * time.Second)
fmt.Println("MUST NOT APPEAR")`, cancel: 300 * time.Millisecond, errName: "Interrupted"},
		// Blocked for good: reported as gc does, long before the limit.
		{name: "deadlock", code: `ch := make(chan int)
<-ch`, limits: func(l *Limits) { l.CellTimeout = time.Minute }, errName: "Deadlock", errText: "all goroutines are asleep - deadlock!"},
		// Blocked on a timer that would fire in an hour: not a deadlock,
		// so the interrupt ends it.
		{name: "select forever", code: `select { case <-time.After(time.Hour): }`, cancel: 300 * time.Millisecond, errName: "Interrupted"},
		{name: "blocked until the limit", code: `<-time.After(time.Hour)`, limits: short, errName: "Timeout", errText: "time limit"},
		// Two chains just under cellprep's 10,000-operator bound.
		{name: "slow compile killed", code: "x := 0" + strings.Repeat(" + 1", 9999) + "\ny := 0" + strings.Repeat(" + 1", 9999), limits: func(l *Limits) { l.CellTimeout = 300 * time.Millisecond; l.KillGrace = 200 * time.Millisecond }, errName: "Timeout", errText: "time limit", lost: true},
		{name: "display flood", code: `s := strings.Repeat("x", 1<<20)
for i := 0; i < 24; i++ { display.HTML(s) }`, limits: func(l *Limits) { l.CellTimeout = time.Minute }, check: func(t *testing.T, r *Result) {
			if !r.Truncated || !strings.Contains(r.Stderr, "displays dropped") || !strings.Contains(r.Stderr, "the cell's displays exceeded 16 MiB]") {
				t.Errorf("no note about dropped displays: %q", r.Stderr)
			}
		}},
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
			// A late write of the interrupted cell must never show up.
			if tc.cancel > 0 {
				time.Sleep(3 * time.Second)
				if r := run(t, s, `fmt.Println("after")`); strings.Contains(r.Stdout, "MUST NOT APPEAR") || r.Stdout != "after\n" {
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
