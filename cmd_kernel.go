package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/kernel"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

const kernelDescription = `Serve the Jupyter messaging protocol on the sockets named in CONNECTION_FILE.
Jupyter starts this command from the kernelspec written by 'sbir-kernel install';
you rarely run it by hand. Cells run in a sandboxed worker process with the
limits below. SIGINT interrupts the running cell; SIGTERM shuts the kernel down.`

func cmdKernel(ctx context.Context, env *cliEnv, args []string) error {
	limits := sandbox.DefaultLimits()
	fs, apply := newFlagSet(env, "kernel", "-f CONNECTION_FILE", kernelDescription)
	connFile := fs.String("f", "", "connection file written by Jupyter (required)")
	requireIsolation := fs.Bool("require-isolation", false, "refuse to run cells unless every isolation layer is active")
	limits.RegisterFlags(fs)
	pkgs := pkgenv.Options{KernelVersion: version}
	pkgs.RegisterFlags(fs)
	compile := sandbox.DefaultCompileSettings()
	compile.RegisterFlags(fs)
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if *connFile == "" {
		return usageError{"missing -f CONNECTION_FILE"}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	conn, err := kernel.ReadConnectionFile(*connFile)
	if err != nil {
		return err
	}
	logger := env.Logger

	// Locating the data is a few stats when the Arrow cache is current. It
	// converts a CSV only the first time a new SBIR_CSV_PATH is seen.
	isolation := probeIsolation()
	compiler := startCompiler(ctx, env, compile)
	src, err := locateData(ctx, env)
	if err != nil {
		return fmt.Errorf("locate the awards data: %w", err)
	}
	// A kernel stopped right after a conversion lets its sync finish, so
	// that the next kernel finds the file cached.
	defer src.WaitDurable(context.Background())
	for _, w := range src.Warnings {
		logger.Warn(w)
	}

	ev := startSandboxEvaluator(ctx, isolation, compiler, sandbox.Options{
		Limits:           limits,
		DataPath:         src.ArrowPath,
		RequireIsolation: *requireIsolation,
		Logger:           logger,
		Packages:         packageOptions(env, pkgs),
	})
	go func() {
		<-ev.ready // the worker's start is not slowed by the sync's writeback
		src.StartSync()
		releaseConversion(src)
	}()

	// A kernel whose client died (a killed notebook server, a closed
	// terminal running jupyter console) must not live on with its worker.
	ctx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	if watchesParent(env.Getenv) {
		go watchParent(ctx, stopWatching, logger)
	}

	// Jupyter interrupts with interrupt_request (interrupt_mode "message"),
	// but a terminal or an older client may send SIGINT: Go would exit on it.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	res, err := kernel.Serve(ctx, conn, kernel.Config{
		Evaluator:             ev,
		Banner:                kernelBanner(src, limits, pkgs, compile),
		MaxCodeBytes:          limits.MaxCodeBytes,
		ImplementationVersion: version,
		HelpLinks: []kernel.HelpLink{
			{Text: "sbir-kernel README", URL: "https://github.com/sbirtools/sbir-kernel#readme"},
			{Text: "award_data API", URL: "https://github.com/sbirtools/sbir-kernel/blob/main/docs/analysis.md"},
			{Text: "Go language specification", URL: "https://go.dev/ref/spec"},
			{Text: "Go standard library", URL: "https://pkg.go.dev/std"},
			{Text: "SBIR/STTR award data", URL: "https://www.sbir.gov/data-resources"},
		},
		Logger:  logger,
		Signals: sigs,
	})
	if err != nil {
		return err
	}
	logger.Info("kernel stopped", "reason", res.Reason, "restart", res.Restart)
	return nil
}

// watchesParent reports whether the kernel should exit with its parent.
// jupyter_client sets JPY_PARENT_PID when it starts a kernel; as in
// ipykernel, a parent that is init (pid 1) is never watched, because
// reparenting to it cannot be observed.
func watchesParent(getenv func(string) string) bool {
	pid := getenv("JPY_PARENT_PID")
	return pid != "" && pid != "1" && os.Getppid() != 1
}

// watchParent cancels the kernel once its parent process is gone, which
// shows as the kernel being reparented (to init or a subreaper).
func watchParent(ctx context.Context, cancel context.CancelFunc, logger *slog.Logger) {
	parent := os.Getppid()
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != parent {
				logger.Warn("the process that started the kernel is gone; shutting down", "parent", parent)
				cancel()
				return
			}
		}
	}
}

// kernelBanner is what kernel_info shows: the data (and whether it is real),
// the limits a cell runs under, and whether packages may be installed.
func kernelBanner(src *dataset.Source, l sandbox.Limits, pkgs pkgenv.Options, compile sandbox.CompileSettings) string {
	packages := "only sets already in the package cache (installs are off; see --allow-packages)"
	if pkgs.AllowInstall {
		proxy := pkgs.Proxy
		if proxy == "" {
			proxy = pkgenv.DefaultProxy
		}
		packages = "installs allowed from " + proxy
	}
	compiled := "whole programs and cells marked " + sandbox.CompileDirective + " run compiled with gc when the kernel finds a Go toolchain"
	if compile.Off {
		compiled = "off (--compile=off): every cell is interpreted"
	}
	return fmt.Sprintf(`sbir-kernel %s: Go cells over the SBIR/STTR awards (yaegi, sandboxed)
Data: %s
Limits per cell: %s wall clock, %s heap per session, %s of output, %s of code.
Go packages (//sbir:require module version): %s.
Compiled cells: %s.
Try: award_data.Head(5)   award_data.Columns()   award_data.Count()`,
		version, src.Describe(), l.CellTimeout, bytesize.Exact(l.HeapBytes),
		bytesize.Exact(int64(l.MaxOutputBytes)), bytesize.Exact(int64(l.MaxCodeBytes)), packages, compiled)
}
