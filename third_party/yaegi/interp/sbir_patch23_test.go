package interp_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirGoStatementsThroughOptionsGo checks sbir patch 23: with
// Options.Go set, every go statement the interpreter runs starts its
// goroutine through it (a call of an interpreted function, of a function
// value, of a compiled function, and a go statement inside a source
// package the script imports), and the goroutines run.
func TestSbirGoStatementsThroughOptionsGo(t *testing.T) {
	var started atomic.Int64
	var wg sync.WaitGroup
	i := interp.New(interp.Options{
		GoPath: ".",
		SourcecodeFilesystem: fstest.MapFS{
			"src/example.com/spawn/spawn.go": {Data: []byte("package spawn\n\n// Start runs f on a goroutine.\nfunc Start(f func()) { go f() }\n")},
		},
		Go: func(f func()) {
			started.Add(1)
			wg.Add(1)
			go func() { defer wg.Done(); f() }()
		},
	})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import (
	"strings"
	"sync"

	"example.com/spawn"
)

var mu sync.Mutex
var ran int

func inc() { mu.Lock(); ran++; mu.Unlock() }`); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"go inc()",                  // an interpreted function
		"f := inc\ngo f()",          // a function value
		"go func() { inc() }()",     // a literal
		`go strings.Repeat("x", 3)`, // a compiled function
		"spawn.Start(inc)",          // a go statement in a source package
	} {
		before := started.Load()
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if started.Load() != before+1 {
			t.Errorf("%q started %d goroutines through Options.Go, want 1", src, started.Load()-before)
		}
		// The goroutine ends before the next evaluation: an evaluation
		// grows the global frame and sets its done channel, which the
		// goroutines of an earlier one read unlocked (go test -race
		// reported it; upstream's design, not patch 23's subject).
		wg.Wait()
	}
	if v, err := i.Eval("ran"); err != nil || v.Int() != 4 {
		t.Errorf("ran = %v, %v; want the 4 interpreted goroutines to have run", v, err)
	}
}
