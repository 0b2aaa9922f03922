package sandbox

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestBuildBudgetRefusesBuildsOverIt: a session whose builds used their
// CPU budget gets a BuildError saying what was used, when builds may run
// again and what to do, before anything is built; cells already built
// still run compiled, and interpreted cells run.
func TestBuildBudgetRefusesBuildsOverIt(t *testing.T) {
	c := *testCompiler(t)
	c.budget, c.window = time.Minute, time.Hour
	s := newCompiledSession(t, func(o *Options) { o.Compiler = &c })
	built := "//sbir:compile\n\"built within the budget by \" + \"" + t.Name() + "\""
	if res := run(t, s, built); !res.Success {
		t.Fatalf("a build within the budget: %s: %s", res.ErrorName, res.ErrorMessage)
	}
	if _, err := s.builds.Remaining(); err != nil {
		t.Fatalf("one warm build spent the whole budget: %v", err)
	}
	s.builds.Charge(time.Minute) // as if it had compiled for a minute
	before := c.b.Builds()
	res := run(t, s, "//sbir:compile\n\"over the budget in \" + \""+t.Name()+"\"")
	if res.ErrorName != ClassBuildError {
		t.Fatalf("a build over the budget: %s: %s; want a BuildError", res.ErrorName, res.ErrorMessage)
	}
	for _, want := range []string{"used 1m", "of CPU time in the last 1h0m0s", "--build-cpu 1m0s", "the next build may run at", "UTC", "Cells already built still run compiled", "without " + CompileDirective} {
		if !strings.Contains(res.ErrorMessage, want) {
			t.Errorf("the error lacks %q:\n%s", want, res.ErrorMessage)
		}
	}
	if c.b.Builds() != before {
		t.Error("a build over the budget ran")
	}
	if res := run(t, s, built); !res.Success {
		t.Errorf("a cell already built, over the budget: %s: %s; want it run", res.ErrorName, res.ErrorMessage)
	}
	if res := run(t, s, "21 * 2"); !res.Success || value(res) != "42" {
		t.Errorf("an interpreted cell over the build budget: %+v", res)
	}
}

// TestBuildAccountWindow: the budget counts the builds of the last
// window; it comes back as the oldest leave it, at the time the error
// names.
func TestBuildAccountWindow(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	a := newBuildAccount(10*time.Second, time.Hour)
	a.now = func() time.Time { return now }
	a.Charge(6 * time.Second) // 12:00
	now = now.Add(20 * time.Minute)
	a.Charge(6 * time.Second) // 12:20
	now = now.Add(10 * time.Minute)
	_, err := a.Remaining()
	var be *BuildBudgetError
	if !errors.As(err, &be) || be.Used != 12*time.Second || !be.Until.Equal(time.Date(2026, 11, 27, 13, 0, 0, 0, time.UTC)) {
		t.Fatalf("12 s used of 10 s: %v (%+v); want a BuildBudgetError until 13:00, when the first build leaves the window", err, be)
	}
	now = time.Date(2026, 11, 27, 13, 0, 0, 0, time.UTC)
	if left, err := a.Remaining(); err != nil || left != 4*time.Second {
		t.Errorf("after the first build left the window: %v, %v; want 4s left", left, err)
	}
}
