package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

const doctorDescription = `Describe this installation: the awards data in use (real or synthetic, where
it is, how big, how it loaded) and which sandbox isolation layers are active on
this host, with the reason for each one that is not, whether compiled cells
are on (which Go toolchain builds them; --compile builds what they all link,
ahead of the first), and the cache of per-notebook Go packages. Exits 1 when
the data cannot be loaded, or, with --require-isolation, when a layer is
missing.`

func cmdDoctor(ctx context.Context, env *cliEnv, args []string) error {
	limits := sandbox.DefaultLimits()
	fs, apply := newFlagSet(env, "doctor", "", doctorDescription)
	requireIsolation := fs.Bool("require-isolation", false, "exit 1 unless every isolation layer is active")
	asJSON := fs.Bool("json", false, "print the isolation layers as JSON")
	warm := fs.Bool("compile", false, "build what every compiled cell links, so that compiled cells build in about a second (the first time on a machine: about 100 s of CPU), and report it")
	limits.RegisterFlags(fs)
	compile := sandbox.DefaultCompileSettings()
	compile.RegisterToolchainFlags(fs)
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	out := env.Stdout

	fmt.Fprintf(out, "sbir-kernel %s\n\n", version)
	src, err := dataset.Locate(ctx, dataset.ConfigFromEnv(env.Getenv))
	if err != nil {
		return fmt.Errorf("data: %w", err)
	}
	if err := src.WriteDoctor(out); err != nil {
		return err
	}

	fmt.Fprintf(out, "\nSandbox\n")
	fmt.Fprintf(out, "  limits: %s per cell (then %s grace before the worker is killed), %s heap, %s output, %s code\n",
		limits.CellTimeout, limits.KillGrace, bytesize.Exact(limits.HeapBytes),
		bytesize.Exact(int64(limits.MaxOutputBytes)), bytesize.Exact(int64(limits.MaxCodeBytes)))
	layers, err := sandbox.ProbeIsolation(ctx, sandbox.Options{Limits: limits, DataPath: src.ArrowPath, Logger: env.Logger})
	if err != nil {
		return fmt.Errorf("start a sandbox worker: %w", err)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(layers, "", "  ")
		fmt.Fprintf(out, "%s\n", b)
	}
	missing := 0
	for _, l := range layers {
		mark := "active"
		if !l.Active {
			mark = "OFF"
			missing++
		}
		fmt.Fprintf(out, "  %-7s %-18s %s\n", mark, l.Name, l.Detail)
	}
	if missing > 0 {
		fmt.Fprintf(out, "  %d of %d isolation layers are off on this host.\n", missing, len(layers))
		if *requireIsolation {
			return exitError{code: 1, err: fmt.Errorf("%d isolation layers are not active (see above)", missing)}
		}
	} else {
		fmt.Fprintf(out, "  all %d isolation layers are active.\n", len(layers))
	}

	compiler, off := newCompiler(ctx, env, compile)
	if err := describeCompiler(ctx, out, compiler, off, *warm); err != nil {
		return err
	}

	fmt.Fprintf(out, "\nPer-notebook Go packages (//sbir:require)\n")
	dir := packagesDir(env.Getenv)
	sets, err := pkgenv.List(dir)
	if err != nil {
		return err
	}
	var size int64
	for _, e := range sets {
		size += e.Size
	}
	fmt.Fprintf(out, "  cache:    %s (%d sets, %s; 'sbir-kernel packages list' shows them)\n", dir, len(sets), bytesize.Approx(size))
	fmt.Fprintf(out, "  installs: only kernels started with --allow-packages install; cached sets are usable by every kernel\n")
	return nil
}
