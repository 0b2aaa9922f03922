package supervise

import (
	"strings"
	"testing"
)

// Goroutines of a stack dump, as runtime.Stack writes them (file lines
// shortened).
const (
	dumpMainRecv = `goroutine 7 [select]:
reflect.rselect({0x4d614a39768, 0x2, 0x4d6144d2728?})
reflect.Select({0x4d614a39888?, 0x2, 0x3?})
github.com/traefik/yaegi/interp.recv.func2(0x4d614a342c0)
github.com/traefik/yaegi/interp.runCfg(0x4d61482b7c0, 0x4d614a342c0, 0x4d614845bc0?, 0x0?)
github.com/traefik/yaegi/interp.(*Interpreter).run(0x4d6145b4d88, 0x4d614a40000, 0x4d6146461e0?)
github.com/traefik/yaegi/interp.(*Interpreter).Execute(0x4d6145b4d88, 0x4d614926690)
github.com/traefik/yaegi/interp.(*Interpreter).EvalWithContext.func1()
	/x/interp.go:1 +0x1
created by github.com/traefik/yaegi/interp.(*Interpreter).EvalWithContext in goroutine 21
	/x/interp.go:1 +0x1
`
	dumpMainFinish = `goroutine 7 [select, 2 minutes]:
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Cell).Finish(0x4d6144f0e80, {0xf46070, 0x4d6146ec3c0}, 0x4d6146bc5e8, 0x0, 0x4d614898030)
github.com/sbirtools/sbir-kernel/sandbox/internal/worker.(*session).endCell.func1()
reflect.Value.Call({0xd72560?, 0x4d6145381a0?, 0x494249?}, {0x17d6340?, 0x7faf7803d9c0?, 0x1f5?})
github.com/traefik/yaegi/interp.callBin.func12(0x4d6145542c0)
github.com/traefik/yaegi/interp.runCfg(0x4d614a403c0, 0x4d6145542c0, 0x8a8e25?, 0xd72520?)
github.com/traefik/yaegi/interp.(*Interpreter).EvalWithContext.func1()
`
	dumpGoMutex = `goroutine 29 [sync.Mutex.Lock]:
internal/sync.runtime_SemacquireMutex(0x1?, 0x1?, 0x0?)
internal/sync.(*Mutex).lockSlow(0x4d614696068)
sync.(*Mutex).Lock(0x0?)
reflect.Value.Call({0xdf04e0?, 0x4d614696068?, 0x494249?}, {0x17d6340?, 0x4d6000cf4c0?, 0x4d6144d2878?})
github.com/traefik/yaegi/interp.callBin.func12(0x4d614a340b0)
github.com/traefik/yaegi/interp.runCfg(0x4d614813900, 0x4d614a340b0, 0x4d614845bc0?, 0x0?)
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func1()
created by github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go in goroutine 28
`
	dumpGoSleep = `goroutine 34 [select]:
github.com/sbirtools/sbir-kernel/sandbox/internal/worker.sleep(0x0?)
reflect.Value.Call({0xd88c00?, 0xf30d90?, 0x494249?}, {0x4d6149073e0?, 0xed9760?, 0x4d6144d2801?})
github.com/traefik/yaegi/interp.callBin.func12(0x4d614a34370)
github.com/traefik/yaegi/interp.runCfg(0x4d61486cb40, 0x4d614a34370, 0x4d614845bc0?, 0x0?)
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func1()
`
	dumpGoRunnable = `goroutine 35 [runnable]:
github.com/traefik/yaegi/interp.runCfg(0x4d61486cb40, 0x4d614a34370, 0x4d614845bc0?, 0x0?)
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func1()
`
	dumpGoInLibrary = `goroutine 36 [sync.Cond.Wait]:
sync.runtime_notifyListWait(0x4d61469e0d0, 0x0)
sync.(*Cond).Wait(0x4d61469e0c0)
io.(*pipe).read(0x4d61469e0c0, {0x4d61469e0c0, 0x10, 0x10})
reflect.Value.Call({0xd88c00?, 0xf30d90?, 0x494249?}, {0x4d6149073e0?, 0xed9760?, 0x4d6144d2801?})
github.com/traefik/yaegi/interp.callBin.func12(0x4d614a34370)
github.com/traefik/yaegi/interp.runCfg(0x4d61486cb40, 0x4d614a34370, 0x4d614845bc0?, 0x0?)
github.com/sbirtools/sbir-kernel/sandbox/internal/worker/supervise.(*Goroutines).Go.func1()
`
	dumpWorker = `goroutine 22 [chan receive]:
github.com/sbirtools/sbir-kernel/sandbox/internal/worker.(*cellOutput).loop(...)
created by github.com/sbirtools/sbir-kernel/sandbox/internal/worker.newCellOutput in goroutine 21
`
)

func TestJudge(t *testing.T) {
	for _, c := range []struct {
		name string
		dump []string
		want verdict
	}{
		{"main blocked alone", []string{dumpWorker, dumpMainRecv}, verdictDeadlock},
		{"main and goroutine blocked", []string{dumpMainRecv, dumpGoMutex, dumpWorker}, verdictDeadlock},
		{"statements done, goroutine blocked", []string{dumpMainFinish, dumpGoMutex}, verdictStuck},
		{"statements done, nothing left", []string{dumpMainFinish, dumpWorker}, verdictNone},
		{"a goroutine sleeps", []string{dumpMainRecv, dumpGoSleep}, verdictNone},
		{"a goroutine is runnable", []string{dumpMainRecv, dumpGoRunnable}, verdictNone},
		{"a goroutine waits inside a library", []string{dumpMainRecv, dumpGoInLibrary}, verdictNone},
		{"no main flow (between evaluations)", []string{dumpGoMutex, dumpWorker}, verdictNone},
	} {
		if got := judge([]byte(strings.Join(c.dump, "\n"))); got != c.want {
			t.Errorf("%s: judge = %d, want %d", c.name, got, c.want)
		}
	}
}
