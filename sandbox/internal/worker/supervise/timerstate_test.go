package supervise

import (
	"reflect"
	"runtime"
	"testing"
	"time"
)

// TestTimerStateProbe: the runtime's timer layout that timerstate.go reads
// is the one of the Go release building this. When this fails, a Go
// upgrade moved timer.when: update timerWhenOffset (stopped timers count
// as pending meanwhile, so cells that stop a timer with a goroutine
// waiting on it run to their time limit).
func TestTimerStateProbe(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("timerstate probes 64-bit layouts; GOARCH %s", runtime.GOARCH)
	}
	if !probeTimerWhen() {
		t.Fatal("probeTimerWhen: the runtime's timer.when is not at timerWhenOffset")
	}
}

// TestTimerWatchStoppedTimers: a Timer or Ticker a cell made and stopped
// (or a one-shot Timer that fired) cannot wake a goroutine, so it does not
// hold off the stuck verdict (statements done) even while it is reachable;
// a reset one does again. For a deadlock verdict it still counts, as it
// does for gc's detector.
func TestTimerWatchStoppedTimers(t *testing.T) {
	if !timerWhenKnown() {
		t.Skip("the runtime's timer layout is unknown (TestTimerStateProbe)")
	}
	table := map[string]map[string]reflect.Value{"time/time": {
		"NewTimer":  reflect.ValueOf(time.NewTimer),
		"NewTicker": reflect.ValueOf(time.NewTicker),
	}}
	var w TimerWatch
	w.Wrap(table)
	newTimer := table["time/time"]["NewTimer"].Interface().(func(time.Duration) *time.Timer)
	newTicker := table["time/time"]["NewTicker"].Interface().(func(time.Duration) *time.Ticker)

	slow := newTimer(time.Hour)
	if !w.pending(true) {
		t.Fatal("a running one-hour timer: pending() = false, want true")
	}
	slow.Stop()
	if w.pending(true) {
		t.Fatal("a stopped timer: pending() = true, want false")
	}
	if !w.pending(false) {
		t.Fatal("a stopped timer, for a deadlock verdict: pending() = false, want true (gc does not report that deadlock)")
	}
	slow.Reset(time.Hour)
	if !w.pending(true) {
		t.Fatal("a timer reset after Stop: pending() = false, want true")
	}
	slow.Stop()

	quick := newTimer(time.Millisecond)
	<-quick.C
	if w.pending(true) {
		t.Fatal("a one-shot timer that fired: pending() = true, want false")
	}

	tick := newTicker(time.Hour)
	if !w.pending(true) {
		t.Fatal("a running ticker: pending() = false, want true")
	}
	tick.Stop()
	if w.pending(true) {
		t.Fatal("a stopped ticker: pending() = true, want false")
	}
	runtime.KeepAlive(slow)
	runtime.KeepAlive(quick)
	runtime.KeepAlive(tick)
}
