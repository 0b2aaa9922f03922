package interp_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
)

// updateIntTierFast rewrites testdata/inttier_fast/*.golden from go run.
var updateIntTierFast = flag.Bool("inttierfast.update", false, "record go run's output of testdata/inttier_fast/*.go in their .golden files")

// TestSbirIntTierFastPrograms runs the programs of testdata/inttier_fast
// (sbir patch S14) with the int tier and without it: both must print go
// run's output (the .golden files). They attack the tier's typed
// callbacks: sort.Slice, SliceStable, SliceIsSorted and Search over
// slices captured and global, of structs (nested fields, bools), of
// defined types, reassigned, appended to and resliced between calls;
// functions sharing one less from goroutines at once; less functions that
// call and loop (no leaf: the register stack from the pool); indexes out
// of range and divisions by zero recovered, more often than the tier's
// four panics. With the tier, the leaves and fast reads each program is
// written for must be taken, and no read may miss its type.
func TestSbirIntTierFastPrograms(t *testing.T) {
	tests := []struct {
		name                      string
		leaves, fastReads, deopts int // at least
	}{
		{"basic", 9, 15, 0},
		{"aliasing", 5, 8, 0},
		{"goroutines", 3, 6, 0},
		{"calls", 0, 5, 0},
		{"panics", 5, 6, 8},
		{"bools", 5, 8, 0},
	}
	for _, tc := range tests {
		src := filepath.Join("testdata", "inttier_fast", tc.name+".go")
		golden := filepath.Join("testdata", "inttier_fast", tc.name+".golden")
		if *updateIntTierFast {
			out, err := exec.Command("go", "run", src).CombinedOutput()
			if err != nil {
				t.Fatalf("go run %s: %v\n%s", src, err, out)
			}
			if err := os.WriteFile(golden, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		for _, tier := range []bool{true, false} {
			t.Run(tc.name+map[bool]string{true: "/tier", false: "/interpreter"}[tier], func(t *testing.T) {
				i, out, errs := intTierInterp(t, tier)
				if _, err := i.Eval(string(code)); err != nil {
					t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
				}
				if got := out.String(); got != string(want) {
					t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
				}
				if !tier {
					return
				}
				if n := interp.IntTierLeaves(i); n < tc.leaves {
					t.Errorf("%d functions ran as leaves, want at least %d", n, tc.leaves)
				}
				if n := interp.IntTierFastReads(i); n < tc.fastReads {
					t.Errorf("%d slice reads compiled fast, want at least %d", n, tc.fastReads)
				}
				if n := interp.IntTierDeopts(i); n < tc.deopts {
					t.Errorf("%d calls panicked in the tier, want at least %d", n, tc.deopts)
				}
				if n := interp.IntTierFastMissed(i); n != 0 {
					t.Errorf("%d fast reads found another type than compiled", n)
				}
			})
		}
	}
}

// TestSbirIntTierLeafInterrupted interrupts a cell sorting over and over
// with a less that runs as a leaf (sbir patch S14), as the kernel's end
// of a cell does: the cell stops, and the next cell sorts with the same
// less.
func TestSbirIntTierLeafInterrupted(t *testing.T) {
	i, out, errs := intTierInterp(t, true)
	if _, err := i.Eval(`
import "sort"

var xs = make([]int, 5000)

var less = func(i, j int) bool { return xs[i] > xs[j] }

func fill() {
	for k := range xs {
		xs[k] = (k * 7919) % 5000
	}
}`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := i.Eval(`for { fill(); sort.Slice(xs, less) }`)
		done <- err
	}()
	deadline := time.Now().Add(time.Minute * slowFactor())
	for interp.IntTierLeaves(i) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if interp.IntTierLeaves(i) == 0 {
		t.Fatal("the less did not run as a leaf within a minute")
	}
	interp.StopRunning(i)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the interrupted cell: %v", err)
		}
	case <-time.After(time.Minute * slowFactor()):
		t.Fatal("still running a minute after it was interrupted")
	}
	v, err := i.Eval(`fill(); sort.Slice(xs, less); xs[0]*10000 + xs[4999]`)
	if err != nil || v.Int() != 4999*10000+0 {
		t.Errorf("after the interrupt: %v, %v, want %d\n%s%s", v, err, 4999*10000, out.String(), errs.String())
	}
}

// TestSbirIntTierLeafRedeclared sorts with a declared less, then with the
// one a later cell declares, and with a func value made before: the
// latest declaration runs, as without the tier (sbir patch S14).
func TestSbirIntTierLeafRedeclared(t *testing.T) {
	cells := []string{
		`import "sort"; var xs = []int{3, 1, 2}; func less(i, j int) bool { return xs[i] < xs[j] }; var f = less`,
		`sort.Slice(xs, less); println(xs[0], xs[1], xs[2])`,
		`func less(i, j int) bool { return xs[i] > xs[j] }`,
		`sort.Slice(xs, less); println(xs[0], xs[1], xs[2])`,
		`xs = []int{5, 9, 7}; sort.Slice(xs, f); println(xs[0], xs[1], xs[2])`,
	}
	var outs [2]string
	for k, tier := range []bool{true, false} {
		i, _, errs := intTierInterp(t, tier)
		for _, c := range cells {
			if _, err := i.Eval(c); err != nil {
				t.Fatalf("tier=%v: %s: %v", tier, c, err)
			}
		}
		outs[k] = errs.String()
		if tier && interp.IntTierLeaves(i) == 0 {
			t.Error("no less ran as a leaf: the test tests nothing")
		}
	}
	if want := "1 2 3\n3 2 1\n9 7 5\n"; outs[0] != want || outs[1] != want {
		t.Errorf("with the tier:\n%swithout:\n%swant:\n%s", outs[0], outs[1], want)
	}
}
