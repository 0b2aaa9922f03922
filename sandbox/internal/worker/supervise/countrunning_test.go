package supervise

import "testing"

// TestCountRunning reads dumps as runtime.Stack writes them: only
// goroutines a cell's go statement started, running or runnable, count.
func TestCountRunning(t *testing.T) {
	dump := `goroutine 1 [running]:
main.main()
	/x/main.go:1 +0x1

goroutine 7 [runnable]:
strings.IndexFunc(...)
	/go/src/strings/strings.go:1 +0x1
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func1()
	/w/goroutines.go:70 +0x1
created by github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go in goroutine 1

goroutine 8 [chan receive]:
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func1()
	/w/goroutines.go:70 +0x1

goroutine 9 [running]:
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func2()
	/w/goroutines.go:70 +0x1
`
	if got := countRunning([]byte(dump)); got != 2 {
		t.Fatalf("countRunning = %d, want 2 (goroutines 7 and 9)", got)
	}
	var buf []byte
	if n := cellGoroutinesRunning(&buf); n != 0 {
		t.Fatalf("no cell goroutines in the test binary, got %d", n)
	}
}
