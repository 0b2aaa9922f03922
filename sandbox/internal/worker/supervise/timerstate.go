package supervise

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// A stopped Timer or Ticker can never fire until it is reset, and only a
// running goroutine can reset it; but time.Timer tells no one whether it
// is stopped, and a cell's top-level variable keeps its Timer reachable
// for the whole session. Counting every reachable Timer as one that may
// fire made a snippet that stops a timer while a goroutine waits on its
// channel run to its time limit, where the program (whose main returns)
// ends at once (gorun corpus program conc-timer-stopped).
//
// So, for that verdict (a deadlock verdict keeps counting every reachable
// timer, as gc's detector does: see TimerWatch.pending), the watch reads
// the runtime's own record: a Timer (and a Ticker,
// whose layout is the same) is the first part of the runtime's timeTimer,
// whose timer holds when, the time it fires next, which Stop sets to 0,
// as does a one-shot timer's firing. That layout is the runtime's private
// business, so it is probed once, on timers made for the purpose, before
// it is trusted: when the probe fails (another Go release laid the
// struct out differently), every reachable timer counts as one that may
// fire, as before, and a cell waits for its time limit instead of ending
// early. TestTimerStateProbe fails when the probe does, so that a Go
// upgrade that moves the field is noticed.

// timerWhenOffset is where the runtime's timer.when lies in a *time.Timer
// on go1.23 to go1.26 (64-bit): after timeTimer's c and init (16 bytes),
// the timer's mutex (8), four one-byte fields, blocked and rand (12,
// padded to 16).
const timerWhenOffset = 40

// timerWhenKnown reports whether timerWhenOffset is where the runtime
// keeps when, by making timers, reading the field and stopping them.
var timerWhenKnown = sync.OnceValue(probeTimerWhen)

func probeTimerWhen() bool {
	if unsafe.Sizeof(uintptr(0)) != 8 || unsafe.Sizeof(time.Timer{}) != 16 {
		return false
	}
	t1 := time.NewTimer(time.Hour)
	t2 := time.NewTimer(2 * time.Hour)
	tk := time.NewTicker(time.Hour)
	defer t2.Stop()
	defer tk.Stop()
	w1, w2 := timerWhen(unsafe.Pointer(t1)), timerWhen(unsafe.Pointer(t2))
	gap := time.Duration(w2 - w1)
	if w1 <= 0 || gap < 59*time.Minute || gap > 61*time.Minute {
		t1.Stop()
		return false
	}
	if timerWhen(unsafe.Pointer(tk)) <= 0 {
		t1.Stop()
		return false
	}
	t1.Stop()
	tk.Stop()
	if timerWhen(unsafe.Pointer(t1)) != 0 || timerWhen(unsafe.Pointer(tk)) != 0 || timerWhen(unsafe.Pointer(t2)) != w2 {
		return false
	}
	t1.Reset(time.Hour)
	defer t1.Stop()
	return timerWhen(unsafe.Pointer(t1)) > 0
}

// timerWhen reads the runtime's when of a *time.Timer or *time.Ticker.
func timerWhen(p unsafe.Pointer) int64 {
	return atomic.LoadInt64((*int64)(unsafe.Add(p, timerWhenOffset)))
}

// timerMayFire reports whether the Timer or Ticker at p may still fire:
// it is set (not stopped and, if one-shot, not fired), or its state
// cannot be read.
func timerMayFire(p unsafe.Pointer) bool {
	return !timerWhenKnown() || timerWhen(p) != 0
}
