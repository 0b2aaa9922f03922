package progen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Batch is a set of programs built by gc into one binary that runs one of
// them per process, chosen by its first argument: one build for many
// programs (a build costs seconds, a run milliseconds).
type Batch struct {
	bin   string
	progs []*Program
}

// Run is how a program of a batch ran.
type Run struct {
	Stdout, Stderr string
	Status         int // exit status
}

// pkgName names the package of the i-th program of a batch.
func pkgName(i int) string { return fmt.Sprintf("gen%05d", i) }

// BuildBatch writes the programs as packages of one module in dir and
// builds them with gc (goBin) into dir/batch. A program that gc refuses
// is a defect of the generator: the error names its seed.
func BuildBatch(ctx context.Context, goBin, dir string, progs []*Program) (*Batch, error) {
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gobatch\n\ngo 1.26\n"), 0o644); err != nil {
		return nil, err
	}
	var imports, cases strings.Builder
	for i, p := range progs {
		name := pkgName(i)
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, name, "prog.go"), []byte(p.Package(name)), 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(&imports, "\t%q\n", "gobatch/"+name)
		fmt.Fprintf(&cases, "\tcase %q:\n\t\t%s.Main()\n", name, name)
	}
	main := "package main\n\nimport (\n\t\"os\"\n\n" + imports.String() + ")\n\nfunc main() {\n\tswitch os.Args[1] {\n" +
		cases.String() + "\tdefault:\n\t\tpanic(\"no program \" + os.Args[1])\n\t}\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		return nil, err
	}
	b := &Batch{bin: filepath.Join(dir, "batch"), progs: progs}
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", b.bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("gc refused generated programs (a generator defect):\n%s", b.nameSeeds(string(out)))
	}
	return b, nil
}

var pkgRef = regexp.MustCompile(`gen(\d{5})`)

// nameSeeds adds the seed after each package name in gc's errors.
func (b *Batch) nameSeeds(out string) string {
	return pkgRef.ReplaceAllStringFunc(out, func(m string) string {
		var i int
		fmt.Sscanf(m[3:], "%d", &i)
		if i < len(b.progs) {
			return fmt.Sprintf("%s (seed %d)", m, b.progs[i].Seed)
		}
		return m
	})
}

// Run runs the i-th program and returns what it printed, with its
// package's name in type names put back to "main".
func (b *Batch) Run(ctx context.Context, i int, timeout time.Duration) (Run, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bin, pkgName(i))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Run{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return r, fmt.Errorf("seed %d ran past %v under gc (a generator defect)", b.progs[i].Seed, timeout)
	case errors.As(err, &ee):
		r.Status = ee.ExitCode()
	case err != nil:
		return r, err
	}
	prefix := pkgName(i) + "."
	r.Stdout = strings.ReplaceAll(r.Stdout, prefix, "main.")
	r.Stderr = strings.ReplaceAll(r.Stderr, prefix, "main.")
	return r, nil
}
