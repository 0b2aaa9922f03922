package sandbox

import (
	"fmt"
	"sync"
	"time"
)

// A session's builds run outside its cells' limits, on the host's cores
// (the first on a machine takes about 110 s of CPU, a warm one about
// half a second); buildAccount bounds the CPU time they use over a
// sliding window (CompileSettings.BuildCPU per BuildCPUWindow), so that
// one user cannot keep a shared server compiling. The process's
// concurrent builds are bounded apart (CompileSettings.MaxBuilds).

// buildAccount is one session's account of its builds' CPU time; it is
// the gobuild.Budget of the session's builds.
type buildAccount struct {
	limit, window time.Duration
	now           func() time.Time

	mu      sync.Mutex
	charges []buildCharge // oldest first
}

// buildCharge is the CPU time of one build, and when it ended.
type buildCharge struct {
	at  time.Time
	cpu time.Duration
}

func newBuildAccount(limit, window time.Duration) *buildAccount {
	return &buildAccount{limit: limit, window: window, now: time.Now}
}

// Remaining is the CPU time left in the window, or a *BuildBudgetError.
func (a *buildAccount) Remaining() (time.Duration, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	for len(a.charges) > 0 && now.Sub(a.charges[0].at) >= a.window {
		a.charges = a.charges[1:]
	}
	var used time.Duration
	for _, c := range a.charges {
		used += c.cpu
	}
	if used < a.limit {
		return a.limit - used, nil
	}
	// The budget is back once enough of the oldest builds have left the
	// window.
	until, left := now, used
	for _, c := range a.charges {
		left -= c.cpu
		until = c.at.Add(a.window)
		if left < a.limit {
			break
		}
	}
	return 0, &BuildBudgetError{Used: used, Limit: a.limit, Window: a.window, Until: until}
}

// Charge records a build's CPU time.
func (a *buildAccount) Charge(cpu time.Duration) {
	if cpu <= 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.charges = append(a.charges, buildCharge{at: a.now(), cpu: cpu})
}

// A BuildBudgetError is a build refused because the session's builds
// used their CPU budget (CompileSettings.BuildCPU) in the window.
type BuildBudgetError struct {
	Used, Limit, Window time.Duration
	// Until is when enough of the session's earlier builds leave the
	// window for builds to run again.
	Until time.Time
}

func (e *BuildBudgetError) Error() string {
	return fmt.Sprintf("this session's builds of compiled cells used %v of CPU time in the last %v, its build budget (--build-cpu %v): the next build may run at %s UTC, when earlier builds leave the window. Cells already built still run compiled, and a cell runs interpreted without %s; the kernel's operator can raise --build-cpu",
		e.Used.Round(100*time.Millisecond), e.Window, e.Limit, e.Until.UTC().Format("15:04:05"), CompileDirective)
}
