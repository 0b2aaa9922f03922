package progen

import (
	"context"
	"flag"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

var compileN = flag.Int("progen.n", 60, "programs TestGeneratedProgramsCompile builds with gc")

func TestGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		a, b := Generate(seed, Options{}), Generate(seed, Options{})
		if a.File() != b.File() {
			t.Fatalf("seed %d: two programs", seed)
		}
	}
}

// TestGeneratedProgramsCompile builds generated programs with gc and runs
// them: every one must compile, terminate and stay small.
func TestGeneratedProgramsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with gc")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(goBin); err != nil {
		t.Skipf("no go command: %v", err)
	}
	var progs []*Program
	for seed := uint64(1); seed <= uint64(*compileN); seed++ {
		progs = append(progs, Generate(seed, Options{}))
	}
	ctx := context.Background()
	b, err := BuildBatch(ctx, goBin, t.TempDir(), progs)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range progs {
		r, err := b.Run(ctx, i, 20*time.Second)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(r.Stdout) > 200<<10 {
			t.Errorf("seed %d printed %d bytes", p.Seed, len(r.Stdout))
		}
	}
}

var dump = flag.Int("progen.dump", -1, "print the program of this seed (TestDump)")

// TestDump prints one program: go test ./sandbox/internal/progen -run TestDump -progen.dump=SEED -v
func TestDump(t *testing.T) {
	if *dump < 0 {
		t.Skip("no -progen.dump")
	}
	t.Logf("\n%s", Generate(uint64(*dump), Options{}).File())
}
