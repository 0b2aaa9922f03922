package supervise

import "testing"

// TestCountStopped reads dumps as runtime.Stack writes them: of the
// goroutines a cell's go statement started, the running or runnable ones
// count, and of those the ones inside a compiled call the cell made;
// runnable goroutines in the interpreter's own frames (waiting for a
// processor to unwind) are not inside one.
func TestCountStopped(t *testing.T) {
	const goFrame = "github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func1()\n\t/w/goroutines.go:70 +0x1\n"
	for _, tc := range []struct {
		name                string
		dump                string
		running, inCompiled int
	}{
		{"not a cell's", "goroutine 1 [running]:\nmain.main()\n\t/x/main.go:1 +0x1\n", 0, 0},
		{"blocked", "goroutine 8 [chan receive]:\nstrings.IndexFunc(...)\n\t/go/src/strings/strings.go:1 +0x1\n" + goFrame, 0, 0},
		{"inside strings.IndexFunc", "goroutine 7 [runnable]:\ngithub.com/traefik/yaegi/interp.runCfg(...)\n\t/y/run.go:1 +0x1\nreflect.makeFuncStub()\n\t/go/src/reflect/asm.s:1 +0x1\nstrings.IndexFunc(...)\n\t/go/src/strings/strings.go:1 +0x1\nreflect.Value.Call(...)\n\t/go/src/reflect/value.go:1 +0x1\n" + goFrame, 1, 1},
		{"preempted inside sort", "goroutine 9 [preempted]:\nsort.insertionSort(...)\n\t/go/src/sort/zsortfunc.go:1 +0x1\n" + goFrame, 1, 1},
		{"unwinding interpreted code", "goroutine 10 [runnable]:\ngithub.com/traefik/yaegi/interp.runCfg(...)\n\t/y/run.go:1 +0x1\nreflect.Value.Call(...)\n\t/go/src/reflect/value.go:1 +0x1\ngithub.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.bind.func1()\n\t/w/goroutines.go:1 +0x1\n" + goFrame, 1, 0},
		{"deep, its middle elided", "goroutine 11 [runnable]:\ngithub.com/traefik/yaegi/interp.runCfg(...)\n\t/y/run.go:1 +0x1\n...40 frames elided...\ngithub.com/traefik/yaegi/interp.runCfg(...)\n\t/y/run.go:1 +0x1\n" + goFrame, 1, 0},
		{"in a lock", "goroutine 12 [sync.Mutex.Lock]:\nsync.(*Mutex).Lock(...)\n\t/go/src/sync/mutex.go:1 +0x1\n" + goFrame, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			running, inCompiled := countStopped([]byte(tc.dump))
			if running != tc.running || inCompiled != tc.inCompiled {
				t.Errorf("countStopped = %d running, %d in compiled calls; want %d, %d", running, inCompiled, tc.running, tc.inCompiled)
			}
		})
	}
	var buf []byte
	if running, _, ok := scanStopped(&buf); !ok || running != 0 {
		t.Fatalf("no cell goroutines in the test binary, got %d (ok %v)", running, ok)
	}
}
