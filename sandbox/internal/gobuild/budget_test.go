package gobuild

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// testBudget is a Budget with a fixed answer, recording its charges;
// entered, when set, receives a value when Remaining is asked, which
// then waits for release.
type testBudget struct {
	left    time.Duration
	err     error
	entered chan struct{}
	release chan struct{}

	mu      sync.Mutex
	asked   int
	charged time.Duration
}

func (b *testBudget) Remaining() (time.Duration, error) {
	b.mu.Lock()
	b.asked++
	b.mu.Unlock()
	if b.entered != nil {
		b.entered <- struct{}{}
		<-b.release
	}
	return b.left, b.err
}

func (b *testBudget) Charge(cpu time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.charged += cpu
}

func (b *testBudget) counts() (int, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.asked, b.charged
}

// TestBuildChargesItsBudget: a build is charged the CPU time its
// toolchain processes used; a spent budget refuses the next build with
// its own error before anything runs, but not a cached binary.
func TestBuildChargesItsBudget(t *testing.T) {
	b := newTestBuilder(t, Limits{})
	ample := &testBudget{left: time.Hour}
	bin, err := b.Build(context.Background(), helloProgram, ample)
	if err != nil {
		t.Fatal(err)
	}
	if _, charged := ample.counts(); charged <= 0 || charged != bin.CPU {
		t.Errorf("the budget was charged %v for a build that used %v; want that CPU time, more than 0", charged, bin.CPU)
	}
	spentErr := errors.New("this session's build budget is spent")
	spent := &testBudget{err: spentErr}
	builds, runs := b.Builds(), b.goRuns.Load()
	if _, err := b.Build(context.Background(), strings.Replace(helloProgram, "from gc", "over budget", 1), spent); !errors.Is(err, spentErr) {
		t.Errorf("a build over budget: %v; want the budget's error", err)
	}
	if b.Builds() != builds || b.goRuns.Load() != runs {
		t.Error("a build over budget ran the toolchain")
	}
	if again, err := b.Build(context.Background(), helloProgram, spent); err != nil || !again.Cached {
		t.Errorf("a cached binary with the budget spent: %+v, %v; want the binary", again, err)
	}
	if asked, _ := spent.counts(); asked != 1 {
		t.Errorf("the spent budget was asked %d times; want once (a cached binary costs nothing)", asked)
	}
}

// TestBuildsWaitForASlot: with one build at a time, a second build waits
// until the first has ended before it asks its budget or runs anything.
func TestBuildsWaitForASlot(t *testing.T) {
	l := DefaultLimits()
	l.Concurrent = 1
	b := newTestBuilder(t, l)
	first := &testBudget{left: time.Hour, entered: make(chan struct{}), release: make(chan struct{})}
	second := &testBudget{left: time.Hour}
	errs := make(chan error, 2)
	go func() {
		_, err := b.Build(context.Background(), strings.Replace(helloProgram, "from gc", "first", 1), first)
		errs <- err
	}()
	<-first.entered // the first build holds the slot
	go func() {
		_, err := b.Build(context.Background(), strings.Replace(helloProgram, "from gc", "second", 1), second)
		errs <- err
	}()
	for deadline := time.Now().Add(time.Minute); b.waiting.Load() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second build never waited for a slot")
		}
	}
	if asked, _ := second.counts(); asked != 0 {
		t.Fatal("the second build went ahead while the first held the only slot")
	}
	close(first.release)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if asked, charged := second.counts(); asked != 1 || charged <= 0 {
		t.Errorf("the second build after the first: asked %d, charged %v", asked, charged)
	}
}
